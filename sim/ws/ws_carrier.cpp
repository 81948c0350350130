#include "sim/ws/ws_carrier.h"

#include <poll.h>

#include <algorithm>

#include "sim/ws/subprotocol.h"

namespace moq::sim::ws {

namespace {

// Bytes waiting for the socket above which no more frames are taken from the connection.
constexpr size_t kHighWater = 256 * 1024;
// Reads per wake-up before the carrier lets other tasks run (it wakes itself to go on).
constexpr int kReadsPerStep = 16;
// WebSocket close codes (RFC 6455 section 7.4.1).
constexpr uint16_t kCloseNormal = 1000;
constexpr uint16_t kCloseProtocolError = 1002;

}  // namespace

class WsCarrier::Drive final : public Task {
 public:
  Drive(Executor& executor, WsCarrier& carrier)
      : Task(executor, "ws carrier"), carrier_(&carrier), waiter(*this), timer(*this) {}
  Poll poll() override { return carrier_->step(); }

 private:
  WsCarrier* carrier_;

 public:
  Waiter waiter;
  Timer timer;
  uint64_t deadline = 0;  // 0: none
};

WsCarrier::WsCarrier(Executor& executor, std::unique_ptr<TcpConnection> tcp,
                     WsCarrierSettings settings, bool client)
    : executor_(&executor),
      tcp_(std::move(tcp)),
      peer_(tcp_->peer()),
      settings_(std::move(settings)),
      client_(client),
      drive_(std::make_unique<Drive>(executor, *this)),
      in_(64 * 1024) {}

std::unique_ptr<WsCarrier> WsCarrier::serve(Executor& executor, std::unique_ptr<TcpConnection> tcp,
                                            const WsCarrierSettings& settings) {
  std::unique_ptr<WsCarrier> c(new WsCarrier(executor, std::move(tcp), settings, false));
  c->ws_ = WebSocket::server(
      [alpns = settings.alpns](const std::vector<std::string>& offered, std::string& out) {
        return choose_subprotocol(offered, alpns, out);
      },
      c->events());
  c->drive_->deadline = executor.now_ns() + settings.handshake_timeout_ns;
  c->drive_->wake();
  return c;
}

Result<std::unique_ptr<WsCarrier>> WsCarrier::dial(Executor& executor,
                                                   std::unique_ptr<TcpConnection> tcp,
                                                   const std::string& url,
                                                   const WsCarrierSettings& settings) {
  std::unique_ptr<WsCarrier> c(new WsCarrier(executor, std::move(tcp), settings, true));
  std::vector<std::string> offer;
  for (const std::string& alpn : settings.alpns)
    offer.push_back(qmux_subprotocol(alpn));
  std::string why;
  c->ws_ = WebSocket::client(url, offer, c->events(), why);
  if (!c->ws_) return Error{0, why};
  c->drive_->wake();
  return c;
}

WsCarrier::~WsCarrier() {
  if (!finished_) {
    if (conn_ && !conn_->close_error()) conn_->close(0, "connection dropped");
    // The close frame and the WebSocket close, as far as the socket takes them now.
    if (!tcp_->connecting()) {
      pump_frames();
      write_socket();
    }
  }
  drive_.reset();
  conn_.reset();
  ws_.reset();
  tcp_.reset();
}

WebSocketEvents WsCarrier::events() {
  WebSocketEvents e;
  e.on_open = [this](const std::string& subprotocol) { opened(subprotocol); };
  e.on_binary = [this](const uint8_t* data, size_t size) {
    if (conn_) conn_->receive_message(arena_.copy({data, size}));
  };
  e.on_closed = [this](uint16_t code, const std::string& reason) { ended(code, reason); };
  e.on_output = [this](const uint8_t* data, size_t size) {
    if (!finished_) out_.insert(out_.end(), data, data + size);
  };
  return e;
}

void WsCarrier::opened(const std::string& subprotocol) {
  subprotocol_ = subprotocol;
  qmux::QmuxSettings s = settings_.qmux;
  s.alpn = alpn_of_subprotocol(subprotocol);
  s.client = client_;
  s.framing = qmux::Framing::Message;
  conn_ = std::make_unique<qmux::QmuxConnection>(*executor_, std::move(s));
  drive_->deadline = 0;
  drive_->timer.cancel();
}

void WsCarrier::ended(uint16_t code, const std::string& reason) {
  if (ws_ended_) return;
  ws_ended_ = true;
  // 1006 is no code that went over the wire (RFC 6455 section 7.4.1): the reason says it all.
  end_reason_ =
      code == 1006 ? reason : reason + " (WebSocket close code " + std::to_string(code) + ")";
  if (conn_)
    conn_->lost(Error{0, "WebSocket from " + peer_.to_string() + " ended: " + end_reason_});
  const uint64_t linger = executor_->now_ns() + settings_.linger_ns;
  if (drive_->deadline == 0 || drive_->deadline > linger) drive_->deadline = linger;
  drive_->wake();
}

void WsCarrier::tcp_ended(const std::string& why) {
  tcp_read_done_ = true;
  out_.clear();
  out_at_ = 0;
  ws_->receive_eof(why);
}

void WsCarrier::read_socket() {
  for (int i = 0; i < kReadsPerStep; ++i) {
    if (tcp_read_done_ || finished_) return;
    const IoResult r = tcp_->read(in_.data(), in_.size());
    if (r.kind == IoResult::WouldBlock) return;
    if (r.kind != IoResult::Done) return tcp_ended(r.error);
    ws_->receive(in_.data(), r.bytes);
  }
  drive_->wake();  // more may be waiting: after the other tasks' turn
}

void WsCarrier::pump_frames() {
  if (!conn_ || ws_->state() != WebSocket::State::Open) return;
  while (conn_->has_output() && out_.size() - out_at_ < kHighWater) {
    conn_->take_output(frame_);
    if (frame_.empty()) break;
    const uint8_t* data = frame_.front().data();
    const size_t size = frame_.size();
    if (frame_.chunk_count() > 1) {
      gather_.clear();
      for (const Bytes& b : frame_.chunks())
        gather_.insert(gather_.end(), b.data(), b.data() + b.size());
      data = gather_.data();
    }
    ws_->send_binary(data, size);
    frame_.clear();
  }
  if (conn_->close_error() && !conn_->has_output() && !ws_close_sent_) {
    ws_close_sent_ = true;
    const Error& e = *conn_->close_error();
    ws_->close(e.code == transport_error::kQuicError ? kCloseProtocolError : kCloseNormal,
               e.message);
    drive_->deadline = executor_->now_ns() + settings_.linger_ns;
  }
}

void WsCarrier::write_socket() {
  while (out_at_ < out_.size()) {
    const IoResult r = tcp_->write(out_.data() + out_at_, out_.size() - out_at_);
    if (r.kind == IoResult::WouldBlock) break;
    if (r.kind != IoResult::Done) return tcp_ended(r.error);
    out_at_ += r.bytes;
  }
  if (out_at_ == out_.size()) {
    out_.clear();
    out_at_ = 0;
  } else if (out_at_ >= kHighWater) {
    out_.erase(out_.begin(), out_.begin() + static_cast<std::ptrdiff_t>(out_at_));
    out_at_ = 0;
  }
}

bool WsCarrier::send_raw_message(const uint8_t* data, size_t size) {
  if (finished_ || !ws_->send_binary(data, size)) return false;
  drive_->wake();
  return true;
}

void WsCarrier::finish() {
  finished_ = true;
  if (conn_)
    conn_->lost(Error{0, "WebSocket from " + peer_.to_string() + " dropped: " +
                             (end_reason_.empty() ? "no close in time" : end_reason_)});
  if (end_reason_.empty()) end_reason_ = client_ ? "no answer in time" : "no upgrade in time";
  drive_->waiter.cancel();
  drive_->timer.cancel();
  tcp_.reset();
  out_.clear();
  out_at_ = 0;
}

Poll WsCarrier::step() {
  if (finished_) return Poll::Done;
  if (tcp_->connecting()) {
    if (Status st = tcp_->finish_connect(); !st) tcp_ended(st.error().message);
  }
  if (!tcp_->connecting() && !tcp_read_done_) {
    read_socket();
    pump_frames();
    write_socket();
  }
  const bool flushed = out_at_ == out_.size();
  const uint64_t deadline = drive_->deadline;
  if ((ws_ended_ && flushed) || (deadline != 0 && executor_->now_ns() >= deadline)) {
    finish();
    return Poll::Done;
  }
  short want = 0;
  if (!tcp_read_done_) want |= POLLIN;
  if (tcp_->connecting() || !flushed) want |= POLLOUT;
  tcp_->want(want, drive_.get());
  if (conn_) {
    if (flushed && conn_->has_output() && ws_->state() == WebSocket::State::Open)
      drive_->wake();  // the high-water mark stopped the pump: go on once others ran
    else
      drive_->waiter.wait(conn_->output_ready());
  }
  if (deadline != 0) drive_->timer.arm_at(deadline);
  return Poll::Pending;
}

}  // namespace moq::sim::ws
