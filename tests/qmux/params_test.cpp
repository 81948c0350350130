// QX_TRANSPORT_PARAMETERS' payload against @moq/qmux's defaults as captured
// (shared/research/js-peer.md, section 2.2), and what a bad payload gives.
#include "sim/qmux/params.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "sim/qmux/frame.h"

namespace moq::sim::qmux {
namespace {

using Buf = std::vector<uint8_t>;
using ::testing::HasSubstr;

// The JS's DEFAULT_CONFIG: 1 MiB, 256 KiB x 3, 100 streams of each kind.
TransportParams js_defaults() {
  TransportParams p;
  p.initial_max_data = 1 << 20;
  p.initial_max_stream_data_bidi_local = 256 << 10;
  p.initial_max_stream_data_bidi_remote = 256 << 10;
  p.initial_max_stream_data_uni = 256 << 10;
  p.initial_max_streams_bidi = 100;
  p.initial_max_streams_uni = 100;
  return p;
}

// The whole frame of section 2.2.
const Buf kCaptured = {0xff, 0x51, 0x53, 0x30, 0x0d, 0x0a, 0x0d, 0x0a, 0x20, 0x04, 0x04,
                       0x80, 0x10, 0x00, 0x00, 0x05, 0x04, 0x80, 0x04, 0x00, 0x00, 0x06,
                       0x04, 0x80, 0x04, 0x00, 0x00, 0x07, 0x04, 0x80, 0x04, 0x00, 0x00,
                       0x08, 0x02, 0x40, 0x64, 0x09, 0x02, 0x40, 0x64};

TEST(QmuxParams, TheCapturedFrameDecodesToTheJsDefaults) {
  const FrameDecode d = decode_frame(kCaptured, Framing::Message);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error;
  ASSERT_EQ(d.frame.kind, FrameKind::TransportParameters);
  Result<TransportParams> p = decode_params(d.frame.data);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(*p, js_defaults());
}

TEST(QmuxParams, EncodingTheJsDefaultsGivesTheCapturedBytes) {
  const Buf payload = encode_params(js_defaults());
  uint8_t header[16];
  Buf frame(header, header + encode_transport_parameters_header(header, payload.size()));
  frame.insert(frame.end(), payload.begin(), payload.end());
  EXPECT_EQ(frame, kCaptured);
}

TEST(QmuxParams, AbsentIsZeroUnknownIsSkippedAnyOrder) {
  // uni streams = 3, then an unknown id 0x20 with two bytes, then max_data = 10.
  Result<TransportParams> p =
      decode_params(Buf{0x09, 0x01, 0x03, 0x20, 0x02, 0xaa, 0xbb, 0x04, 0x01, 0x0a});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->initial_max_streams_uni, 3u);
  EXPECT_EQ(p->initial_max_data, 10u);
  EXPECT_EQ(p->initial_max_streams_bidi, 0u);
  // Zero values are left out when encoding.
  EXPECT_TRUE(encode_params(TransportParams{}).empty());
}

TEST(QmuxParams, BadPayloadsAreNamed) {
  struct Case {
    Buf payload;
    const char* says;
  } cases[] = {
      {{0x04, 0x02, 0x0a}, "says 2 bytes, 1 are left"},
      {{0x04, 0x02, 0x0a, 0x0b}, "initial_max_data: a value of 2 bytes that is not one varint"},
      {{0x04, 0x01, 0x0a, 0x04, 0x01, 0x0b}, "initial_max_data given twice"},
      {{0x08, 0x08, 0xd0, 0, 0, 0, 0, 0, 0, 1}, "initial_max_streams_bidi"},
      {{0x04}, "length of parameter 4 cut short"},
      {{0x40}, "id cut short"},
  };
  for (const Case& c : cases) {
    Result<TransportParams> p = decode_params(c.payload);
    ASSERT_FALSE(p) << c.says;
    EXPECT_EQ(p.error().code, qmux_error::kTransportParameter);
    EXPECT_THAT(p.error().message, HasSubstr(c.says));
  }
}

}  // namespace
}  // namespace moq::sim::qmux
