#include "sim/quic/memnet.h"

#include <arpa/inet.h>

#include <cstring>

namespace moq::sim::quic {

class Memnet::Socket final : public DatagramSocket {
 public:
  Socket(Memnet& net, Address local) : net_(&net), local_(local) {}
  const Address& local_address() const override { return local_; }
  bool send_to(const Address& to, std::span<const uint8_t> datagram) override {
    net_->send(local_, to, datagram);
    return true;
  }
  DatagramReceiver* receiver() const { return receiver_; }

 private:
  Memnet* net_;
  Address local_;
};

class Memnet::Delivery final : public Task {
 public:
  explicit Delivery(Memnet& net)
      : Task(*net.executor_, "memnet delivery"), net_(&net), timer(*this) {}
  Poll poll() override { return net_->deliver(); }

 private:
  Memnet* net_;

 public:
  Timer timer;
};

Memnet::Memnet(Executor& executor, MemnetConfig config)
    : executor_(&executor),
      config_(config),
      loss_rng_(config.seed),
      delivery_(std::make_unique<Delivery>(*this)) {}

Memnet::~Memnet() = default;

DatagramSocket& Memnet::socket() {
  const uint32_t n = static_cast<uint32_t>(sockets_.size()) + 1;
  sockets_.push_back(std::make_unique<Socket>(*this, Address::ipv4(0x0a000000 + n, 443)));
  return *sockets_.back();
}

void Memnet::send(const Address& from, const Address& to, std::span<const uint8_t> data) {
  if (config_.loss > 0) {
    uint64_t r;
    loss_rng_.fill(reinterpret_cast<uint8_t*>(&r), sizeof r);
    if (static_cast<double>(r >> 11) * 0x1.0p-53 < config_.loss) {
      ++stats_.dropped;
      return;
    }
  }
  std::unique_ptr<Packet> p;
  if (!spare_.empty()) {
    p = std::move(spare_.back());
    spare_.pop_back();
  } else {
    p = std::make_unique<Packet>();
  }
  p->due = executor_->now_ns() + config_.delay_ns;
  p->from = from;
  p->to = to;
  p->data.assign(data.begin(), data.end());
  const bool was_empty = in_flight_.empty();
  in_flight_.push_back(std::move(p));
  if (was_empty) delivery_->timer.arm_at(in_flight_.front()->due);
}

// Socket N has address 10.0.0.N:443: the index is in the address, no search per datagram.
Memnet::Socket* Memnet::find(const Address& to) const {
  if (to.storage.ss_family != AF_INET || to.port() != 443) return nullptr;
  const uint32_t ip = ntohl(reinterpret_cast<const sockaddr_in*>(&to.storage)->sin_addr.s_addr);
  const uint32_t n = ip - 0x0a000000;
  if (n == 0 || n > sockets_.size()) return nullptr;
  return sockets_[n - 1].get();
}

Poll Memnet::deliver() {
  while (!in_flight_.empty() && in_flight_.front()->due <= executor_->now_ns()) {
    std::unique_ptr<Packet> p = in_flight_.pop_front();
    Socket* s = find(p->to);
    DatagramReceiver* to = s ? s->receiver() : nullptr;
    if (to) {
      ++stats_.delivered;
      to->on_datagram(p->from, p->data);
    } else {
      ++stats_.undeliverable;
    }
    spare_.push_back(std::move(p));
  }
  if (!in_flight_.empty()) delivery_->timer.arm_at(in_flight_.front()->due);
  return Poll::Pending;
}

}  // namespace moq::sim::quic
