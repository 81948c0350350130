// The connections and make_pair. Each connection forwards to the shared detail::Core, which holds
// every piece of state.
#include "sim/memory/memory_transport.h"

#include <string>

#include "sim/memory/core.h"

namespace moq::sim::memory {

// ---- MemoryConnection ----

namespace {

SendStreamPtr send_handle(detail::Channel& c) {
  return SendStreamPtr(&c.send);
}
RecvStreamPtr recv_handle(detail::Channel& c) {
  return RecvStreamPtr(&c.recv);
}

}  // namespace

MemoryConnection::~MemoryConnection() {
  core_->close(side_, 0, "connection dropped");
  --core_->connections;
  detail::Core::unref(core_);
}

Executor& MemoryConnection::executor() {
  return *core_->executor;
}

std::string_view MemoryConnection::alpn() const {
  return core_->cfg.alpn;
}

Result<SendStreamPtr> MemoryConnection::open_uni() {
  Result<detail::Stream*> st = core_->open(side_, false);
  if (!st) return st.error();
  if (!*st) return SendStreamPtr();
  return send_handle((*st)->ch[0]);
}

Result<BidiStream> MemoryConnection::open_bidi() {
  Result<detail::Stream*> st = core_->open(side_, true);
  if (!st) return st.error();
  if (!*st) return BidiStream{};
  return BidiStream{send_handle((*st)->ch[0]), recv_handle((*st)->ch[1])};
}

WaitList& MemoryConnection::can_open() {
  return core_->side[side_].can_open;
}

Result<RecvStreamPtr> MemoryConnection::accept_uni() {
  Result<detail::Stream*> st = core_->accept(side_, false);
  if (!st) return st.error();
  if (!*st) return RecvStreamPtr();
  return recv_handle((*st)->ch[0]);
}

Result<BidiStream> MemoryConnection::accept_bidi() {
  Result<detail::Stream*> st = core_->accept(side_, true);
  if (!st) return st.error();
  if (!*st) return BidiStream{};
  return BidiStream{send_handle((*st)->ch[1]), recv_handle((*st)->ch[0])};
}

WaitList& MemoryConnection::incoming() {
  return core_->side[side_].incoming;
}

Status MemoryConnection::send_datagram(Bytes payload) {
  return core_->send_datagram(side_, std::move(payload));
}

std::optional<Bytes> MemoryConnection::recv_datagram() {
  return core_->recv_datagram(side_);
}

WaitList& MemoryConnection::datagrams() {
  return core_->side[side_].datagrams;
}

void MemoryConnection::close(uint64_t code, std::string_view reason) {
  core_->close(side_, code, reason);
}

const std::optional<Error>& MemoryConnection::close_error() const {
  return core_->side[side_].close_error;
}

WaitList& MemoryConnection::closed() {
  return core_->side[side_].closed;
}

const ConnectionStats& MemoryConnection::stats() const {
  return core_->side[side_].stats;
}

size_t MemoryConnection::live_streams() const {
  return core_->streams.size() - core_->pooled;
}

size_t MemoryConnection::pooled_capacity() const {
  return core_->streams.size();
}

// ---- make_pair ----

namespace {

// QUIC carries flow-control limits as 62-bit varints.
constexpr uint64_t kMaxWindow = (uint64_t{1} << 62) - 1;

Status check_window(const char* field, uint64_t value) {
  if (value == 0 || value > kMaxWindow) {
    return Error{0, std::string("PairConfig.") + field + " = " + std::to_string(value) +
                        ": must be between 1 and 2^62-1"};
  }
  return {};
}

}  // namespace

Result<ConnectionPair> make_pair(Executor& executor, const PairConfig& config) {
  if (Status s = check_window("stream_window", config.stream_window); !s) return s.error();
  if (Status s = check_window("conn_window", config.conn_window); !s) return s.error();
  auto* core = new detail::Core(executor, config);
  ConnectionPair pair;
  pair.client = std::make_unique<MemoryConnection>(core, 0);
  pair.server = std::make_unique<MemoryConnection>(core, 1);
  return pair;
}

}  // namespace moq::sim::memory
