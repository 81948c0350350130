// DATAGRAM (draft-lcurley-moq-lite-06): one single-frame group in one QUIC datagram (raw QUIC and
// WebTransport only).
//   DATAGRAM { Subscribe ID (i), Group Sequence (i), Timestamp (i, absolute), Payload (rest) }
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "model/base/decoded.h"
#include "model/base/varint.h"
#include "model/wire/lite/version.h"

namespace moq::wire::lite {

// A larger datagram is silently dropped by the receiver.
inline constexpr size_t kMaxDatagramSize = 1200;
inline constexpr size_t kMaxDatagramHeaderSize = 3 * kMaxVarintSize;

struct DatagramHeader {
  static constexpr const char* kName = "DATAGRAM";

  uint64_t subscribe_id = 0;
  uint64_t group = 0;
  uint64_t timestamp = 0;  // absolute, in track timescale units (not a delta, not zigzag)

  bool operator==(const DatagramHeader&) const = default;
};

// Writes the header; the payload goes right after it. Returns the header size, or 0 when a field
// exceeds max_varint(v) or header + payload_size would exceed kMaxDatagramSize.
size_t encode_datagram_header(const DatagramHeader& h, size_t payload_size, LiteVersion v,
                              uint8_t* out);

// Decodes a whole datagram: consumed = the header size, and the payload is
// datagram.subspan(consumed). Never NeedMore (a datagram arrives whole): a truncated header or a
// datagram over kMaxDatagramSize is Malformed, which the session answers by dropping the
// datagram silently, not by closing the session.
Decoded<DatagramHeader> decode_datagram(std::span<const uint8_t> datagram, LiteVersion v);

}  // namespace moq::wire::lite
