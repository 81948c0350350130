#include "harness/interop/cases.h"

#include <array>

namespace moq::interop {

CaseOutcome CaseOutcome::pass(std::string message) {
  CaseOutcome o;
  o.ok = true;
  if (!message.empty()) o.details.emplace_back("message", std::move(message));
  return o;
}

CaseOutcome CaseOutcome::fail(std::string message, std::string expected, std::string received) {
  CaseOutcome o;
  o.details.emplace_back("message", std::move(message));
  if (!expected.empty()) o.details.emplace_back("expected", std::move(expected));
  if (!received.empty()) o.details.emplace_back("received", std::move(received));
  return o;
}

CaseOutcome CaseOutcome::skipped(std::string why) {
  CaseOutcome o;
  o.ok = true;
  o.skip = std::move(why);
  return o;
}

namespace {

// Time limits as TEST-CASES.md gives them.
constexpr std::array<InteropCase, 8> kCases = {{
    {"setup-only",
     2000,
     "SETUP both ways, then a clean close",
     moqt_cases::setup_only,
     lite_cases::setup_only,
     {}},
    {"announce-only",
     2000,
     "PUBLISH_NAMESPACE moq-test/interop is answered REQUEST_OK",
     moqt_cases::announce_only,
     lite_cases::announce_only,
     {}},
    {"publish-namespace-done",
     2000,
     "the namespace, then its withdrawal by cancelling the request, then a clean close",
     moqt_cases::publish_namespace_done,
     lite_cases::publish_namespace_done,
     {}},
    {"subscribe-error",
     2000,
     "SUBSCRIBE of a namespace nobody publishes gets REQUEST_ERROR",
     moqt_cases::subscribe_error,
     lite_cases::subscribe_error,
     {}},
    {"announce-subscribe",
     3000,
     "a subscriber's SUBSCRIBE is routed to the publisher of the namespace: SUBSCRIBE_OK",
     moqt_cases::announce_subscribe,
     lite_cases::announce_subscribe,
     {}},
    {"subscribe-before-announce",
     3500,
     "SUBSCRIBE first, the namespace 500 ms later: SUBSCRIBE_OK or REQUEST_ERROR",
     moqt_cases::subscribe_before_announce,
     lite_cases::subscribe_before_announce,
     {}},
    {"publish-track-only", 10000,
     "PUBLISH with no subscriber: PUBLISH_OK, an object if forwarding, PUBLISH_DONE",
     moqt_cases::publish_track_only, nullptr,
     "moq-lite has no PUBLISH: a track leaves its publisher only when subscribed"},
    {"publish-track-subscribe",
     10000,
     "a waiting subscriber gets the one object a later publisher pushes, and PUBLISH_DONE",
     moqt_cases::publish_track_subscribe,
     lite_cases::publish_track_subscribe,
     {}},
}};

}  // namespace

std::span<const InteropCase> interop_cases() {
  return kCases;
}

const InteropCase* find_case(std::string_view id) {
  for (const InteropCase& c : kCases)
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace moq::interop
