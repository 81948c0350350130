// moq-test-client's contract settings: the relay URL, the versions a draft selects, and the
// command line with the environment filling what it leaves out.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <sstream>

#include "harness/interop/options.h"

namespace moq::interop {
namespace {

using ::testing::HasSubstr;

TEST(RelayUrl, RawQuicUrlsGiveHostPortAuthorityAndPath) {
  Result<RelayUrl> u = parse_relay_url("moqt://relay:4443/room?x=1");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->host, "relay");
  EXPECT_EQ(u->port, 4443);
  EXPECT_EQ(u->authority, "relay:4443");
  EXPECT_EQ(u->path, "/room?x=1");
  u = parse_relay_url("moqt://[::1]:4443");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->path, "");
  u = parse_relay_url("moqt://example.org");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->port, 443);
}

TEST(RelayUrl, WebTransportIsUnsupportedAndBadUrlsAreUsageErrors) {
  Result<RelayUrl> u = parse_relay_url("https://relay:4443");
  ASSERT_FALSE(u);
  EXPECT_EQ(u.error().code, uint64_t(kExitUnsupported));
  EXPECT_THAT(u.error().message, HasSubstr("WebTransport"));
  for (const char* bad : {"relay:4443", "quic://relay:1", "moqt://:4443", "moqt://relay:0",
                          "moqt://relay:70000", "moqt://relay:44x3", "moqt://[::1"}) {
    u = parse_relay_url(bad);
    ASSERT_FALSE(u) << bad;
    EXPECT_EQ(u.error().code, uint64_t(kExitUsage)) << bad;
    EXPECT_THAT(u.error().message, HasSubstr(bad));
  }
}

TEST(OfferedVersions, NoDraftOffersEveryMoqTransportDraftNewestFirst) {
  Result<std::vector<Version>> v = offered_versions("");
  ASSERT_TRUE(v);
  EXPECT_EQ(*v, (std::vector<Version>{Version::Transport22, Version::Transport18}));
}

TEST(OfferedVersions, ADraftNamesOneVersionAnyWayItIsWritten) {
  for (const char* d : {"draft-18", "moqt-18", "moq-transport-18"})
    EXPECT_EQ(offered_versions(d).value(), std::vector<Version>{Version::Transport18}) << d;
  for (const char* d : {"draft-22", "moqt-22", "moq-transport-22"})
    EXPECT_EQ(offered_versions(d).value(), std::vector<Version>{Version::Transport22}) << d;
  EXPECT_EQ(offered_versions("moq-lite-07-wip").value(), std::vector<Version>{Version::Lite07Wip});
  EXPECT_EQ(draft_label(Version::Transport22), "draft-22");
  EXPECT_EQ(draft_label(Version::Lite06), "moq-lite-06");
  Result<std::vector<Version>> v = offered_versions("draft-14");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, uint64_t(kExitUnsupported));
  EXPECT_THAT(v.error().message, HasSubstr("draft-14"));
  EXPECT_THAT(v.error().message, HasSubstr("draft-22"));
  // A spelling of no version at all is the contract's "unsupported" too, not a usage error.
  v = offered_versions("moqt-nonsense");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, uint64_t(kExitUnsupported));
}

// The one parser every command reads a version with: a name, an ALPN, or draft-N.
TEST(VersionSpelling, NameAlpnAndDraftNameTheSameVersion) {
  for (const VersionInfo& v : kVersions) {
    EXPECT_EQ(parse_version_spelling(v.name), v.version) << v.name;
    EXPECT_EQ(parse_version_spelling(v.alpn), v.version) << v.alpn;
  }
  EXPECT_EQ(parse_version_spelling("draft-22"), Version::Transport22);
  EXPECT_EQ(parse_version_spelling("draft-18"), Version::Transport18);
  for (const char* wrong : {"draft-", "draft-2", "draft-220", "draft-06", "moqt-", "", "DRAFT-22"})
    EXPECT_EQ(parse_version_spelling(wrong), std::nullopt) << wrong;
}

// The environment of the contract, set for one test and restored.
class ContractEnv : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const char* n : {"RELAY_URL", "TESTCASE", "TLS_DISABLE_VERIFY", "VERBOSE", "MOQT_DRAFT"})
      unsetenv(n);
  }
  std::optional<int> parse(std::vector<std::string> args, ClientOptions& o) {
    args.insert(args.begin(), "moq-test-client");
    std::vector<char*> argv;
    argv.reserve(args.size());
    for (std::string& a : args)
      argv.push_back(a.data());
    return parse_options(static_cast<int>(argv.size()), argv.data(), o, out_, err_);
  }
  std::ostringstream out_, err_;
};

TEST_F(ContractEnv, TheEnvironmentFillsWhatTheCommandLineLeavesOut) {
  setenv("RELAY_URL", "moqt://env:1", 1);
  setenv("TESTCASE", "setup-only", 1);
  setenv("TLS_DISABLE_VERIFY", "1", 1);
  setenv("VERBOSE", "1", 1);
  setenv("MOQT_DRAFT", "draft-18", 1);
  ClientOptions o;
  EXPECT_EQ(parse({}, o), std::nullopt) << err_.str();
  EXPECT_EQ(o.relay_url, "moqt://env:1");
  EXPECT_EQ(o.test, "setup-only");
  EXPECT_TRUE(o.tls_disable_verify);
  EXPECT_TRUE(o.verbose);
  EXPECT_EQ(o.draft, "draft-18");
}

TEST_F(ContractEnv, ExplicitArgumentsWinOverTheEnvironment) {
  setenv("RELAY_URL", "moqt://env:1", 1);
  setenv("TESTCASE", "setup-only", 1);
  setenv("MOQT_DRAFT", "draft-18", 1);
  ClientOptions o;
  EXPECT_EQ(parse({"-r", "moqt://arg:2", "--test", "announce-only", "--draft", "draft-22"}, o),
            std::nullopt)
      << err_.str();
  EXPECT_EQ(o.relay_url, "moqt://arg:2");
  EXPECT_EQ(o.test, "announce-only");
  EXPECT_EQ(o.draft, "draft-22");
  EXPECT_FALSE(o.tls_disable_verify);
  EXPECT_FALSE(o.verbose);
}

TEST_F(ContractEnv, UnknownOptionsAreUsageErrors) {
  ClientOptions o;
  EXPECT_EQ(parse({"--bogus"}, o), kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("--bogus"));
  EXPECT_EQ(parse({"--help"}, o), kExitPassed);
  EXPECT_THAT(out_.str(), HasSubstr("RELAY_URL"));
}

}  // namespace
}  // namespace moq::interop
