#include "sim/net/link.h"

#include <algorithm>

namespace moq::sim::net {

namespace {
const LinkConfig kIdeal;
}

bool LinkConfig::ideal() const {
  return latency_ns == 0 && bandwidth_bps == 0 && jitter_ns == 0 && loss == 0 && duplicate == 0 &&
         blackholes.empty();
}

Status LinkConfig::validate() const {
  if (!(loss >= 0 && loss <= 1)) return Error{0, "link loss must be in [0, 1]"};
  if (!(duplicate >= 0 && duplicate <= 1)) return Error{0, "link duplicate must be in [0, 1]"};
  for (const Blackhole& b : blackholes)
    if (b.end_ns <= b.start_ns) return Error{0, "link blackhole must end after it starts"};
  return {};
}

uint64_t SeededRandom::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

LinkDirection::LinkDirection(const LinkConfig& config, uint64_t stream_id)
    : config_(config.ideal() ? &kIdeal : &config),
      random_(config.seed * 0x100000001b3ULL ^ (stream_id + 1) * 0x9e3779b97f4a7c15ULL) {}

uint64_t LinkDirection::arrival(uint64_t now, uint64_t bytes) {
  const LinkConfig& c = *config_;
  uint64_t on_wire = now;
  if (c.bandwidth_bps != 0) {
    // Bits over bits per second, in ns, rounded up so that a byte always takes time.
    const unsigned __int128 ns =
        (static_cast<unsigned __int128>(bytes) * 8 * 1'000'000'000 + c.bandwidth_bps - 1) /
        c.bandwidth_bps;
    busy_until_ = std::max(busy_until_, now) + static_cast<uint64_t>(ns);
    on_wire = busy_until_;
  }
  const uint64_t at = on_wire + c.latency_ns + random_.up_to(c.jitter_ns);
  last_arrival_ = std::max(last_arrival_, at);
  return last_arrival_;
}

bool LinkDirection::loses(uint64_t now) {
  const LinkConfig& c = *config_;
  for (const Blackhole& b : c.blackholes)
    if (now >= b.start_ns && now < b.end_ns) return true;
  return c.loss > 0 && random_.unit() < c.loss;
}

bool LinkDirection::duplicates() {
  return config_->duplicate > 0 && random_.unit() < config_->duplicate;
}

}  // namespace moq::sim::net
