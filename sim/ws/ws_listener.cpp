#include "sim/ws/ws_listener.h"

#include <poll.h>

namespace moq::sim::ws {

namespace {

// Out of descriptors, the listener stops asking for a while: the pending connection keeps the
// socket readable, and polling it again at once would spin.
constexpr uint64_t kRetryAccept_ns = 100'000'000;

}  // namespace

class WsListener::Acceptor final : public Task {
 public:
  Acceptor(Executor& executor, WsListener& listener)
      : Task(executor, "ws listener"), timer(*this), listener_(&listener) {}
  Poll poll() override { return listener_->accept_step(); }
  Timer timer;

 private:
  WsListener* listener_;
};

Result<std::unique_ptr<WsListener>> WsListener::listen(
    Executor& executor, quic::UdpLoop& loop, const Address& at, WsCarrierSettings settings,
    std::function<void(const std::string&)> log) {
  Result<std::unique_ptr<TcpListener>> tcp = TcpListener::listen(loop, at);
  if (!tcp) return tcp.error();
  std::unique_ptr<WsListener> l(
      new WsListener(executor, loop, std::move(*tcp), std::move(settings), std::move(log)));
  l->acceptor_->wake();
  return l;
}

WsListener::WsListener(Executor& executor, quic::UdpLoop& loop, std::unique_ptr<TcpListener> tcp,
                       WsCarrierSettings settings, std::function<void(const std::string&)> log)
    : executor_(&executor),
      loop_(&loop),
      tcp_(std::move(tcp)),
      settings_(std::move(settings)),
      log_(std::move(log)),
      acceptor_(std::make_unique<Acceptor>(executor, *this)) {}

WsListener::~WsListener() {
  acceptor_.reset();
  pending_.clear();
  open_.clear();
  retired_.clear();
}

Poll WsListener::accept_step() {
  while (std::unique_ptr<TcpConnection> c = tcp_->accept(*loop_))
    pending_.push_back(WsCarrier::serve(*executor_, std::move(c), settings_));
  if (tcp_->out_of_descriptors()) {
    tcp_->want(0, acceptor_.get());
    acceptor_->timer.arm_after(kRetryAccept_ns);
  } else {
    tcp_->want(POLLIN, acceptor_.get());
  }
  return Poll::Pending;
}

void WsListener::sweep() {
  for (auto it = pending_.begin(); it != pending_.end();) {
    WsCarrier& c = **it;
    if (c.connection()) {
      open_.push_back(std::move(*it));
      it = pending_.erase(it);
    } else if (c.finished()) {
      if (log_) log_("refused a WebSocket from " + c.peer().to_string() + ": " + c.end_reason());
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
  std::erase_if(retired_, [](const std::unique_ptr<WsCarrier>& c) { return c->finished(); });
}

std::unique_ptr<WsCarrier> WsListener::accept() {
  sweep();
  if (open_.empty()) return nullptr;
  std::unique_ptr<WsCarrier> c = std::move(open_.front());
  open_.erase(open_.begin());
  return c;
}

size_t WsListener::lingering() const {
  size_t n = 0;
  for (const std::unique_ptr<WsCarrier>& c : retired_)
    n += c->finished() ? 0 : 1;
  return n;
}

void WsListener::retire(std::unique_ptr<WsCarrier> carrier) {
  if (!carrier->finished()) retired_.push_back(std::move(carrier));
}

}  // namespace moq::sim::ws
