// empty_round: a round that does nothing. Its instruction count is the harness's own cost inside
// a measured round (the counter's start/stop and the call into the case), which every other
// case's count includes. Not part of the default sweep.
#include "harness/runner/registrar.h"

namespace moq::scenarios {

namespace {

class EmptyRound final : public harness::Case {
 public:
  Status setup() override { return {}; }
  Status run_round(uint64_t /*round*/) override { return {}; }
  harness::RoundCheck check_round(uint64_t /*round*/) override { return {}; }
  harness::StackCounts stack_counts() const override { return {}; }
};

harness::ScenarioDef empty_round_scenario() {
  harness::ScenarioDef def;
  def.name = "empty_round";
  def.summary =
      "a round that does nothing: measures the harness's own cost per measured round (the "
      "counter's start/stop and the call into the case)";
  def.make = [](const harness::CaseSpec&) -> Result<std::unique_ptr<harness::Case>> {
    return std::unique_ptr<harness::Case>(new EmptyRound());
  };
  return def;
}

}  // namespace

MOQ_REGISTER_SCENARIO(empty_round_scenario);

}  // namespace moq::scenarios
