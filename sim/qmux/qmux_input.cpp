// What the peer sends: the carrier's bytes cut into frames, and each frame's effect. Every check
// that fails closes the connection with CONNECTION_CLOSE, naming the frame, the stream and the
// numbers.
#include <algorithm>
#include <cstdio>

#include "sim/qmux/qmux_connection.h"

namespace moq::sim::qmux {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string stream_text(uint64_t id) {
  return std::string(stream_is_uni(id) ? "uni" : "bidi") + " stream " + std::to_string(id);
}

}  // namespace

void QmuxConnection::receive(BufChain& bytes) {
  if (close_error_) {
    bytes.clear();
    return;
  }
  wire_.bytes_in += bytes.size();
  in_.take_all(bytes);
  parse_input();
  if (close_error_) in_.clear();
}

// Frames are decoded from the front chunk where it holds them whole (a sender's header slice
// mostly does); one cut across chunks is copied together first. A STREAM frame's data is taken
// by reference, however it is cut.
void QmuxConnection::parse_input() {
  while (!in_.empty() && !close_error_) {
    std::span<const uint8_t> view = in_.front().span();
    FrameDecode d = decode_frame(view, Framing::Stream, true);
    if (d.status == DecodeStatus::NeedMore && in_.size() > view.size()) {
      // A STREAM header needs at most kMaxHeaderSize bytes; other frames are read whole.
      size_t want = std::min(in_.size(), kMaxHeaderSize);
      for (;;) {
        scratch_.resize(want);
        size_t at = 0;
        for (const Bytes& b : in_.chunks()) {
          const size_t n = std::min(b.size(), want - at);
          std::copy(b.data(), b.data() + n, scratch_.data() + at);
          at += n;
          if (at == want) break;
        }
        view = scratch_;
        d = decode_frame(view, Framing::Stream, true);
        if (d.status != DecodeStatus::NeedMore || want == in_.size()) break;
        want = std::min(in_.size(), kMaxControlFrame + 2 * kMaxHeaderSize);
      }
    }
    if (d.status == DecodeStatus::NeedMore) return;
    if (d.status == DecodeStatus::Malformed) {
      protocol_error(d.error_code, 0, d.error);
      return;
    }
    const Frame& f = d.frame;
    if (!params_in_ && f.kind != FrameKind::TransportParameters) {
      protocol_error(qmux_error::kProtocolViolation, 0,
                     std::string("the peer's first frame is ") + frame_name(f.kind) +
                         ", not QX_TRANSPORT_PARAMETERS");
      return;
    }
    if (f.kind == FrameKind::Stream) {
      if (in_.size() - d.size < f.length) return;  // the data is still on its way
      ++wire_.frames_received;
      QxStream* s = nullptr;
      if (!on_stream_header(f, s)) return;
      in_.consume(d.size);
      const size_t n = static_cast<size_t>(f.length);
      if (!s) {
        in_.consume(n);
      } else if (n == in_.size()) {
        s->inbox.take_all(in_);  // the usual end of a delivery: the chain's storage changes hands
      } else if (n > 0) {
        in_.move_front_to(s->inbox, n);
      }
      if (s) stats_.bytes_received += n;
      on_stream_end(s, f);
      continue;
    }
    ++wire_.frames_received;
    const bool open = on_frame(f);
    if (!open) return;
    in_.consume(d.size);
  }
}

void QmuxConnection::receive_message(const Bytes& message) {
  if (close_error_) return;
  wire_.bytes_in += message.size();
  const FrameDecode d = decode_frame(message.span(), Framing::Message);
  if (d.status != DecodeStatus::Ok) {
    protocol_error(d.error_code, 0, d.error);
    return;
  }
  const Frame& f = d.frame;
  if (!params_in_ && f.kind != FrameKind::TransportParameters) {
    protocol_error(qmux_error::kProtocolViolation, 0,
                   std::string("the peer's first frame is ") + frame_name(f.kind) +
                       ", not QX_TRANSPORT_PARAMETERS");
    return;
  }
  ++wire_.frames_received;
  if (f.kind != FrameKind::Stream) {
    (void)on_frame(f);
    return;
  }
  QxStream* s = nullptr;
  if (!on_stream_header(f, s)) return;
  if (f.length > 0)
    on_stream_data(s, message.slice(static_cast<size_t>(f.data.data() - message.data()),
                                    static_cast<size_t>(f.length)));
  on_stream_end(s, f);
}

// ---- STREAM ----

bool QmuxConnection::on_stream_header(const Frame& f, QxStream*& s) {
  bool ok = true;
  s = find_stream(f.stream_id, "STREAM", false, true, &ok);
  if (!ok) return false;
  if (s) {
    if (f.has_offset && f.offset != s->received) {
      protocol_error(qmux_error::kProtocolViolation, frame_type::kStream,
                     "STREAM frame for " + stream_text(f.stream_id) + " at offset " +
                         std::to_string(f.offset) + ", but the stream is at " +
                         std::to_string(s->received) + " (QMux carries each stream in order)");
      return false;
    }
    const uint64_t end = s->received + f.length;
    if (s->fin_in && f.length > 0) {
      protocol_error(qmux_error::kFinalSize, frame_type::kStream,
                     "STREAM frame with " + std::to_string(f.length) + " bytes for " +
                         stream_text(f.stream_id) + " after its FIN at " +
                         std::to_string(s->received));
      return false;
    }
    if (end > s->recv_max) {
      protocol_error(qmux_error::kFlowControl, frame_type::kStream,
                     "the peer sent " + stream_text(f.stream_id) + " up to byte " +
                         std::to_string(end) + ", over its limit of " +
                         std::to_string(s->recv_max) + " (MAX_STREAM_DATA)");
      return false;
    }
  }
  if (conn_received_ + f.length > conn_recv_max_) {
    protocol_error(qmux_error::kFlowControl, frame_type::kStream,
                   "the peer sent " + std::to_string(conn_received_ + f.length) +
                       " bytes over all streams, over its limit of " +
                       std::to_string(conn_recv_max_) + " (MAX_DATA)");
    return false;
  }
  conn_received_ += f.length;
  if (s) s->received += f.length;
  // Bytes for a stream that is no longer read count for the connection's credit alone.
  if (s && (s->recv_stopped || s->recv_done || s->reset_in)) s = nullptr;
  if (!s) consumed(nullptr, f.length);
  return true;
}

void QmuxConnection::on_stream_data(QxStream* s, Bytes data) {
  if (!s) return;
  stats_.bytes_received += data.size();
  s->inbox.push(std::move(data));
}

void QmuxConnection::on_stream_end(QxStream* s, const Frame& f) {
  if (!s) return;
  if (f.fin) s->fin_in = true;
  if (f.length > 0 || f.fin) s->readable.notify_all();
}

// ---- The other frames ----

bool QmuxConnection::on_frame(const Frame& f) {
  bool ok = true;
  switch (f.kind) {
    case FrameKind::Padding:
    case FrameKind::Ping:
    case FrameKind::DataBlocked:
    case FrameKind::StreamDataBlocked:
    case FrameKind::StreamsBlockedBidi:
    case FrameKind::StreamsBlockedUni:
    case FrameKind::Stream:
      return true;
    case FrameKind::TransportParameters: {
      if (params_in_) return true;  // only the first counts, as @moq/qmux has it
      Result<TransportParams> p = decode_params(f.data);
      if (!p) {
        protocol_error(p.error().code, frame_type::kTransportParameters, p.error().message);
        return false;
      }
      params_in_ = true;
      peer_params_ = *p;
      conn_send_max_ = p->initial_max_data;
      table(true, true).limit = p->initial_max_streams_bidi;
      table(true, false).limit = p->initial_max_streams_uni;
      can_open_.notify_all();
      return true;
    }
    case FrameKind::ResetStream: {
      QxStream* s = find_stream(f.stream_id, "RESET_STREAM", false, true, &ok);
      if (!ok) return false;
      // The final size is not checked: @moq/qmux always sends 0 there.
      if (!s || s->reset_in || s->recv_done) return true;
      consumed(nullptr, s->inbox.size());
      s->inbox.clear();
      s->reset_in = true;
      s->reset_in_code = f.code;
      ++stats_.resets_received;
      s->readable.notify_all();
      return true;
    }
    case FrameKind::StopSending: {
      QxStream* s = find_stream(f.stream_id, "STOP_SENDING", true, false, &ok);
      if (!ok) return false;
      // After our FIN or reset it changes nothing (the JS stops a stream it finished reading).
      if (!s || s->peer_stop_code) return true;
      ++stats_.stops_received;
      s->peer_stop_code = f.code;
      if (s->send_state == SendState::Open) {
        send_reset(*s, f.code);
      } else {
        s->writable.notify_all();
        maybe_retire(*s);
      }
      return true;
    }
    case FrameKind::MaxData:
      if (f.maximum > conn_send_max_) {
        conn_send_max_ = f.maximum;
        wake_conn_blocked();
      }
      return true;
    case FrameKind::MaxStreamData: {
      QxStream* s = find_stream(f.stream_id, "MAX_STREAM_DATA", true, false, &ok);
      if (!ok) return false;
      if (s && f.maximum > s->send_max) {
        s->send_max = f.maximum;
        s->writable.notify_all();
      }
      return true;
    }
    case FrameKind::MaxStreamsBidi:
    case FrameKind::MaxStreamsUni: {
      const bool bidi = f.kind == FrameKind::MaxStreamsBidi;
      if (f.maximum > kMaxStreamsLimit) {
        protocol_error(
            qmux_error::kFrameEncoding,
            bidi ? frame_type::kMaxStreamsBidi : frame_type::kMaxStreamsUni,
            std::string(frame_name(f.kind)) + " of " + std::to_string(f.maximum) + " exceeds 2^60");
        return false;
      }
      StreamTable& t = table(true, bidi);
      if (f.maximum > t.limit) {
        t.limit = f.maximum;
        can_open_.notify_all();
      }
      return true;
    }
    case FrameKind::ConnectionClose:
    case FrameKind::ApplicationClose: {
      const std::string reason(reinterpret_cast<const char*>(f.data.data()), f.data.size());
      closed_locally_ = false;
      if (f.kind == FrameKind::ApplicationClose) {
        enter_closed(Error{f.code, reason});
      } else {
        enter_closed(Error{transport_error::kQuicError,
                           "the peer closed the QMux connection with error " + hex(f.code) +
                               (reason.empty() ? "" : ": " + reason)});
      }
      return false;
    }
    case FrameKind::Datagram:
      if (datagrams_in_.size() >= settings_.datagram_queue) {
        ++stats_.datagrams_dropped;
        return true;
      }
      datagrams_in_.push_back(Bytes::copy(f.data));
      ++stats_.datagrams_received;
      datagrams_.notify_all();
      return true;
  }
  return true;
}

}  // namespace moq::sim::qmux
