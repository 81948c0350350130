// libFuzzer target: a real session of every version in every role (tests/fuzz/peer_script.h)
// over sim/memory, against a hostile peer whose script is the input, run to idle and torn down
// with SessionWorld's checks (no livelock, every consumer ended, no task or stream left). Seeds:
// tests/fuzz/corpus/session, recorded from real sessions.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/session_world.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)moq::fuzz::play_script({data, size});
  return 0;
}
