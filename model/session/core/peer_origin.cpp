#include "model/session/core/peer_origin.h"

#include <string>
#include <utility>

#include "model/data/errors.h"

namespace moq::session::core {

// One remote broadcast: its producer, and the task that hands each new track request and group
// request to the engine as it is made.
class PeerOrigin::Mirror final : public Task {
 public:
  Mirror(PeerOrigin& owner, Path path)
      : Task(owner.executor_, "peer broadcast requests"),
        owner_(owner),
        path_(std::move(path)),
        producer_(BroadcastProducer::create(owner.executor_.clock())) {
    producer_.serve_requests();
    producer_.serve_group_requests();
    requests_.wait(producer_.requests());
  }
  ~Mirror() override { producer_.close(Error{0, "broadcast '" + path_.str() + "' closed"}); }

  Poll poll() override {
    while (std::optional<TrackRequest> r = producer_.next_request())
      owner_.serve_(path_, std::move(*r));
    while (std::optional<GroupRequest> r = producer_.next_group_request())
      owner_.forward_(path_, std::move(*r));
    requests_.wait(producer_.requests());
    return Poll::Pending;
  }
  BroadcastConsumer consume() const { return producer_.consume(); }
  Result<TrackProducer> create_track(std::string name, const TrackInfo& info) {
    return producer_.create_track(std::move(name), info);
  }
  void close(const Error& reason) { producer_.close(reason); }

  uint32_t announcements = 0;

 private:
  PeerOrigin& owner_;
  Path path_;
  BroadcastProducer producer_;
  Waiter requests_{*this};
};

PeerOrigin::PeerOrigin(Executor& executor, Serve serve, Forward forward)
    : executor_(executor), serve_(std::move(serve)), forward_(std::move(forward)) {}

PeerOrigin::~PeerOrigin() = default;

PeerOrigin::Mirror& PeerOrigin::mirror(const Path& path) {
  auto it = mirrors_.find(path);
  if (it == mirrors_.end())
    it = mirrors_.emplace(path, std::make_unique<Mirror>(*this, path)).first;
  return *it->second;
}

BroadcastConsumer PeerOrigin::broadcast(const Path& path) {
  return mirror(path).consume();
}

Result<TrackProducer> PeerOrigin::push_track(const Path& path, std::string name,
                                             const TrackInfo& info) {
  if (closed_) return Error{data_error::kClosed, "the peer's broadcasts are closed"};
  return mirror(path).create_track(std::move(name), info);
}

AnnounceConsumer PeerOrigin::announced(const Path& prefix) const {
  return origin_.consume().announced(prefix);
}

void PeerOrigin::announce(const Path& path) {
  if (closed_) return;
  Mirror& m = mirror(path);
  if (m.announcements++ == 0) (void)origin_.publish(path, m.consume());
}

void PeerOrigin::unannounce(const Path& path) {
  auto it = mirrors_.find(path);
  if (it == mirrors_.end() || it->second->announcements == 0) return;
  if (--it->second->announcements > 0) return;
  // Closing the broadcast unpublishes it; the tracks already running go on.
  it->second->close(Error{0, "broadcast '" + path.str() + "' no longer announced"});
  mirrors_.erase(it);
}

void PeerOrigin::close(const Error& reason) {
  if (closed_) return;
  closed_ = true;
  for (auto& [path, m] : mirrors_)
    m->close(reason);
  mirrors_.clear();  // their tasks end; the broadcasts live on with their consumers, closed
  origin_.close(reason);
}

}  // namespace moq::session::core
