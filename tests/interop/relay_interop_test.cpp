// moq-test-client against `moqbench relay` on a free loopback port: every interop case passes in
// every implemented version (moq-lite skips the one case its protocol lacks, saying why), the
// default offer negotiates the newest draft, the contract's environment drives a run, and the
// exit codes are the contract's (1: a test failed, 127: unknown test or transport).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <regex>
#include <sstream>

#include "model/session/create_session.h"
#include "model/session/session.h"
#include "tests/harness/subprocess.h"

#ifndef MOQBENCH
#error "MOQBENCH must name the moqbench binary of this build"
#endif
#ifndef MOQ_TEST_CLIENT
#error "MOQ_TEST_CLIENT must name the moq-test-client binary of this build"
#endif

namespace moq::interop {
namespace {

using harness::testing::ProcessResult;
using harness::testing::run_process;
using harness::testing::RunningProcess;
using ::testing::HasSubstr;

const std::vector<std::string> kCases = {
    "setup-only",         "announce-only",          "publish-namespace-done",
    "subscribe-error",    "announce-subscribe",     "subscribe-before-announce",
    "publish-track-only", "publish-track-subscribe"};

// The result lines of a TAP stream: "ok N - id[ # SKIP ...]" / "not ok N - id".
std::vector<std::string> results_of(const std::string& tap) {
  std::vector<std::string> out;
  std::istringstream in(tap);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("ok ", 0) == 0 || line.rfind("not ok ", 0) == 0) out.push_back(line);
  return out;
}

class RelayInterop : public ::testing::Test {
 protected:
  void SetUp() override {
    relay_ = std::make_unique<RunningProcess>(
        std::vector<std::string>{MOQBENCH, "relay", "--listen", "127.0.0.1:0"});
    const std::string banner =
        relay_->wait_for_stderr_line("listening on", std::chrono::seconds(10));
    ASSERT_FALSE(banner.empty()) << relay_->stderr_so_far();
    std::smatch m;
    ASSERT_TRUE(std::regex_search(banner, m, std::regex("listening on (127\\.0\\.0\\.1:[0-9]+)")));
    url_ = "moqt://" + m[1].str();
  }
  void TearDown() override {
    relay_->signal(SIGTERM);
    ProcessResult r = relay_->wait();
    EXPECT_EQ(r.status, 0) << r.err;
  }
  ProcessResult client(std::vector<std::string> args, const std::vector<std::string>& env = {}) {
    args.insert(args.begin(), MOQ_TEST_CLIENT);
    return run_process(args, env);
  }
  std::unique_ptr<RunningProcess> relay_;
  std::string url_;
};

TEST_F(RelayInterop, EveryCasePassesInEveryImplementedVersion) {
  for (Version v : session::implemented_versions()) {
    const bool lite = version_family(v) == Family::Lite;
    const std::string draft =
        lite ? std::string(version_name(v)) : "draft-" + std::string(version_alpn(v).substr(5));
    SCOPED_TRACE(draft);
    ProcessResult r = client({"-r", url_, "--tls-disable-verify", "--draft", draft});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("TAP version 14\n"));
    EXPECT_THAT(r.out, HasSubstr("\n1..8\n"));
    EXPECT_THAT(r.out, HasSubstr("# Draft: " + draft + "\n"));
    const std::vector<std::string> lines = results_of(r.out);
    ASSERT_EQ(lines.size(), kCases.size()) << r.out;
    for (size_t i = 0; i < kCases.size(); ++i) {
      std::string expected = "ok " + std::to_string(i + 1) + " - " + kCases[i];
      if (lite && kCases[i] == "publish-track-only")
        expected +=
            " # SKIP moq-lite has no PUBLISH: a track leaves its publisher only when "
            "subscribed";
      EXPECT_EQ(lines[i], expected) << r.out;
    }
  }
}

TEST_F(RelayInterop, TheDefaultOfferNegotiatesTheNewestDraft) {
  ProcessResult r = client({"-r", url_, "--tls-disable-verify", "-t", "setup-only"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("# Draft: draft-22\n"));
}

// The draft is read as every moqbench command reads a version: draft-N, the ALPN or the name.
TEST_F(RelayInterop, TheDraftIsTakenInEverySpelling) {
  for (const char* draft : {"draft-22", "moqt-22", "moq-transport-22"}) {
    ProcessResult r =
        client({"-r", url_, "--tls-disable-verify", "-t", "setup-only", "--draft", draft});
    EXPECT_EQ(r.status, 0) << draft << ": " << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("# Draft: draft-22\n")) << draft;
  }
}

TEST_F(RelayInterop, TheContractsEnvironmentDrivesARun) {
  ProcessResult r = client({}, {"RELAY_URL=" + url_, "TESTCASE=announce-only",
                                "TLS_DISABLE_VERIFY=1", "MOQT_DRAFT=draft-18", "VERBOSE=1"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("\n1..1\n# Draft: draft-18\nok 1 - announce-only\n"));
  EXPECT_THAT(r.err, HasSubstr("publisher: connected to"));
}

TEST_F(RelayInterop, ExitCodesFollowTheContract) {
  ProcessResult r = client({"--list"});
  EXPECT_EQ(r.status, 0);
  std::string listed;
  for (const std::string& id : kCases)
    listed += id + "\n";
  EXPECT_EQ(r.out, listed);
  r = client({"-r", url_, "-t", "no-such-test"});
  EXPECT_EQ(r.status, 127);
  EXPECT_THAT(r.err, HasSubstr("unknown test 'no-such-test'"));
  r = client({"-r", "https://127.0.0.1:4443"});
  EXPECT_EQ(r.status, 127);
  EXPECT_THAT(r.err, HasSubstr("WebTransport"));
  r = client({"-r", url_, "--draft", "draft-14"});
  EXPECT_EQ(r.status, 127);
  // A relay that does not answer fails the test, naming why.
  r = client({"-r", "moqt://127.0.0.1:9", "-t", "setup-only", "--tls-disable-verify"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.out, HasSubstr("not ok 1 - setup-only\n"));
  EXPECT_THAT(r.out, HasSubstr("nothing listens at 127.0.0.1:9"));
  // So does a relay whose certificate is not trusted, saying how to proceed.
  r = client({"-r", url_, "-t", "setup-only"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.out, HasSubstr("NOT trusted"));
  EXPECT_THAT(r.out, HasSubstr("certificate was not verified"));
  EXPECT_THAT(r.out, HasSubstr("--tls-disable-verify"));
  r = client({});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("RELAY_URL"));
}

}  // namespace
}  // namespace moq::interop
