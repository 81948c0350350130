// The session fuzz target's world and corpus in the regular tests: the committed seeds are what
// the recorder writes today, each replays as it was recorded and passes the end checks, they
// cover every version and role, and mutated seeds (a short, seeded, non-guided fuzz run that
// needs no clang) pass the checks too. tests/fuzz/session_fuzz.cpp is the libFuzzer target.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "model/session/create_session.h"
#include "tests/fuzz/session_seeds.h"
#include "tests/fuzz/session_world.h"

namespace moq::fuzz {
namespace {

const std::vector<SessionSeed>& seeds() {
  static const std::vector<SessionSeed> all = record_session_seeds();
  return all;
}

std::vector<uint8_t> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(SessionSeeds, TheCommittedCorpusIsWhatTheRecorderWritesToday) {
  const std::filesystem::path dir = MOQ_SESSION_CORPUS;
  std::set<std::string> committed;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    committed.insert(e.path().filename().string());
  std::set<std::string> recorded;
  for (const SessionSeed& s : seeds()) {
    recorded.insert(s.name);
    EXPECT_EQ(read_file(dir / s.name), s.script)
        << s.name << " differs from a recording made now: record the corpus again with "
        << "build/dev/tests/fuzz/fuzz_session_seeds tests/fuzz/corpus/session";
  }
  EXPECT_EQ(committed, recorded);
}

// A replay settles after every operation, where the real peer made several in one poll, so a
// request may meet the session under test a step further along (the relay answers a FETCH that
// arrives after its SUBSCRIBE instead of before it): the replay must get at least as far as the
// recording, without a protocol error, and on the seeds where no such race exists, exactly as
// far. The race is the relay-client seed's of each moq-transport version.
TEST(SessionSeeds, EachSeedReplaysAsItWasRecorded) {
  size_t racing = 0;
  for (session::Version v : session::implemented_versions())
    racing += session::version_family(v) == session::Family::Transport;
  size_t exact = 0;
  for (const SessionSeed& s : seeds()) {
    const session::SessionCounters replayed = play_script(s.script);
    EXPECT_EQ(replayed.protocol_errors, 0u) << s.name;
    EXPECT_GE(replayed.frames_sent, s.recorded.frames_sent) << s.name;
    EXPECT_GE(replayed.frames_received, s.recorded.frames_received) << s.name;
    EXPECT_GE(replayed.messages_decoded, s.recorded.messages_decoded) << s.name;
    exact += replayed.frames_sent == s.recorded.frames_sent &&
             replayed.frames_received == s.recorded.frames_received &&
             replayed.messages_decoded == s.recorded.messages_decoded &&
             replayed.messages_encoded == s.recorded.messages_encoded &&
             replayed.streams_opened == s.recorded.streams_opened &&
             replayed.streams_accepted == s.recorded.streams_accepted;
  }
  EXPECT_GE(exact, seeds().size() - racing) << "replays that differ from their recording";
}

TEST(SessionSeeds, CoverEveryVersionAndRoleAndDeliverFrames) {
  std::set<std::pair<uint8_t, uint8_t>> covered;
  for (const SessionSeed& s : seeds()) {
    covered.insert({s.script[0], s.script[1]});
    EXPECT_GT(s.recorded.frames_sent + s.recorded.frames_received, 0u) << s.name;
  }
  for (size_t v = 0; v < session::implemented_versions().size(); ++v) {
    for (uint8_t role = 0; role < kRoleCount; ++role) {
      const bool either = covered.count({v, setup_byte(Role(role), false)}) ||
                          covered.count({v, setup_byte(Role(role), true)});
      EXPECT_TRUE(either) << "no seed for version " << v << " role " << int(role);
    }
  }
}

// Each seed mutated the way a fuzzer starts out (bytes flipped, inserted, cut), from a fixed
// generator: the end checks abort the test binary on a broken promise, ASan and UBSan report
// the rest.
TEST(SessionSeeds, MutatedSeedsKeepEveryPromise) {
  uint64_t state = 0x5eed5eed5eedULL;
  auto next = [&](uint64_t n) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state % n;
  };
  for (const SessionSeed& s : seeds()) {
    for (int round = 0; round < 64; ++round) {
      std::vector<uint8_t> script = s.script;
      for (int edits = 1 + static_cast<int>(next(4)); edits > 0; --edits) {
        const size_t at = 2 + next(script.size() - 1);
        switch (next(3)) {
          case 0:
            if (at < script.size()) script[at] ^= static_cast<uint8_t>(1 + next(255));
            break;
          case 1:
            script.insert(script.begin() + at, static_cast<uint8_t>(next(256)));
            break;
          default:
            script.resize(at);
        }
      }
      (void)play_script(script);
    }
  }
}

// Every seed again over a shaped network (kSetupShaped: 20 ms, up to 5 ms of jitter, 800 kbit/s,
// 10% of datagrams lost): the peer's script now races data that is late, and every promise
// still holds.
TEST(SessionSeeds, OverAShapedNetworkTheyKeepEveryPromise) {
  size_t delivering = 0;
  for (const SessionSeed& s : seeds()) {
    SCOPED_TRACE(s.name);
    std::vector<uint8_t> script = {
        s.script[0], static_cast<uint8_t>(s.script[1] | kSetupShaped), 20, 5, 8, 10, 7};
    script.insert(script.end(), s.script.begin() + 2, s.script.end());
    const session::SessionCounters shaped = play_script(script);
    delivering += shaped.frames_sent + shaped.frames_received > 0;
  }
  // The recorded exchanges still carry frames through late data on most seeds.
  EXPECT_GT(delivering, seeds().size() / 2);
}

// Inputs the fuzz target once failed on (tests/fuzz/regressions/session, one file each, named
// after the defect), played whole.
TEST(SessionSeeds, RegressionsKeepEveryPromise) {
  size_t played = 0;
  for (const auto& e : std::filesystem::directory_iterator(MOQ_SESSION_REGRESSIONS)) {
    SCOPED_TRACE(e.path().filename().string());
    (void)play_script(read_file(e.path()));
    ++played;
  }
  EXPECT_GT(played, 0u);
}

// Hostile moves the recorded seeds never make, each played whole on every version and role.
TEST(SessionSeeds, HandWrittenHostileScriptsKeepEveryPromise) {
  const std::vector<std::vector<uint8_t>> bodies = {
      // Garbage on a fresh bidi stream, then the peer resets it and stops what it accepted.
      ScriptWriter()
          .op(Op::kOpenBidi)
          .op(Op::kWrite)
          .byte(0)
          .payload(std::vector<uint8_t>(40, 0xff))
          .op(Op::kReset)
          .byte(0)
          .number(7)
          .op(Op::kAcceptUni)
          .op(Op::kStop)
          .byte(0)
          .number(9)
          .bytes(),
      // A viewer's requests, then the peer drops every stream handle it holds and closes.
      ScriptWriter()
          .op(Op::kSubscribe)
          .byte(0)
          .op(Op::kFetch)
          .byte(0)
          .number(0)
          .number(0)
          .op(Op::kAcceptBidi)
          .op(Op::kAcceptBidi)
          .op(Op::kDropRecv)
          .byte(0)
          .op(Op::kDropSend)
          .byte(1)
          .op(Op::kClose)
          .number(0x10)
          .bytes(),
      // Streams opened up to the limit and never written, datagrams, time.
      [] {
        ScriptWriter w;
        for (int i = 0; i < 80; ++i)
          w.op(Op::kOpenUni);
        w.op(Op::kDatagram).payload(std::vector<uint8_t>(1300, 1)).op(Op::kAdvance).number(120000);
        return w.bytes();
      }(),
  };
  for (size_t v = 0; v < session::implemented_versions().size(); ++v) {
    for (uint8_t setup = 0; setup < 2 * kRoleCount; ++setup) {
      for (const std::vector<uint8_t>& body : bodies) {
        std::vector<uint8_t> script = {static_cast<uint8_t>(v), setup};
        script.insert(script.end(), body.begin(), body.end());
        (void)play_script(script);
      }
    }
  }
}

}  // namespace
}  // namespace moq::fuzz
