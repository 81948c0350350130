// The interop test cases (the MoQ interop runner's TEST-CASES, protocol reference draft-18):
// one table, each case with its id, its time limit and a run function per protocol family.
// moq-transport cases speak the wire themselves (cases_moqt.cpp, through MoqtPeer); moq-lite has
// no request/response messages for a relay to answer, so its cases check the same outcome
// through sessions of model/session (cases_lite.cpp), and a case its protocol lacks is skipped
// with the reason.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/interop/dialer.h"
#include "model/wire/version.h"

namespace moq::interop {

struct CaseContext {
  Dialer* dialer = nullptr;
  uint64_t deadline_ns = 0;                 // the case's time limit, on dialer->now_ns()
  std::function<void(Version)> negotiated;  // told the version of each connection made
};

struct CaseOutcome {
  bool ok = false;
  std::string skip;                                          // non-empty: not run, and why
  std::vector<std::pair<std::string, std::string>> details;  // message, expected, received

  static CaseOutcome pass(std::string message);
  static CaseOutcome fail(std::string message, std::string expected = {},
                          std::string received = {});
  static CaseOutcome skipped(std::string why);
};

using CaseRun = CaseOutcome (*)(CaseContext&);

struct InteropCase {
  std::string_view id;
  uint64_t timeout_ms;
  std::string_view summary;
  CaseRun moqt;
  CaseRun lite;  // null: the moq-lite protocol has no such case (skipped, saying so)
  std::string_view lite_skip;
};

// Every case, in the runner's order.
std::span<const InteropCase> interop_cases();
const InteropCase* find_case(std::string_view id);

// The cases of each family (cases_moqt.cpp, cases_lite.cpp).
namespace moqt_cases {
CaseOutcome setup_only(CaseContext& c);
CaseOutcome announce_only(CaseContext& c);
CaseOutcome publish_namespace_done(CaseContext& c);
CaseOutcome subscribe_error(CaseContext& c);
CaseOutcome announce_subscribe(CaseContext& c);
CaseOutcome subscribe_before_announce(CaseContext& c);
CaseOutcome publish_track_only(CaseContext& c);
CaseOutcome publish_track_subscribe(CaseContext& c);
}  // namespace moqt_cases
namespace lite_cases {
CaseOutcome setup_only(CaseContext& c);
CaseOutcome announce_only(CaseContext& c);
CaseOutcome publish_namespace_done(CaseContext& c);
CaseOutcome subscribe_error(CaseContext& c);
CaseOutcome announce_subscribe(CaseContext& c);
CaseOutcome subscribe_before_announce(CaseContext& c);
CaseOutcome publish_track_subscribe(CaseContext& c);
}  // namespace lite_cases

}  // namespace moq::interop
