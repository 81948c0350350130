// QMux-00 transport parameters: what one side lets its peer do, sent as the payload of the
// QX_TRANSPORT_PARAMETERS frame, the first frame each side sends (shared/research/js-peer.md,
// section 2.2). The payload is a sequence of {id, length, value}, each value a QUIC varint of
// exactly its length; ids as in RFC 9000 section 18.2.
//
// A receiver takes an absent parameter as 0, skips unknown ids, and accepts any order; a value
// whose varint does not fill its length exactly, or a parameter given twice, is an error. Until
// a side has the peer's parameters it has no credit at all: no streams, no bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "model/base/result.h"

namespace moq::sim::qmux {

namespace param_id {
constexpr uint64_t kInitialMaxData = 0x04;
constexpr uint64_t kInitialMaxStreamDataBidiLocal = 0x05;
constexpr uint64_t kInitialMaxStreamDataBidiRemote = 0x06;
constexpr uint64_t kInitialMaxStreamDataUni = 0x07;
constexpr uint64_t kInitialMaxStreamsBidi = 0x08;
constexpr uint64_t kInitialMaxStreamsUni = 0x09;
}  // namespace param_id

struct TransportParams {
  uint64_t initial_max_data = 0;
  // On bidi streams the sender of these parameters opened.
  uint64_t initial_max_stream_data_bidi_local = 0;
  // On bidi streams its peer opened.
  uint64_t initial_max_stream_data_bidi_remote = 0;
  // On uni streams its peer opened.
  uint64_t initial_max_stream_data_uni = 0;
  uint64_t initial_max_streams_bidi = 0;
  uint64_t initial_max_streams_uni = 0;

  bool operator==(const TransportParams&) const = default;
};

// Streams a MAX_STREAMS frame or parameter may allow (RFC 9000 section 4.6): 2^60.
constexpr uint64_t kMaxStreamsLimit = uint64_t{1} << 60;

// The payload (without the frame's type and length); zero values are left out, as @moq/qmux does.
std::vector<uint8_t> encode_params(const TransportParams& params);
// The bytes encode_params writes, in a buffer the caller owns; returns the count (at most
// kMaxParamsSize).
constexpr size_t kMaxParamsSize = 6 * (1 + 1 + 8);
size_t encode_params(const TransportParams& params, uint8_t* out);
// Fails naming the parameter and what was wrong (a value cut short, longer than its length says,
// above 2^62-1, a stream count above 2^60, a parameter given twice).
Result<TransportParams> decode_params(std::span<const uint8_t> payload);

}  // namespace moq::sim::qmux
