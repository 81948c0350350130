#include "model/data/origin.h"

#include <string_view>
#include <utility>

#include "model/data/errors.h"

namespace moq {
namespace detail {

namespace {

// Calls f(segment) for each '/'-separated segment of a normalised path.
template <class F>
void for_each_segment(const Path& path, F&& f) {
  std::string_view rest = path.str();
  while (!rest.empty()) {
    const size_t slash = rest.find('/');
    f(rest.substr(0, slash));
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
}

// Queues an event for every listener whose prefix is the node's path or an ancestor of it,
// root first (registration order within a node).
void announce_along(OriginNode& at, AnnounceEvent::Kind kind, const Path& path,
                    const Ref<BroadcastState>& b) {
  if (at.parent) announce_along(*at.parent, kind, path, b);
  at.listeners.for_each([&](AnnounceState& l) { l.push(kind, path, b); });
}

void notify_listeners(OriginNode& node) {
  node.listeners.for_each([](AnnounceState& l) { l.events.notify_all(); });
  for (auto& [segment, child] : node.children)
    notify_listeners(*child);
}

void snapshot_into(const OriginNode& node, AnnounceState& listener) {
  if (node.broadcast) listener.push(AnnounceEvent::Kind::Announce, node.path, node.broadcast);
  for (const auto& [segment, child] : node.children)
    snapshot_into(*child, listener);
}

}  // namespace

OriginNode::~OriginNode() {
  Link<PublishedTag>::unlink();  // before releasing the broadcast, which may go with it
  broadcast.reset();
}

bool OriginNode::prunable() const {
  return parent && !broadcast && listeners.empty() && children.empty();
}

OriginNode* OriginState::walk(const Path& path, bool create) {
  OriginNode* node = &root;
  for_each_segment(path, [&](std::string_view segment) {
    if (!node) return;
    auto it = node->children.find(segment);
    if (it != node->children.end()) {
      node = it->second.get();
    } else if (create) {
      Path child_path = node->path.join(Path(segment));
      auto child =
          std::make_unique<OriginNode>(this, node, std::string(segment), std::move(child_path));
      OriginNode* raw = child.get();
      node->children.emplace(std::string(segment), std::move(child));
      node = raw;
    } else {
      node = nullptr;
    }
  });
  return node;
}

void OriginState::prune(OriginNode* node) {
  while (node && node->prunable()) {
    OriginNode* parent = node->parent;
    parent->children.erase(node->segment);  // destroys node
    node = parent;
  }
}

void origin_unpublish(OriginNode& node) {
  Ref<BroadcastState> b = std::move(node.broadcast);
  node.Link<PublishedTag>::unlink();
  announce_along(node, AnnounceEvent::Kind::Unannounce, node.path, b);
  node.origin->prune(&node);
}

AnnounceState::~AnnounceState() {
  Link<ListenerTag>::unlink();
  if (node) origin->prune(node);
}

void AnnounceState::push(AnnounceEvent::Kind kind, const Path& path, const Ref<BroadcastState>& b) {
  if (head == queue.size()) {
    queue.clear();  // everything was read: reuse the storage from the start
    head = 0;
  }
  queue.push_back(AnnounceEvent{kind, path, BroadcastConsumer(b)});
  events.notify_all();
}

}  // namespace detail

// ---- OriginProducer ----

OriginProducer OriginProducer::create() {
  OriginProducer p;
  p.s_ = Ref<detail::OriginState>(new detail::OriginState());
  return p;
}

Status OriginProducer::publish(const Path& path, const BroadcastConsumer& broadcast) {
  if (path.empty()) return Error{data_error::kInvalid, "publish: empty broadcast path"};
  if (!broadcast) {
    return Error{data_error::kInvalid, "publish '" + path.str() + "': empty broadcast handle"};
  }
  if (s_->closed) {
    return Error{data_error::kClosed,
                 "publish '" + path.str() + "': the origin is closed: " + s_->closed->message};
  }
  detail::BroadcastState* b = broadcast.state();
  if (b->closed) {
    return Error{data_error::kClosed,
                 "publish '" + path.str() + "': broadcast closed: " + b->error.message};
  }
  detail::OriginNode* node = s_->walk(path, true);
  if (node->broadcast) {
    return Error{data_error::kDuplicate, "publish: path '" + path.str() + "' already published"};
  }
  node->broadcast = Ref<detail::BroadcastState>(b);
  b->published.push_back(*node);
  detail::announce_along(*node, AnnounceEvent::Kind::Announce, node->path, node->broadcast);
  return {};
}

Status OriginProducer::unpublish(const Path& path) {
  detail::OriginNode* node = s_->walk(path, false);
  if (!node || !node->broadcast) {
    return Error{data_error::kNotFound, "unpublish: nothing published at '" + path.str() + "'"};
  }
  detail::origin_unpublish(*node);
  return {};
}

void OriginProducer::close(Error reason) {
  if (s_->closed) return;
  s_->closed = std::move(reason);
  detail::notify_listeners(s_->root);
}

OriginConsumer OriginProducer::consume() const {
  return OriginConsumer(s_);
}

// ---- OriginConsumer ----

std::optional<BroadcastConsumer> OriginConsumer::lookup(const Path& path) const {
  detail::OriginNode* node = s_->walk(path, false);
  if (!node || !node->broadcast) return std::nullopt;
  return BroadcastConsumer(node->broadcast);
}

AnnounceConsumer OriginConsumer::announced(const Path& prefix) const {
  auto state = std::make_unique<detail::AnnounceState>(s_, prefix);
  detail::OriginNode* node = s_->walk(prefix, true);
  state->node = node;
  detail::snapshot_into(*node, *state);
  state->initial = state->queue.size();
  node->listeners.push_back(*state);
  return AnnounceConsumer(std::move(state));
}

// ---- AnnounceConsumer ----

AnnounceConsumer::AnnounceConsumer() = default;
AnnounceConsumer::AnnounceConsumer(std::unique_ptr<detail::AnnounceState> s) : s_(std::move(s)) {}
AnnounceConsumer::AnnounceConsumer(AnnounceConsumer&&) noexcept = default;
AnnounceConsumer& AnnounceConsumer::operator=(AnnounceConsumer&&) noexcept = default;
AnnounceConsumer::~AnnounceConsumer() = default;

const Path& AnnounceConsumer::prefix() const {
  return s_->prefix;
}

size_t AnnounceConsumer::initial_count() const {
  return s_->initial;
}

size_t AnnounceConsumer::pending() const {
  return s_->queue.size() - s_->head;
}

Next AnnounceConsumer::next(AnnounceEvent& out) {
  detail::AnnounceState& s = *s_;
  if (s.head == s.queue.size()) return s.origin->closed ? Next::Aborted : Next::Pending;
  out = std::move(s.queue[s.head++]);
  return Next::Ready;
}

WaitList& AnnounceConsumer::events() const {
  return s_->events;
}

const Error& AnnounceConsumer::error() const {
  return *s_->origin->closed;
}

}  // namespace moq
