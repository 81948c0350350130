// Small pieces the scenarios share.
#pragma once

#include <cstdint>
#include <string>

#include "model/async/executor.h"
#include "model/base/result.h"

namespace moq::scenarios {

// Polls a round's work may take before it counts as a livelock.
inline constexpr uint64_t kRoundStepBudget = 10'000'000;

// Runs the executor until nothing is runnable; an exhausted step budget is an Error naming the
// tasks still runnable.
inline Status settle(Executor& executor, const char* what,
                     uint64_t step_budget = kRoundStepBudget) {
  RunReport r = executor.run_until_idle(step_budget);
  if (r.budget_exhausted)
    return Error{0, std::string(what) + ": step budget of " + std::to_string(step_budget) +
                        " polls exhausted; runnable: " + r.detail};
  return {};
}

}  // namespace moq::scenarios
