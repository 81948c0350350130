#include "sim/net/network.h"

#include <algorithm>

namespace moq::sim::net {

class Network::Delivery final : public Task {
 public:
  explicit Delivery(Network& net)
      : Task(*net.executor_, "network delivery"), net_(&net), timer(*this) {}
  Poll poll() override { return net_->deliver(); }

 private:
  Network* net_;

 public:
  Timer timer;
};

Network::Network(Executor& executor, LinkConfig config)
    : executor_(&executor),
      config_(std::move(config)),
      delivery_(std::make_unique<Delivery>(*this)) {}

Network::~Network() = default;

bool Network::later(const Wakeup& a, const Wakeup& b) {
  return a.due != b.due ? a.due > b.due : a.order > b.order;
}

std::array<LinkDirection, 2> Network::connect() {
  const uint64_t n = connections_++;
  return {LinkDirection(config_, 2 * n), LinkDirection(config_, 2 * n + 1)};
}

void Network::wake_at(uint64_t due, WaitList& list, const void* owner) {
  heap_.push_back(Wakeup{due, scheduled_++, &list, owner});
  std::push_heap(heap_.begin(), heap_.end(), later);
  if (heap_.front().order == scheduled_ - 1) arm();
}

void Network::forget(const void* owner) {
  std::erase_if(heap_, [&](const Wakeup& w) { return w.owner == owner; });
  std::make_heap(heap_.begin(), heap_.end(), later);
  arm();
}

void Network::arm() {
  if (heap_.empty()) {
    delivery_->timer.cancel();
  } else {
    delivery_->timer.arm_at(heap_.front().due);
  }
}

Poll Network::deliver() {
  const uint64_t now = executor_->now_ns();
  while (!heap_.empty() && heap_.front().due <= now) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    WaitList* list = heap_.back().list;
    heap_.pop_back();
    list->notify_all();
  }
  arm();
  return Poll::Pending;
}

}  // namespace moq::sim::net
