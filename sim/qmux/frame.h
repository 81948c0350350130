// The QMux-00 frames: QUIC's stream and connection-control frames (RFC 9000 section 19) carried
// on a reliable byte stream, or one frame per WebSocket message, as @moq/qmux 0.0.6 speaks them
// (shared/research/js-peer.md, section 2). All integers are QUIC varints; writers use the
// shortest form.
//
// What differs from RFC 9000, after the peer we interoperate with:
// - QX_TRANSPORT_PARAMETERS (type 0x3f5153300d0a0d0a) carries the transport parameters in-band,
//   as the first frame each side sends (params.h).
// - APPLICATION_CLOSE (0x1d) carries a frame-type field like CONNECTION_CLOSE (0x1c), as the JS
//   writes and reads it.
// - On a byte stream (Framing::Stream) a STREAM frame must carry its length (LEN bit) and a
//   DATAGRAM frame its length (0x31): nothing else says where the next frame starts. One frame
//   per message (Framing::Message) lets the data run to the end of the message, and a message
//   holds exactly one frame.
// - PADDING, PING, DATA_BLOCKED, STREAM_DATA_BLOCKED and STREAMS_BLOCKED are decoded and have no
//   effect; any other type is an error (a byte stream cannot skip what it cannot parse).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "model/base/codec.h"
#include "model/base/varint.h"

namespace moq::sim::qmux {

enum class Framing : uint8_t {
  Stream,   // frames back to back on a reliable byte stream (the in-memory pipe)
  Message,  // one frame per message (WebSocket binary messages)
};

namespace frame_type {
constexpr uint64_t kPadding = 0x00;
constexpr uint64_t kPing = 0x01;
constexpr uint64_t kResetStream = 0x04;
constexpr uint64_t kStopSending = 0x05;
constexpr uint64_t kStream = 0x08;  // 0x08..0x0f: | OFF 0x04 | LEN 0x02 | FIN 0x01
constexpr uint64_t kStreamOff = 0x04;
constexpr uint64_t kStreamLen = 0x02;
constexpr uint64_t kStreamFin = 0x01;
constexpr uint64_t kMaxData = 0x10;
constexpr uint64_t kMaxStreamData = 0x11;
constexpr uint64_t kMaxStreamsBidi = 0x12;
constexpr uint64_t kMaxStreamsUni = 0x13;
constexpr uint64_t kDataBlocked = 0x14;
constexpr uint64_t kStreamDataBlocked = 0x15;
constexpr uint64_t kStreamsBlockedBidi = 0x16;
constexpr uint64_t kStreamsBlockedUni = 0x17;
constexpr uint64_t kConnectionClose = 0x1c;
constexpr uint64_t kApplicationClose = 0x1d;
constexpr uint64_t kDatagram = 0x30;     // data to the end of the message
constexpr uint64_t kDatagramLen = 0x31;  // length, data
constexpr uint64_t kTransportParameters = 0x3f5153300d0a0d0a;
}  // namespace frame_type

// QUIC transport error codes (RFC 9000 section 20.1) a QMux session closes with.
namespace qmux_error {
constexpr uint64_t kNoError = 0x00;
constexpr uint64_t kFlowControl = 0x03;
constexpr uint64_t kStreamLimit = 0x04;
constexpr uint64_t kStreamState = 0x05;
constexpr uint64_t kFinalSize = 0x06;
constexpr uint64_t kFrameEncoding = 0x07;
constexpr uint64_t kTransportParameter = 0x08;
constexpr uint64_t kProtocolViolation = 0x0a;
}  // namespace qmux_error

// STREAM payloads above this make @moq/qmux close with "frame too large" (16384 - 24): a sender
// chunks its data under it, and a receiver refuses larger ones the same way.
constexpr size_t kMaxFramePayload = 16360;
// The longest frame header an encoder writes: a type, three 8-byte varints and a FIN-less LEN.
constexpr size_t kMaxHeaderSize = 1 + 3 * 8;
// Frames other than STREAM (a close reason, transport parameters, a datagram) are read whole:
// longer ones are refused.
constexpr size_t kMaxControlFrame = 65536;

// Stream ids as QUIC has them: bit 0 the initiator (1: server), bit 1 the direction (1: uni).
inline bool stream_is_uni(uint64_t id) {
  return (id & 2) != 0;
}
inline bool stream_is_server_initiated(uint64_t id) {
  return (id & 1) != 0;
}
// The id of the index-th stream of a kind (index counts from 0).
inline uint64_t stream_id(uint64_t index, bool server, bool uni) {
  return (index << 2) | (uni ? 2u : 0u) | (server ? 1u : 0u);
}
inline uint64_t stream_index(uint64_t id) {
  return id >> 2;
}

enum class FrameKind : uint8_t {
  Padding,
  Ping,
  ResetStream,
  StopSending,
  Stream,
  MaxData,
  MaxStreamData,
  MaxStreamsBidi,
  MaxStreamsUni,
  DataBlocked,
  StreamDataBlocked,
  StreamsBlockedBidi,
  StreamsBlockedUni,
  ConnectionClose,
  ApplicationClose,
  Datagram,
  TransportParameters,
};

// One decoded frame. Views (data, reason, params) point into the decoder's input.
struct Frame {
  FrameKind kind = FrameKind::Padding;
  uint64_t stream_id = 0;
  // STREAM: the data's offset (0 when the OFF bit is clear), whether the frame carried one, and
  // the FIN bit. RESET_STREAM: final_size.
  uint64_t offset = 0;
  bool has_offset = false;
  bool fin = false;
  uint64_t code = 0;        // RESET_STREAM, STOP_SENDING, the close frames
  uint64_t final_size = 0;  // RESET_STREAM
  uint64_t maximum = 0;     // MAX_* and *_BLOCKED
  uint64_t frame_type = 0;  // the close frames: the frame that caused the close
  uint64_t length = 0;      // STREAM, DATAGRAM: the payload's length
  // STREAM, DATAGRAM: the payload; the close frames: the reason; QX_TRANSPORT_PARAMETERS: the
  // encoded parameters.
  std::span<const uint8_t> data;
};

struct FrameDecode {
  DecodeStatus status = DecodeStatus::NeedMore;
  // Ok: bytes of in the frame took (a STREAM frame's data included).
  size_t size = 0;
  Frame frame;
  // Malformed: the QUIC error code to close with and what was wrong (names the frame and field).
  uint64_t error_code = 0;
  std::string error;
};

// Decodes the frame at the front of in. Framing::Stream: NeedMore while in holds only part of
// it. Framing::Message: in is the whole message, so a short frame or bytes after the frame are
// Malformed. A STREAM payload over kMaxFramePayload and any other frame over kMaxControlFrame
// are Malformed.
//
// header_only: a STREAM frame stops after its header (size is the header's, frame.length the
// data's, frame.data empty), so that a receiver on a byte stream can take the data by reference
// from wherever it lies.
FrameDecode decode_frame(std::span<const uint8_t> in, Framing framing, bool header_only = false);

// Encoders: each writes one frame into out (room for the size the matching *_size() gives, or
// kMaxHeaderSize for a STREAM header) and returns the bytes written.
//
// A STREAM frame's header with LEN set (and OFF when offset > 0, as RFC 9000 has it): the data
// follows it.
size_t encode_stream_header(uint8_t* out, uint64_t id, uint64_t offset, uint64_t length, bool fin);
size_t encode_reset_stream(uint8_t* out, uint64_t id, uint64_t code, uint64_t final_size);
size_t encode_stop_sending(uint8_t* out, uint64_t id, uint64_t code);
// MAX_DATA, MAX_STREAMS_BIDI, MAX_STREAMS_UNI, DATA_BLOCKED, STREAMS_BLOCKED_*: type and value.
size_t encode_maximum(uint8_t* out, uint64_t type, uint64_t maximum);
// MAX_STREAM_DATA, STREAM_DATA_BLOCKED: type, stream id, value.
size_t encode_stream_maximum(uint8_t* out, uint64_t type, uint64_t id, uint64_t maximum);
// CONNECTION_CLOSE or APPLICATION_CLOSE, both with a frame-type field.
size_t close_size(uint64_t code, uint64_t frame_type, size_t reason_size);
size_t encode_close(uint8_t* out, bool application, uint64_t code, uint64_t frame_type,
                    std::span<const uint8_t> reason);
// DATAGRAM with a length (0x31): the header before the payload.
size_t encode_datagram_header(uint8_t* out, uint64_t length);
// QX_TRANSPORT_PARAMETERS: the header before the encoded parameters (params.h).
size_t encode_transport_parameters_header(uint8_t* out, uint64_t length);

// The frame's name for error messages ("STREAM", "MAX_DATA", ...).
const char* frame_name(FrameKind kind);

}  // namespace moq::sim::qmux
