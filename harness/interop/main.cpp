// moq-test-client: the MoQ interop runner's test client (its client contract: command line and
// environment, TAP version 14 on stdout, exit 0 all passed / 1 a test failed / 127 unknown test
// or unsupported transport), run against any relay over raw QUIC.
#include <iostream>

#include "harness/interop/cases.h"
#include "harness/interop/dialer.h"
#include "harness/interop/options.h"
#include "harness/interop/tap.h"

int main(int argc, char** argv) {
  using namespace moq::interop;
  ClientOptions o;
  if (std::optional<int> code = parse_options(argc, argv, o, std::cout, std::cerr)) return *code;
  if (o.list) {
    for (const InteropCase& c : interop_cases())
      std::cout << c.id << "\n";
    return kExitPassed;
  }
  std::vector<const InteropCase*> run;
  if (o.test.empty()) {
    for (const InteropCase& c : interop_cases())
      run.push_back(&c);
  } else if (const InteropCase* c = find_case(o.test)) {
    run.push_back(c);
  } else {
    std::cerr << "moq-test-client: unknown test '" << o.test << "' (--list names them)\n";
    return kExitUnsupported;
  }
  if (o.relay_url.empty()) {
    std::cerr << "moq-test-client: no relay: give -r/--relay URL or RELAY_URL\n";
    return kExitUsage;
  }
  moq::Result<RelayUrl> url = parse_relay_url(o.relay_url);
  if (!url) {
    std::cerr << "moq-test-client: " << url.error().message << "\n";
    return static_cast<int>(url.error().code);
  }
  moq::Result<std::vector<moq::Version>> offer = offered_versions(o.draft);
  if (!offer) {
    std::cerr << "moq-test-client: " << offer.error().message << "\n";
    return static_cast<int>(offer.error().code);
  }
  TapWriter tap(std::cout);
  tap.comment("moq-test-client (moqbench) against " + o.relay_url);
  moq::Result<std::unique_ptr<Dialer>> dialer =
      Dialer::create(*url, *offer, o.tls_disable_verify, o.verbose ? &std::cerr : nullptr);
  if (!dialer) {
    tap.bail_out(dialer.error().message);
    return kExitFailed;
  }
  tap.plan(run.size());
  const bool lite = moq::version_family(offer->front()) == moq::Family::Lite;
  bool draft_told = false;
  bool failed = false;
  for (const InteropCase* c : run) {
    const uint64_t start = (*dialer)->now_ns();
    CaseContext ctx;
    ctx.dialer = dialer->get();
    ctx.deadline_ns = start + c->timeout_ms * 1'000'000;
    ctx.negotiated = [&](moq::Version v) {
      if (!draft_told) tap.comment("Draft: " + draft_label(v));
      draft_told = true;
    };
    (*dialer)->log("test " + std::string(c->id));
    const CaseRun fn = lite ? c->lite : c->moqt;
    CaseOutcome out = fn ? fn(ctx) : CaseOutcome::skipped(std::string(c->lite_skip));
    TapResult r;
    r.ok = out.ok;
    r.skip = out.skip;
    r.duration_ms = ((*dialer)->now_ns() - start) / 1'000'000;
    r.details = std::move(out.details);
    tap.result(std::string(c->id), r);
    failed = failed || !out.ok;
  }
  return failed ? kExitFailed : kExitPassed;
}
