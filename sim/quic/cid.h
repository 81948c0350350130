// Connection ids as sim/quic issues and routes them. Internal to sim/quic.
#pragma once

#include <ngtcp2/ngtcp2.h>

#include <cstddef>
#include <string>

namespace moq::sim::quic {

// Every connection id we issue has this length: short headers do not carry it, so the endpoint
// parses them with it (quic-backend.md, pitfall 9).
constexpr size_t kCidLen = 18;

// The routing key of a connection id: its bytes.
inline std::string cid_key(const ngtcp2_cid& cid) {
  return std::string(reinterpret_cast<const char*>(cid.data), cid.datalen);
}

}  // namespace moq::sim::quic
