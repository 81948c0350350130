// moqbench publish and subscribe as a user runs them, through `moqbench relay` on a free loopback
// port: every frame of several groups (frames of 0, 1 and 20,000 bytes) arrives in order on each
// version, with the same payload hash on both sides, which this test recomputes from the
// documented definitions (pattern and hash) on its own; wrong expectations and a wrong byte are
// named; bad input is exit 2; nothing published, an unreachable relay, a relay killed mid-run and
// SIGINT are exit 1 with a reason and the partial summary.
#include <gmock/gmock.h>
#include <gnutls/crypto.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <array>
#include <cstdio>
#include <regex>

#include "tests/harness/scratch_dir_test.h"
#include "tests/harness/subprocess.h"

#ifndef MOQBENCH
#error "MOQBENCH must name the moqbench binary of this build"
#endif

namespace moq::harness::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

constexpr auto kBanner = std::chrono::seconds(20);

// The payload hash of `groups` groups of `frames` frames sized from `sizes` in turn, computed
// from the definitions in --help: byte i of frame f of group g = (g*131 + f*31 + i) mod 251, and
// SHA-256 over each frame's 8-byte big-endian length then its payload.
std::string expected_hash(uint64_t groups, uint64_t frames, const std::vector<uint64_t>& sizes) {
  gnutls_hash_hd_t h = nullptr;
  EXPECT_EQ(gnutls_hash_init(&h, GNUTLS_DIG_SHA256), 0);
  for (uint64_t g = 0; g < groups; ++g) {
    for (uint64_t f = 0; f < frames; ++f) {
      const uint64_t size = sizes[f % sizes.size()];
      std::array<uint8_t, 8> length{};
      for (size_t i = 0; i < 8; ++i)
        length[i] = static_cast<uint8_t>(size >> (56 - 8 * i));
      gnutls_hash(h, length.data(), length.size());
      std::vector<uint8_t> payload(size);
      for (uint64_t i = 0; i < size; ++i)
        payload[i] = static_cast<uint8_t>((g * 131 + f * 31 + i) % 251);
      if (size) gnutls_hash(h, payload.data(), payload.size());
    }
  }
  std::array<uint8_t, 32> digest{};
  gnutls_hash_deinit(h, digest.data());
  std::string hex;
  for (uint8_t b : digest) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", b);
    hex += two;
  }
  return hex;
}

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

class PublishSubscribe : public ::testing::Test {
 protected:
  void SetUp() override {
    relay_ = std::make_unique<RunningProcess>(std::vector<std::string>{
        MOQBENCH, "relay", "--listen", "127.0.0.1:0", "--ws", "127.0.0.1:0"});
    const std::string banner = relay_->wait_for_stderr_line("listening on", kBanner);
    ASSERT_FALSE(banner.empty()) << relay_->stderr_so_far();
    std::smatch m;
    ASSERT_TRUE(std::regex_search(banner, m, std::regex("listening on (127\\.0\\.0\\.1:[0-9]+)")));
    url_ = "moqt://" + m[1].str();
    ASSERT_TRUE(std::regex_search(banner, m, std::regex("WebSocket on (127\\.0\\.0\\.1:[0-9]+)")));
    ws_url_ = "ws://" + m[1].str() + "/";
  }
  void TearDown() override {
    if (relay_killed_) return;
    relay_->signal(SIGTERM);
    ProcessResult r = relay_->wait();
    EXPECT_EQ(r.status, 0) << r.err;
  }
  std::vector<std::string> command(const char* sub, const std::string& broadcast,
                                   const std::vector<std::string>& args, bool ws = false) const {
    return with({MOQBENCH, sub, ws ? ws_url_ : url_, "--tls-disable-verify", "--broadcast",
                 broadcast, "--track", "video"},
                args);
  }
  // A subscriber started first, then the publisher run to its end; both results.
  std::pair<ProcessResult, ProcessResult> run_pair(const std::string& broadcast,
                                                   const std::vector<std::string>& pub,
                                                   const std::vector<std::string>& sub) {
    RunningProcess s(command("subscribe", broadcast, with({"--timeout", "20"}, sub)));
    EXPECT_TRUE(s.wait_for_stderr("to be announced", kBanner)) << s.stderr_so_far();
    ProcessResult p = run_process(command("publish", broadcast, with({"--timeout", "20"}, pub)));
    return {p, s.wait()};
  }

  // Three groups of frames of 0, 1 and 20,000 bytes through the relay on each version, a pair of
  // processes per version, side by side (each publisher waits --linger twice): both exit 0 and
  // print the hash the definitions give.
  void every_frame_arrives(const std::vector<std::string>& versions, bool ws) {
    const std::string expected = expected_hash(3, 4, {0, 1, 20000});
    auto shape = [](const std::string& v) {
      return std::vector<std::string>{"--groups",     "3",         "--frames",  "4",
                                      "--frame-size", "0,1,20000", "--version", v,
                                      "--timeout",    "20"};
    };
    const std::string prefix = ws ? "ws/" : "quic/";
    std::vector<std::unique_ptr<RunningProcess>> subs, pubs;
    for (const std::string& v : versions)
      subs.push_back(std::make_unique<RunningProcess>(
          command("subscribe", prefix + v, with(shape(v), {"--check-pattern"}), ws)));
    for (auto& s : subs)
      EXPECT_TRUE(s->wait_for_stderr("to be announced", kBanner)) << s->stderr_so_far();
    for (const std::string& v : versions)
      pubs.push_back(
          std::make_unique<RunningProcess>(command("publish", prefix + v, shape(v), ws)));
    for (size_t i = 0; i < versions.size(); ++i) {
      const std::string& v = versions[i];
      SCOPED_TRACE(v);
      ProcessResult pub = pubs[i]->wait(), sub = subs[i]->wait();
      EXPECT_EQ(pub.status, 0) << pub.out << pub.err;
      EXPECT_EQ(sub.status, 0) << sub.out << sub.err;
      const std::string tail = " video over " + v + ": 3 groups, 12 frames, 60003 bytes, sha256 ";
      EXPECT_THAT(pub.out, HasSubstr("sent " + prefix + v + tail + expected));
      EXPECT_THAT(sub.out, HasSubstr("received " + prefix + v + tail + expected));
    }
  }

  std::unique_ptr<RunningProcess> relay_;
  std::string url_;     // moqt://, QUIC
  std::string ws_url_;  // ws://, QMux-00 over WebSocket
  bool relay_killed_ = false;
};

TEST_F(PublishSubscribe, EveryFrameArrivesInOrderOnEachVersion) {
  every_frame_arrives({"moq-lite-06", "moq-transport-18", "moq-transport-22"}, false);
}

// The same over WebSocket (QMux-00), moq-lite and moq-transport.
TEST_F(PublishSubscribe, EveryFrameArrivesOverWebSocket) {
  every_frame_arrives({"moq-lite-06", "moq-transport-18"}, true);
}

// Each expectation the publisher does not meet is named at the first frame that breaks it, with
// what came before it.
TEST_F(PublishSubscribe, AFrameCountTheTrackDoesNotHaveIsNamed) {
  const std::vector<std::string> pub = {"--groups",     "2",  "--frames",  "3",
                                        "--frame-size", "10", "--version", "moqt-22",
                                        "--linger",     "0.5"};
  auto [p, s] = run_pair("wrong/frames", pub, {"--frames", "4"});
  EXPECT_EQ(s.status, 1) << s.out << s.err;
  EXPECT_THAT(s.err, HasSubstr("group 0 ended after 3 frames; --frames expects 4"));
  EXPECT_THAT(s.out, HasSubstr("received before the failure: 1 groups, 3 frames, 30 bytes"));
}

TEST_F(PublishSubscribe, AGroupBeyondTheExpectedIsNamed) {
  const std::vector<std::string> pub = {"--groups",     "2",  "--frames",  "3",
                                        "--frame-size", "10", "--version", "moqt-22",
                                        "--linger",     "0.5"};
  auto [p, s] = run_pair("wrong/groups", pub, {"--groups", "1"});
  EXPECT_EQ(s.status, 1) << s.out << s.err;
  EXPECT_THAT(s.err, HasSubstr("group 1 arrived beyond the 1 groups that --groups expects"));
}

TEST_F(PublishSubscribe, AFrameOfAnotherSizeIsNamed) {
  const std::vector<std::string> pub = {"--groups",     "1",  "--frames",  "3",
                                        "--frame-size", "10", "--version", "moqt-22",
                                        "--linger",     "0.5"};
  auto [p, s] = run_pair("wrong/size", pub, {"--frame-size", "10,11"});
  EXPECT_EQ(s.status, 1) << s.out << s.err;
  EXPECT_THAT(s.err, HasSubstr("group 0 frame 1: 10 bytes where --frame-size 10,11 expects 11"));
}

TEST_F(PublishSubscribe, AWrongByteIsNamedWithTheBytesAroundIt) {
  // Byte 5 of frame 2 of group 1 written wrong: its pattern value is (131 + 62 + 5) mod 251 =
  // 198 (c6), flipped to 39.
  const std::vector<std::string> pub = {"--groups",     "2",   "--frames",    "3",
                                        "--frame-size", "10",  "--version",   "moqt-22",
                                        "--linger",     "0.5", "--test-flip", "1,2,5"};
  auto [p, s] = run_pair("wrong/byte", pub, {"--check-pattern"});
  EXPECT_EQ(s.status, 1) << s.out << s.err;
  EXPECT_THAT(s.err, HasSubstr("group 1 frame 2, offset 5: expected c1 c2 c3 c4 c5 [c6] c7 c8 c9 "
                               "ca, received c1 c2 c3 c4 c5 [39] c7 c8 c9 ca"));
  EXPECT_THAT(s.out, HasSubstr("received before the failure: 2 groups, 5 frames, 50 bytes"));
}

TEST_F(PublishSubscribe, NothingPublishedIsExit1AfterTheTimeout) {
  ProcessResult s = run_process(command("subscribe", "nobody/here", {"--timeout", "1"}));
  EXPECT_EQ(s.status, 1) << s.out << s.err;
  EXPECT_THAT(s.err, HasSubstr("waiting for the relay to announce nobody/here (is it published?): "
                               "not done within --timeout 1 s"));
  EXPECT_THAT(s.out, HasSubstr("received before the failure: 0 groups, 0 frames, 0 bytes"));
  ProcessResult p = run_process(command("publish", "nobody/listens", {"--timeout", "1"}));
  EXPECT_EQ(p.status, 1) << p.out << p.err;
  EXPECT_THAT(p.err, HasSubstr("waiting for a subscriber to nobody/listens video"));
  EXPECT_THAT(p.out, HasSubstr("sent before the failure: 0 groups"));
}

// A long publication cut short: the relay killed (no close from it), or the subscriber
// interrupted. Neither side reports success.
std::vector<std::string> endless() {
  return {"--groups", "1000000", "--frames",  "4",      "--frame-size",
          "1000",     "-v",      "--version", "moqt-22"};
}

TEST_F(PublishSubscribe, ARelayKilledMidRunFailsBothSides) {
  RunningProcess s(command("subscribe", "cut/relay", {"--timeout", "3"}));
  ASSERT_TRUE(s.wait_for_stderr("to be announced", kBanner)) << s.stderr_so_far();
  RunningProcess p(command("publish", "cut/relay", with({"--timeout", "3"}, endless())));
  ASSERT_TRUE(p.wait_for_stderr("group 3:", kBanner)) << p.stderr_so_far();
  relay_->signal(SIGKILL);
  relay_->wait();
  relay_killed_ = true;
  ProcessResult pr = p.wait();
  EXPECT_EQ(pr.status, 1) << pr.out << pr.err;
  EXPECT_THAT(pr.err, MatchesRegex("(.|\n)*moqbench publish: sending group [0-9]+: (.|\n)+"));
  EXPECT_THAT(pr.out, HasSubstr("sent before the failure: "));
  ProcessResult sr = s.wait();
  EXPECT_EQ(sr.status, 1) << sr.out << sr.err;
  EXPECT_THAT(sr.err, HasSubstr("moqbench subscribe: reading the track: "));
  EXPECT_THAT(sr.out, HasSubstr("received before the failure: "));
}

TEST_F(PublishSubscribe, SigintEndsTheSubscriberWithItsPartialSummary) {
  RunningProcess s(command("subscribe", "cut/sigint", {}));
  ASSERT_TRUE(s.wait_for_stderr("to be announced", kBanner)) << s.stderr_so_far();
  RunningProcess p(command("publish", "cut/sigint", endless()));
  ASSERT_TRUE(p.wait_for_stderr("group 3:", kBanner)) << p.stderr_so_far();
  s.signal(SIGINT);
  ProcessResult sr = s.wait();
  EXPECT_EQ(sr.status, 1) << sr.out << sr.err;
  EXPECT_THAT(sr.err, HasSubstr("interrupted by signal 2"));
  EXPECT_THAT(sr.out, MatchesRegex("received before the failure: [1-9][0-9]* groups, [1-9][0-9]* "
                                   "frames, [1-9][0-9]* bytes, sha256 [0-9a-f]{64}\n"));
  p.signal(SIGINT);
  ProcessResult pr = p.wait();
  EXPECT_EQ(pr.status, 1) << pr.out << pr.err;
  EXPECT_THAT(pr.err, HasSubstr("interrupted by signal 2"));
  EXPECT_THAT(pr.out, HasSubstr("sent before the failure: "));
}

// Bad input: exit 2 before anything is dialled, naming what is wrong.
class PublishSubscribeInput : public ScratchDirTest {};

// Each command starts in ~0.7 s under the sanitizers: every check is made once, with the
// command that has it (the URL, version, timeout and trust options are one code path for both).
TEST_F(PublishSubscribeInput, BadInputIsExit2NamingIt) {
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  std::filesystem::create_symlink(path("missing.pem"), path("dangling"));
  const std::string url = "moqt://127.0.0.1:4443";
  struct Case {
    const char* sub;
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"subscribe", {"-", "--broadcast", "b", "--track", "t"}, "expected moqt://HOST:PORT"},
      {"subscribe", {"http://x:1", "--broadcast", "b", "--track", "t"}, "unknown scheme 'http'"},
      {"subscribe",
       {"moqt://h:99999", "--broadcast", "b", "--track", "t"},
       "port must be a number"},
      {"subscribe",
       {url, "--broadcast", "b", "--track", "t", "--version", "moq-lite-99"},
       "--version 'moq-lite-99' names no implemented version"},
      {"subscribe",
       {url, "--broadcast", "b", "--track", "t", "--version", "draft-22,moqt-22"},
       "--version moq-transport-22 is given twice"},
      {"subscribe",
       {url, "--broadcast", "b", "--track", "t", "--timeout", "0"},
       "--timeout must be more than 0"},
      {"subscribe",
       {url, "--broadcast", "b", "--track", "t", "--ca-file", path("fifo")},
       "not a regular file"},
      {"subscribe",
       {url, "--broadcast", "b", "--track", "t", "--ca-file", path("dangling")},
       "cannot be read"},
      {"subscribe",
       {url, "--broadcast", "b", "--track", "t", "--frame-size", "1,,2"},
       "--frame-size '1,,2': '' is not a size in bytes"},
      {"subscribe",
       {url, "--broadcast", "b", "--track", "t", "--groups", "0"},
       "--groups must be at least 1"},
      {"publish", {url, "--track", "t"}, "--broadcast is required"},
      {"publish", {url, "--broadcast", "/", "--track", "t"}, "--broadcast is empty"},
      {"publish", {url, "--broadcast", "b", "--track", ""}, "--track is empty"},
      {"publish",
       {url, "--broadcast", "b", "--track", "t", "--groups", "0"},
       "--groups must be 1..1000000"},
      {"publish",
       {url, "--broadcast", "b", "--track", "t", "--frame-size", "16777217"},
       "16777217 bytes is over the limit of 16777216 bytes per frame"},
      {"publish",
       {url, "--broadcast", "b", "--track", "t", "--frames", "5", "--frame-size", "16000000"},
       "over the 67108864 a group may hold"},
      {"publish",
       {url, "--broadcast", "b", "--track", "t", "--linger", "-1"},
       "--linger must be 0..3600"},
  };
  for (const Case& c : cases) {
    ProcessResult r = run_process(with({MOQBENCH, c.sub}, c.args));
    EXPECT_EQ(r.status, 2) << c.sub << " " << c.message << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.sub;
  }
}

TEST_F(PublishSubscribeInput, AnUnreachableRelayIsExit1) {
  for (const char* sub : {"publish", "subscribe"}) {
    ProcessResult r = run_process({MOQBENCH, sub, "moqt://127.0.0.1:9", "--tls-disable-verify",
                                   "--broadcast", "b", "--track", "t", "--timeout", "5"});
    EXPECT_EQ(r.status, 1) << sub << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("nothing listens at 127.0.0.1:9")) << sub;
  }
}

}  // namespace
}  // namespace moq::harness::testing
