// Setup, output, credit and closing. The stream halves are in qmux_stream.cpp, the frames the
// peer sends in qmux_input.cpp.
#include "sim/qmux/qmux_connection.h"

#include <algorithm>
#include <cstdio>

namespace moq::sim::qmux {

namespace {

// A close reason longer than this is cut: the peer only shows it.
constexpr size_t kMaxReason = 1024;

}  // namespace

QmuxConnection::QmuxConnection(Executor& executor, QmuxSettings settings)
    : executor_(&executor), settings_(std::move(settings)) {
  table(false, true).limit = settings_.max_bidi;
  table(false, false).limit = settings_.max_uni;
  conn_recv_max_ = settings_.conn_window;
  scratch_.reserve(64);
  // The transport parameters go first; until the peer's arrive, this side may open nothing.
  TransportParams p;
  p.initial_max_data = settings_.conn_window;
  p.initial_max_stream_data_bidi_local = settings_.stream_window;
  p.initial_max_stream_data_bidi_remote = settings_.stream_window;
  p.initial_max_stream_data_uni = settings_.stream_window;
  p.initial_max_streams_bidi = settings_.max_bidi;
  p.initial_max_streams_uni = settings_.max_uni;
  uint8_t payload[kMaxParamsSize];
  const size_t n = encode_params(p, payload);
  uint8_t* out = frame_space(16 + n);
  size_t h = encode_transport_parameters_header(out, n);
  std::copy(payload, payload + n, out + h);
  emit(h + n);
}

QmuxConnection::~QmuxConnection() {
  if (!close_error_) close(0, "connection dropped");
  // Handles the application still holds outlive us; they fail from now on.
  for (std::unique_ptr<QxStream>& s : streams_) {
    if (!s->in_use || s->handles == 0) continue;
    s->conn = nullptr;
    s->orphan_error = Error{transport_error::kConnectionClosed,
                            "stream used after its QMux connection was dropped"};
    s->writable.notify_all();
    s->readable.notify_all();
    (void)s.release();  // the last handle's release() deletes it
  }
}

// ---- Output ----

void QmuxConnection::output_appeared() {
  output_ready_.notify_all();
}

void QmuxConnection::emit(size_t header, BufChain* payload, size_t payload_size) {
  out_.push(arena_.commit(header));
  if (payload_size > 0) {
    if (payload_size == payload->size()) {
      out_.take_all(*payload);
    } else {
      payload->move_front_to(out_, payload_size);
    }
  }
  ++wire_.frames_sent;
  if (settings_.framing == Framing::Message)
    out_sizes_.push_back(static_cast<uint32_t>(header + payload_size));
  output_appeared();
}

// MAX_DATA and MAX_STREAMS wait for the carrier to take the output, so that the credit returned
// within one turn of the executor goes in one frame of each.
void QmuxConnection::emit_credit() {
  if (max_data_pending_) {
    max_data_pending_ = false;
    emit(encode_maximum(frame_space(kMaxHeaderSize), frame_type::kMaxData, conn_recv_max_));
  }
  for (const bool bidi : {true, false}) {
    bool& pending = streams_pending_[bidi ? 0 : 1];
    if (!pending) continue;
    pending = false;
    emit(encode_maximum(frame_space(kMaxHeaderSize),
                        bidi ? frame_type::kMaxStreamsBidi : frame_type::kMaxStreamsUni,
                        table(false, bidi).limit));
  }
}

void QmuxConnection::take_output(BufChain& to) {
  emit_credit();
  if (out_.empty()) return;
  size_t n = out_.size();
  if (settings_.framing == Framing::Message) n = out_sizes_.pop_front();
  wire_.bytes_out += n;
  if (n == out_.size()) {
    to.take_all(out_);
  } else {
    out_.move_front_to(to, n);
  }
}

// ---- Closing ----

Error QmuxConnection::closed_error(const char* op) const {
  const Error& e = *close_error_;
  const uint64_t code = closed_locally_ ? transport_error::kConnectionClosed : e.code;
  return Error{code, std::string(op) + " after the QMux connection was closed " +
                         (closed_locally_ ? "locally " : "") + "(code " + std::to_string(e.code) +
                         ": " + e.message + ")"};
}

void QmuxConnection::close(uint64_t code, std::string_view reason) {
  if (close_error_) return;
  const std::string_view said = reason.substr(0, std::min(reason.size(), kMaxReason));
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(said.data()), said.size());
  emit(encode_close(frame_space(close_size(code, 0, bytes.size())), true, code, 0, bytes));
  closed_locally_ = true;
  enter_closed(Error{code, std::string(reason)});
}

void QmuxConnection::protocol_error(uint64_t code, uint64_t frame_type, const std::string& why) {
  if (close_error_) return;
  const std::string_view said(why.data(), std::min(why.size(), kMaxReason));
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(said.data()), said.size());
  emit(encode_close(frame_space(close_size(code, frame_type, bytes.size())), false, code,
                    frame_type, bytes));
  closed_locally_ = true;
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(code));
  enter_closed(Error{transport_error::kQuicError,
                     "QMux protocol error " + std::string(hex) + " from the peer: " + why});
}

void QmuxConnection::lost(const Error& why) {
  if (close_error_) return;
  out_.clear();
  out_sizes_.clear();
  enter_closed(why);
}

void QmuxConnection::enter_closed(Error error) {
  close_error_ = std::move(error);
  max_data_pending_ = streams_pending_[0] = streams_pending_[1] = false;
  end_streams();
  can_open_.notify_all();
  incoming_.notify_all();
  datagrams_.notify_all();
  closed_.notify_all();
}

// ---- Datagrams ----

Status QmuxConnection::send_datagram(Bytes payload) {
  if (close_error_) return closed_error("send_datagram");
  if (payload.size() > settings_.max_datagram_size)
    return Error{transport_error::kDatagramTooLarge,
                 "datagram of " + std::to_string(payload.size()) + " bytes exceeds the limit of " +
                     std::to_string(settings_.max_datagram_size)};
  BufChain one;
  const size_t n = payload.size();
  one.push(std::move(payload));
  emit(encode_datagram_header(frame_space(kMaxHeaderSize), n), &one, n);
  ++stats_.datagrams_sent;
  return {};
}

std::optional<Bytes> QmuxConnection::recv_datagram() {
  if (datagrams_in_.empty()) return std::nullopt;
  return datagrams_in_.pop_front();
}

}  // namespace moq::sim::qmux
