#include "sim/qmux/frame.h"

#include <cstdio>

namespace moq::sim::qmux {

namespace {

constexpr VarintForm kQuic = VarintForm::Quic;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

FrameDecode malformed(uint64_t code, std::string why) {
  FrameDecode d;
  d.status = DecodeStatus::Malformed;
  d.error_code = code;
  d.error = std::move(why);
  return d;
}

FrameKind kind_of_simple(uint64_t type) {
  switch (type) {
    case frame_type::kPadding:
      return FrameKind::Padding;
    case frame_type::kPing:
      return FrameKind::Ping;
    case frame_type::kResetStream:
      return FrameKind::ResetStream;
    case frame_type::kStopSending:
      return FrameKind::StopSending;
    case frame_type::kMaxData:
      return FrameKind::MaxData;
    case frame_type::kMaxStreamData:
      return FrameKind::MaxStreamData;
    case frame_type::kMaxStreamsBidi:
      return FrameKind::MaxStreamsBidi;
    case frame_type::kMaxStreamsUni:
      return FrameKind::MaxStreamsUni;
    case frame_type::kDataBlocked:
      return FrameKind::DataBlocked;
    case frame_type::kStreamDataBlocked:
      return FrameKind::StreamDataBlocked;
    case frame_type::kStreamsBlockedBidi:
      return FrameKind::StreamsBlockedBidi;
    case frame_type::kStreamsBlockedUni:
      return FrameKind::StreamsBlockedUni;
    case frame_type::kConnectionClose:
      return FrameKind::ConnectionClose;
    case frame_type::kApplicationClose:
      return FrameKind::ApplicationClose;
    case frame_type::kDatagram:
    case frame_type::kDatagramLen:
      return FrameKind::Datagram;
    default:
      return FrameKind::TransportParameters;
  }
}

bool known_type(uint64_t type) {
  return type <= frame_type::kPing || type == frame_type::kResetStream ||
         type == frame_type::kStopSending ||
         (type >= frame_type::kStream && type <= frame_type::kStreamsBlockedUni) ||
         type == frame_type::kConnectionClose || type == frame_type::kApplicationClose ||
         type == frame_type::kDatagram || type == frame_type::kDatagramLen ||
         type == frame_type::kTransportParameters;
}

}  // namespace

const char* frame_name(FrameKind kind) {
  switch (kind) {
    case FrameKind::Padding:
      return "PADDING";
    case FrameKind::Ping:
      return "PING";
    case FrameKind::ResetStream:
      return "RESET_STREAM";
    case FrameKind::StopSending:
      return "STOP_SENDING";
    case FrameKind::Stream:
      return "STREAM";
    case FrameKind::MaxData:
      return "MAX_DATA";
    case FrameKind::MaxStreamData:
      return "MAX_STREAM_DATA";
    case FrameKind::MaxStreamsBidi:
      return "MAX_STREAMS (bidi)";
    case FrameKind::MaxStreamsUni:
      return "MAX_STREAMS (uni)";
    case FrameKind::DataBlocked:
      return "DATA_BLOCKED";
    case FrameKind::StreamDataBlocked:
      return "STREAM_DATA_BLOCKED";
    case FrameKind::StreamsBlockedBidi:
      return "STREAMS_BLOCKED (bidi)";
    case FrameKind::StreamsBlockedUni:
      return "STREAMS_BLOCKED (uni)";
    case FrameKind::ConnectionClose:
      return "CONNECTION_CLOSE";
    case FrameKind::ApplicationClose:
      return "APPLICATION_CLOSE";
    case FrameKind::Datagram:
      return "DATAGRAM";
    case FrameKind::TransportParameters:
      return "QX_TRANSPORT_PARAMETERS";
  }
  return "frame";
}

FrameDecode decode_frame(std::span<const uint8_t> in, Framing framing, bool header_only) {
  const bool message = framing == Framing::Message;
  const VarintDecode t = decode_varint(in, kQuic);
  if (t.status != DecodeStatus::Ok) {
    if (message)
      return malformed(qmux_error::kFrameEncoding,
                       in.empty() ? "an empty message holds no QMux frame"
                                  : "a QMux frame type cut short by the end of the message");
    return {};
  }
  const uint64_t type = t.value;
  if (!known_type(type))
    return malformed(qmux_error::kFrameEncoding, "unknown QMux frame type " + hex(type));
  const bool stream = type >= frame_type::kStream && type <= (frame_type::kStream | 7);
  FrameDecode d;
  Frame& f = d.frame;
  f.kind = stream ? FrameKind::Stream : kind_of_simple(type);
  const char* name = frame_name(f.kind);
  Reader r(in.subspan(t.length), kQuic, name);
  // A short read: more bytes may come on a byte stream; a message has no more.
  auto short_read = [&]() -> FrameDecode {
    if (!message) return {};
    return malformed(qmux_error::kFrameEncoding,
                     std::string(name) + " frame cut short by the end of the message");
  };
  auto failed = [&]() -> FrameDecode {
    if (r.status() == DecodeStatus::NeedMore) return short_read();
    return malformed(qmux_error::kFrameEncoding, r.error());
  };
  switch (f.kind) {
    case FrameKind::Padding:
    case FrameKind::Ping:
      break;
    case FrameKind::ResetStream:
      f.stream_id = r.varint("stream id");
      f.code = r.varint("error code");
      f.final_size = r.varint("final size");
      break;
    case FrameKind::StopSending:
      f.stream_id = r.varint("stream id");
      f.code = r.varint("error code");
      break;
    case FrameKind::MaxStreamData:
    case FrameKind::StreamDataBlocked:
      f.stream_id = r.varint("stream id");
      f.maximum = r.varint("maximum");
      break;
    case FrameKind::MaxData:
    case FrameKind::MaxStreamsBidi:
    case FrameKind::MaxStreamsUni:
    case FrameKind::DataBlocked:
    case FrameKind::StreamsBlockedBidi:
    case FrameKind::StreamsBlockedUni:
      f.maximum = r.varint("maximum");
      break;
    case FrameKind::ConnectionClose:
    case FrameKind::ApplicationClose: {
      f.code = r.varint("error code");
      f.frame_type = r.varint("frame type");
      const uint64_t n = r.varint("reason length");
      if (!r.ok()) return failed();
      if (n > kMaxControlFrame)
        return malformed(qmux_error::kFrameEncoding,
                         std::string(name) + ": a reason of " + std::to_string(n) +
                             " bytes exceeds the limit of " + std::to_string(kMaxControlFrame));
      f.data = r.raw("reason", static_cast<size_t>(n));
      break;
    }
    case FrameKind::Datagram:
    case FrameKind::TransportParameters: {
      const bool with_length = type != frame_type::kDatagram;
      if (!with_length && !message)
        return malformed(qmux_error::kFrameEncoding,
                         "DATAGRAM frame without a length (0x30) on a byte stream: nothing says "
                         "where it ends");
      uint64_t n = with_length ? r.varint("length") : r.remaining();
      if (!r.ok()) return failed();
      if (n > kMaxControlFrame)
        return malformed(qmux_error::kFrameEncoding,
                         std::string(name) + " of " + std::to_string(n) +
                             " bytes exceeds the limit of " + std::to_string(kMaxControlFrame));
      f.length = n;
      f.data = r.raw("payload", static_cast<size_t>(n));
      break;
    }
    case FrameKind::Stream: {
      f.stream_id = r.varint("stream id");
      f.has_offset = (type & frame_type::kStreamOff) != 0;
      f.fin = (type & frame_type::kStreamFin) != 0;
      if (f.has_offset) f.offset = r.varint("offset");
      const bool with_length = (type & frame_type::kStreamLen) != 0;
      if (!with_length && !message)
        return malformed(qmux_error::kFrameEncoding,
                         "STREAM frame without a length (type " + hex(type) +
                             ") on a byte stream: nothing says where it ends");
      uint64_t n = with_length ? r.varint("length") : r.remaining();
      if (!r.ok()) return failed();
      if (n > kMaxFramePayload)
        return malformed(qmux_error::kFrameEncoding,
                         "STREAM frame too large: " + std::to_string(n) +
                             " bytes of data exceed the limit of " +
                             std::to_string(kMaxFramePayload));
      if (f.offset + n > kQuicVarintMax)
        return malformed(qmux_error::kFrameEncoding,
                         "STREAM frame: offset " + std::to_string(f.offset) + " plus length " +
                             std::to_string(n) + " exceeds 2^62-1");
      f.length = n;
      if (header_only) {
        d.status = DecodeStatus::Ok;
        d.size = t.length + r.consumed();
        return d;
      }
      f.data = r.raw("data", static_cast<size_t>(n));
      break;
    }
  }
  if (!r.ok()) return failed();
  d.size = t.length + r.consumed();
  if (message && d.size != in.size())
    return malformed(qmux_error::kFrameEncoding,
                     std::string(name) + " frame followed by " +
                         std::to_string(in.size() - d.size) +
                         " more bytes in its message (one frame per message)");
  d.status = DecodeStatus::Ok;
  return d;
}

// ---- Encoders ----

size_t encode_stream_header(uint8_t* out, uint64_t id, uint64_t offset, uint64_t length, bool fin) {
  uint64_t type = frame_type::kStream | frame_type::kStreamLen;
  if (offset > 0) type |= frame_type::kStreamOff;
  if (fin) type |= frame_type::kStreamFin;
  size_t n = encode_varint(type, kQuic, out);
  n += encode_varint(id, kQuic, out + n);
  if (offset > 0) n += encode_varint(offset, kQuic, out + n);
  n += encode_varint(length, kQuic, out + n);
  return n;
}

size_t encode_reset_stream(uint8_t* out, uint64_t id, uint64_t code, uint64_t final_size) {
  size_t n = encode_varint(frame_type::kResetStream, kQuic, out);
  n += encode_varint(id, kQuic, out + n);
  n += encode_varint(code, kQuic, out + n);
  n += encode_varint(final_size, kQuic, out + n);
  return n;
}

size_t encode_stop_sending(uint8_t* out, uint64_t id, uint64_t code) {
  size_t n = encode_varint(frame_type::kStopSending, kQuic, out);
  n += encode_varint(id, kQuic, out + n);
  n += encode_varint(code, kQuic, out + n);
  return n;
}

size_t encode_maximum(uint8_t* out, uint64_t type, uint64_t maximum) {
  size_t n = encode_varint(type, kQuic, out);
  n += encode_varint(maximum, kQuic, out + n);
  return n;
}

size_t encode_stream_maximum(uint8_t* out, uint64_t type, uint64_t id, uint64_t maximum) {
  size_t n = encode_varint(type, kQuic, out);
  n += encode_varint(id, kQuic, out + n);
  n += encode_varint(maximum, kQuic, out + n);
  return n;
}

size_t close_size(uint64_t code, uint64_t frame_type, size_t reason_size) {
  return 1 + varint_size(code, kQuic) + varint_size(frame_type, kQuic) +
         varint_size(reason_size, kQuic) + reason_size;
}

size_t encode_close(uint8_t* out, bool application, uint64_t code, uint64_t frame_type,
                    std::span<const uint8_t> reason) {
  size_t n = encode_varint(
      application ? frame_type::kApplicationClose : frame_type::kConnectionClose, kQuic, out);
  n += encode_varint(code, kQuic, out + n);
  n += encode_varint(frame_type, kQuic, out + n);
  n += encode_varint(reason.size(), kQuic, out + n);
  for (uint8_t b : reason)
    out[n++] = b;
  return n;
}

size_t encode_datagram_header(uint8_t* out, uint64_t length) {
  size_t n = encode_varint(frame_type::kDatagramLen, kQuic, out);
  n += encode_varint(length, kQuic, out + n);
  return n;
}

size_t encode_transport_parameters_header(uint8_t* out, uint64_t length) {
  size_t n = encode_varint(frame_type::kTransportParameters, kQuic, out);
  n += encode_varint(length, kQuic, out + n);
  return n;
}

}  // namespace moq::sim::qmux
