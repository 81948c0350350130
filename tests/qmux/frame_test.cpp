// The QMux-00 frames against the bytes @moq/qmux 0.0.6 was seen sending and accepting
// (shared/research/js-peer.md, sections 2.1, 2.4 and 2.5), round trips of every encoder, and the
// errors a bad frame gives.
#include "sim/qmux/frame.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

namespace moq::sim::qmux {
namespace {

using Buf = std::vector<uint8_t>;
using ::testing::HasSubstr;

// Decodes a copy of b kept for the rest of the test program: the frame's views point into it.
FrameDecode decode(const Buf& b, Framing framing = Framing::Stream) {
  static std::deque<Buf> kept;
  kept.push_back(b);
  return decode_frame(std::span<const uint8_t>(kept.back()), framing);
}

Buf bytes_of(std::span<const uint8_t> s) {
  return Buf(s.begin(), s.end());
}

TEST(QmuxFrame, StreamFramesAsTheJsWritesThem) {
  // "0a 01 01 01": STREAM with LEN on bidi 1, one byte 0x01 (ANNOUNCE's type byte).
  const FrameDecode d = decode({0x0a, 0x01, 0x01, 0x01}, Framing::Message);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error;
  EXPECT_EQ(d.frame.kind, FrameKind::Stream);
  EXPECT_EQ(d.frame.stream_id, 1u);
  EXPECT_FALSE(d.frame.fin);
  EXPECT_FALSE(d.frame.has_offset);
  EXPECT_EQ(bytes_of(d.frame.data), Buf{0x01});
  // FIN alone: "0b 00 00".
  const FrameDecode fin = decode({0x0b, 0x00, 0x00});
  ASSERT_EQ(fin.status, DecodeStatus::Ok);
  EXPECT_TRUE(fin.frame.fin);
  EXPECT_EQ(fin.frame.length, 0u);
  EXPECT_EQ(fin.size, 3u);
  // The server's uni 3 SETUP chunk of example B: "0a 03 02 af 00".
  const FrameDecode setup = decode({0x0a, 0x03, 0x02, 0xaf, 0x00});
  ASSERT_EQ(setup.status, DecodeStatus::Ok);
  EXPECT_TRUE(stream_is_uni(setup.frame.stream_id));
  EXPECT_TRUE(stream_is_server_initiated(setup.frame.stream_id));
  EXPECT_EQ(bytes_of(setup.frame.data), (Buf{0xaf, 0x00}));
}

TEST(QmuxFrame, EncodersWriteTheJsBytes) {
  uint8_t out[64];
  // The JS's FIN: "0b id 00"; its data frames: "0a id len".
  EXPECT_EQ(bytes_of({out, encode_stream_header(out, 0, 0, 0, true)}), (Buf{0x0b, 0x00, 0x00}));
  EXPECT_EQ(bytes_of({out, encode_stream_header(out, 5, 0, 2, false)}), (Buf{0x0a, 0x05, 0x02}));
  // Past offset 0 the OFF bit and the offset come too (RFC 9000).
  EXPECT_EQ(bytes_of({out, encode_stream_header(out, 2, 4, 4, true)}),
            (Buf{0x0f, 0x02, 0x04, 0x04}));
  // Closing: "1c code 00 len reason" (section 2.1).
  const std::string why = "bye";
  const std::span<const uint8_t> r(reinterpret_cast<const uint8_t*>(why.data()), why.size());
  EXPECT_EQ(bytes_of({out, encode_close(out, false, 0x0a, 0, r)}),
            (Buf{0x1c, 0x0a, 0x00, 0x03, 'b', 'y', 'e'}));
  EXPECT_EQ(close_size(0x0a, 0, 3), 7u);
}

TEST(QmuxFrame, ApplicationCloseCarriesAFrameTypeAsTheJsWritesIt) {
  // A JS 0x1d arrives as "1d code 00 len reason".
  const FrameDecode d = decode({0x1d, 0x40, 0x64, 0x00, 0x02, 'o', 'k'}, Framing::Message);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error;
  EXPECT_EQ(d.frame.kind, FrameKind::ApplicationClose);
  EXPECT_EQ(d.frame.code, 100u);
  EXPECT_EQ(d.frame.frame_type, 0u);
  EXPECT_EQ(bytes_of(d.frame.data), (Buf{'o', 'k'}));
}

TEST(QmuxFrame, EveryControlFrameRoundTrips) {
  uint8_t out[64];
  {
    const FrameDecode d = decode(bytes_of({out, encode_reset_stream(out, 6, 7, 8)}));
    ASSERT_EQ(d.status, DecodeStatus::Ok);
    EXPECT_EQ(d.frame.kind, FrameKind::ResetStream);
    EXPECT_EQ(d.frame.stream_id, 6u);
    EXPECT_EQ(d.frame.code, 7u);
    EXPECT_EQ(d.frame.final_size, 8u);
  }
  {
    const FrameDecode d = decode(bytes_of({out, encode_stop_sending(out, 9, 300)}));
    ASSERT_EQ(d.status, DecodeStatus::Ok);
    EXPECT_EQ(d.frame.kind, FrameKind::StopSending);
    EXPECT_EQ(d.frame.stream_id, 9u);
    EXPECT_EQ(d.frame.code, 300u);
  }
  const std::pair<uint64_t, FrameKind> maxima[] = {
      {frame_type::kMaxData, FrameKind::MaxData},
      {frame_type::kMaxStreamsBidi, FrameKind::MaxStreamsBidi},
      {frame_type::kMaxStreamsUni, FrameKind::MaxStreamsUni},
      {frame_type::kDataBlocked, FrameKind::DataBlocked},
      {frame_type::kStreamsBlockedBidi, FrameKind::StreamsBlockedBidi},
      {frame_type::kStreamsBlockedUni, FrameKind::StreamsBlockedUni}};
  for (const auto& [type, kind] : maxima) {
    const FrameDecode d = decode(bytes_of({out, encode_maximum(out, type, 1 << 20)}));
    ASSERT_EQ(d.status, DecodeStatus::Ok) << frame_name(kind);
    EXPECT_EQ(d.frame.kind, kind);
    EXPECT_EQ(d.frame.maximum, 1u << 20);
  }
  for (const auto& [type, kind] :
       {std::pair{frame_type::kMaxStreamData, FrameKind::MaxStreamData},
        std::pair{frame_type::kStreamDataBlocked, FrameKind::StreamDataBlocked}}) {
    const FrameDecode d = decode(bytes_of({out, encode_stream_maximum(out, type, 11, 4096)}));
    ASSERT_EQ(d.status, DecodeStatus::Ok) << frame_name(kind);
    EXPECT_EQ(d.frame.kind, kind);
    EXPECT_EQ(d.frame.stream_id, 11u);
    EXPECT_EQ(d.frame.maximum, 4096u);
  }
  {
    Buf b(out, out + encode_datagram_header(out, 3));
    b.insert(b.end(), {1, 2, 3});
    const FrameDecode d = decode(b);
    ASSERT_EQ(d.status, DecodeStatus::Ok);
    EXPECT_EQ(d.frame.kind, FrameKind::Datagram);
    EXPECT_EQ(bytes_of(d.frame.data), (Buf{1, 2, 3}));
  }
  for (uint8_t t : {0x00, 0x01}) {
    const FrameDecode d = decode({t});
    ASSERT_EQ(d.status, DecodeStatus::Ok);
    EXPECT_EQ(d.size, 1u);
  }
}

TEST(QmuxFrame, TransportParametersFrameTypeIsTheEightByteMagic) {
  uint8_t out[16];
  EXPECT_EQ(bytes_of({out, encode_transport_parameters_header(out, 0x20)}),
            (Buf{0xff, 0x51, 0x53, 0x30, 0x0d, 0x0a, 0x0d, 0x0a, 0x20}));
}

TEST(QmuxFrame, AByteStreamWaitsForTheRestOfAFrame) {
  const Buf whole = {0x0a, 0x05, 0x03, 'a', 'b', 'c'};
  for (size_t cut = 0; cut < whole.size(); ++cut) {
    const FrameDecode d = decode(Buf(whole.begin(), whole.begin() + cut));
    EXPECT_EQ(d.status, DecodeStatus::NeedMore) << cut;
  }
  // The header alone is enough for a receiver that takes the data by reference.
  const FrameDecode h =
      decode_frame(std::span<const uint8_t>(whole.data(), 3), Framing::Stream, true);
  ASSERT_EQ(h.status, DecodeStatus::Ok);
  EXPECT_EQ(h.size, 3u);
  EXPECT_EQ(h.frame.length, 3u);
}

TEST(QmuxFrame, BadFramesAreNamedErrors) {
  // Unknown type.
  FrameDecode d = decode({0x21});
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_EQ(d.error_code, qmux_error::kFrameEncoding);
  EXPECT_THAT(d.error, HasSubstr("unknown QMux frame type 0x21"));
  // A STREAM frame without a length cannot end on a byte stream...
  d = decode({0x08, 0x00, 'x'});
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_THAT(d.error, HasSubstr("without a length"));
  // ...but runs to the end of its message.
  d = decode({0x08, 0x00, 'x', 'y'}, Framing::Message);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error;
  EXPECT_EQ(bytes_of(d.frame.data), (Buf{'x', 'y'}));
  // Too large for the JS.
  uint8_t out[32];
  Buf big(out, out + encode_stream_header(out, 0, 0, kMaxFramePayload + 1, false));
  d = decode(big);
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_THAT(d.error, HasSubstr("STREAM frame too large"));
  // A message is one frame: a short one, or one with bytes after it, is an error.
  d = decode({0x0a, 0x00, 0x05, 'x'}, Framing::Message);
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_THAT(d.error, HasSubstr("cut short by the end of the message"));
  d = decode({0x0b, 0x00, 0x00, 0x00}, Framing::Message);
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_THAT(d.error, HasSubstr("followed by 1 more bytes"));
  d = decode({}, Framing::Message);
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_THAT(d.error, HasSubstr("empty message"));
  // A close reason longer than any frame may be.
  d = decode({0x1c, 0x00, 0x00, 0x80, 0x10, 0x00, 0x00});
  ASSERT_EQ(d.status, DecodeStatus::Malformed);
  EXPECT_THAT(d.error, HasSubstr("exceeds the limit"));
}

TEST(QmuxFrame, StreamIdsFollowQuic) {
  EXPECT_EQ(stream_id(0, false, false), 0u);  // client bidi 0, 4, 8...
  EXPECT_EQ(stream_id(1, false, false), 4u);
  EXPECT_EQ(stream_id(0, true, false), 1u);  // server bidi 1, 5, 9...
  EXPECT_EQ(stream_id(1, false, true), 6u);  // client uni 2, 6, 10...
  EXPECT_EQ(stream_id(2, true, true), 11u);  // server uni 3, 7, 11...
  EXPECT_EQ(stream_index(11), 2u);
}

}  // namespace
}  // namespace moq::sim::qmux
