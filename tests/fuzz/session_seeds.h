// The seed corpus of the session fuzz target, recorded from real sessions: for each version, a
// real peer session (publisher, viewer, relay client, cluster peer) does ordinary work with the
// session under test over a RecordingConnection, and what it did becomes the hostile peer's
// script. The corpus is committed (tests/fuzz/corpus/session); fuzz_session_seeds DIR records it
// again, and tests/fuzz/session_seeds_test.cpp checks that the committed one is what the
// recorder writes today, and that each seed replays as it was recorded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/session/session.h"

namespace moq::fuzz {

struct SessionSeed {
  std::string name;  // version-scenario, the corpus file's name
  std::vector<uint8_t> script;
  // The session under test's counters when the recording ended (SessionWorld::finish()).
  session::SessionCounters recorded;
};

std::vector<SessionSeed> record_session_seeds();

}  // namespace moq::fuzz
