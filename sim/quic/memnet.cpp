#include "sim/quic/memnet.h"

#include <arpa/inet.h>

#include <algorithm>
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

Memnet::Memnet(Executor& executor, net::LinkConfig config)
    : executor_(&executor),
      config_(std::move(config)),
      delivery_(std::make_unique<Delivery>(*this)) {}

Memnet::~Memnet() = default;

DatagramSocket& Memnet::socket() {
  const uint32_t n = static_cast<uint32_t>(sockets_.size()) + 1;
  sockets_.push_back(std::make_unique<Socket>(*this, Address::ipv4(0x0a000000 + n, 443)));
  return *sockets_.back();
}

namespace {
template <class P>
bool later(const std::unique_ptr<P>& a, const std::unique_ptr<P>& b) {
  return a->due != b->due ? a->due > b->due : a->order > b->order;
}
}  // namespace

net::LinkDirection& Memnet::direction(const Address& from, const Address& to) {
  const std::pair<uint32_t, uint32_t> key{index_of(from), index_of(to)};
  auto it = directions_.find(key);
  if (it == directions_.end())
    it = directions_
             .emplace(key, net::LinkDirection(config_, uint64_t{key.first} << 32 | key.second))
             .first;
  return it->second;
}

void Memnet::send(const Address& from, const Address& to, std::span<const uint8_t> data) {
  net::LinkDirection& link = direction(from, to);
  const uint64_t now = executor_->now_ns();
  if (link.loses(now)) {
    ++stats_.dropped;
    return;
  }
  schedule(link.arrival(now, data.size()), from, to, data);
  if (link.duplicates()) {
    ++stats_.duplicated;
    schedule(link.arrival(now, data.size()), from, to, data);
  }
}

void Memnet::schedule(uint64_t due, const Address& from, const Address& to,
                      std::span<const uint8_t> data) {
  std::unique_ptr<Packet> p;
  if (!spare_.empty()) {
    p = std::move(spare_.back());
    spare_.pop_back();
  } else {
    p = std::make_unique<Packet>();
  }
  p->due = due;
  p->order = sent_++;
  p->from = from;
  p->to = to;
  p->data.assign(data.begin(), data.end());
  in_flight_.push_back(std::move(p));
  std::push_heap(in_flight_.begin(), in_flight_.end(), later<Packet>);
  if (in_flight_.front()->order == sent_ - 1) delivery_->timer.arm_at(due);
}

// Socket N has address 10.0.0.N:443: the index is in the address, no search per datagram.
uint32_t Memnet::index_of(const Address& a) {
  if (a.storage.ss_family != AF_INET || a.port() != 443) return 0;
  const uint32_t ip = ntohl(reinterpret_cast<const sockaddr_in*>(&a.storage)->sin_addr.s_addr);
  return ip - 0x0a000000;
}

Memnet::Socket* Memnet::find(const Address& to) const {
  const uint32_t n = index_of(to);
  if (n == 0 || n > sockets_.size()) return nullptr;
  return sockets_[n - 1].get();
}

Poll Memnet::deliver() {
  while (!in_flight_.empty() && in_flight_.front()->due <= executor_->now_ns()) {
    std::pop_heap(in_flight_.begin(), in_flight_.end(), later<Packet>);
    std::unique_ptr<Packet> p = std::move(in_flight_.back());
    in_flight_.pop_back();
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
