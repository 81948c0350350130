// Scenarios made for the harness tests: their rounds do a known amount of work (allocations,
// stack counts, deliveries) and can be told to fail in a given way at a given round.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/runner/scenario.h"

namespace moq::harness::testing {

// What a FakeCase saw, in order: "setup", "prepare 0", "run 0", "check 0", ..., "teardown".
struct CallLog {
  std::vector<std::string> calls;
};

struct FakeBehaviour {
  uint64_t allocs_per_round = 0;    // operator new calls per round (each 24 bytes)
  uint64_t frames_per_round = 2;    // frames delivered per round (8 bytes each)
  int64_t bad_delivery_round = -1;  // this round delivers one frame too few
  int64_t bad_hash_round = -1;      // this round delivers different bytes (same count and size)
  int64_t error_round = -1;         // run_round returns an Error in this round
  int64_t throw_round = -1;         // run_round throws in this round
  int64_t bad_alloc_round = -1;     // run_round throws std::bad_alloc in this round
  bool fail_setup = false;
  CallLog* log = nullptr;
};

std::unique_ptr<Case> make_fake_case(const FakeBehaviour& behaviour);

// A registry with versions {moq-lite-06, moq-lite-07-wip} implemented (moq-transport-18 known)
// and these scenarios:
//   versioned (default sweep): version, publishers {1,4} (1..64), viewers {1,16} (1..1024),
//                              mode choice {fast, slow} default fast, frame_size default 64 hidden
//   plain: count {1,2,3} (1..10); no version
//   broken: no axes; round index 1 (the first measured round with --warmup 1) delivers a bad hash
//   planted_growth: n {16,32,64,128} (1..4096), order choice {linear, quadratic}: a round makes
//                   n or n*n/16 allocations, a planted growth order for the fit and the gate
ScenarioRegistry make_test_registry();

}  // namespace moq::harness::testing
