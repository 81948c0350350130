// One direction of a link (sim/net/link.h): latency, bandwidth, jitter that never reorders, loss,
// blackholes, duplication, and the seed that makes every draw repeat.
#include "sim/net/link.h"

#include <gtest/gtest.h>

#include <vector>

namespace moq::sim::net {
namespace {

TEST(Link, AnIdealLinkDeliversAtOnceAndLosesNothing) {
  LinkConfig config;
  EXPECT_TRUE(config.ideal());
  LinkDirection d(config, 0);
  EXPECT_EQ(d.arrival(5, 1'000'000), 5u);
  EXPECT_FALSE(d.loses(5));
  EXPECT_FALSE(d.duplicates());
}

TEST(Link, LatencyAddsAndBandwidthSerialisesBackToBackSends) {
  LinkConfig config;
  config.latency_ns = 10'000'000;
  config.bandwidth_bps = 8'000'000;  // 1 byte per microsecond
  LinkDirection d(config, 0);
  EXPECT_EQ(d.arrival(0, 1000), 1'000'000u + 10'000'000u);
  // Sent at once after the first: it waits for the first to be on the wire.
  EXPECT_EQ(d.arrival(0, 1000), 2'000'000u + 10'000'000u);
  // Sent after the link went idle: only its own time on the wire.
  EXPECT_EQ(d.arrival(50'000'000, 500), 50'500'000u + 10'000'000u);
}

TEST(Link, JitterDelaysWithinItsBoundAndNeverReorders) {
  LinkConfig config;
  config.latency_ns = 1'000'000;
  config.jitter_ns = 5'000'000;
  config.seed = 42;
  LinkDirection d(config, 3);
  uint64_t last = 0;
  bool varied = false;
  for (uint64_t i = 0; i < 1000; ++i) {
    const uint64_t now = i * 100'000;
    const uint64_t at = d.arrival(now, 100);
    EXPECT_GE(at, now + config.latency_ns);
    EXPECT_GE(at, last);  // in the order sent
    EXPECT_LE(at, std::max(last, now + config.latency_ns + config.jitter_ns));
    varied |= at != now + config.latency_ns;
    last = at;
  }
  EXPECT_TRUE(varied);
}

std::vector<bool> losses(const LinkConfig& config, uint64_t stream, int n) {
  LinkDirection d(config, stream);
  std::vector<bool> out;
  out.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    out.push_back(d.loses(static_cast<uint64_t>(i)));
  return out;
}

TEST(Link, LossFollowsTheSeedAndItsRate) {
  LinkConfig config;
  config.loss = 0.1;
  config.seed = 7;
  const std::vector<bool> a = losses(config, 0, 10'000);
  EXPECT_EQ(a, losses(config, 0, 10'000)) << "the same seed and direction draw the same";
  EXPECT_NE(a, losses(config, 1, 10'000)) << "each direction draws its own sequence";
  LinkConfig other = config;
  other.seed = 8;
  EXPECT_NE(a, losses(other, 0, 10'000));
  const auto lost = std::count(a.begin(), a.end(), true);
  EXPECT_GT(lost, 850);
  EXPECT_LT(lost, 1150);
}

TEST(Link, ABlackholeLosesEverythingInItsPeriodOnly) {
  LinkConfig config;
  config.blackholes = {{100, 200}};
  LinkDirection d(config, 0);
  EXPECT_FALSE(d.loses(99));
  EXPECT_TRUE(d.loses(100));
  EXPECT_TRUE(d.loses(199));
  EXPECT_FALSE(d.loses(200));
}

TEST(Link, DuplicationFollowsItsRate) {
  LinkConfig config;
  config.duplicate = 0.5;
  LinkDirection d(config, 0);
  int twice = 0;
  for (int i = 0; i < 1000; ++i)
    twice += d.duplicates();
  EXPECT_GT(twice, 400);
  EXPECT_LT(twice, 600);
}

TEST(Link, ValidationNamesTheField) {
  LinkConfig config;
  config.loss = 1.5;
  EXPECT_NE(config.validate().error().message.find("loss"), std::string::npos);
  config.loss = 0;
  config.blackholes = {{5, 5}};
  EXPECT_NE(config.validate().error().message.find("blackhole"), std::string::npos);
}

}  // namespace
}  // namespace moq::sim::net
