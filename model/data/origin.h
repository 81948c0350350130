// Origin: where broadcasts are found by path, and announced.
//
// An Origin is a trie of path segments. publish(path, broadcast) lists a broadcast under a path
// (one broadcast per path); it stays until unpublish(path) or until the broadcast closes (its
// producer closed or dropped it), whichever comes first. A broadcast may be published under
// several paths, and in several origins.
//
// Announcements. announced(prefix) returns an AnnounceConsumer that receives, in order:
//   1. an initial snapshot: one Announce event per broadcast published under the prefix at the
//      time of the call, in path order (initial_count() says how many; moq-lite's Active Count);
//   2. then live events: Announce when a broadcast is published under the prefix, Unannounce
//      when one is unpublished, in the order those happened.
// Prefix matching is on whole segments (model/base/path.h): prefix "a/b" sees "a/b" and "a/b/c"
// but not "a/bc". The empty prefix sees everything. Each listener has its own queue, and its
// events() wait list is notified when an event is queued. Events carry the full path; use
// Path::strip_prefix for the suffix a wire message needs.
//
// Closing. OriginProducer::close(reason) ends the origin: publish() fails from then on, and every
// AnnounceConsumer (existing or made later) hands out the events still queued and then reports
// Aborted with reason as its error(). A session closes the origin of the peer's announcements
// when it closes, so no announcement listener waits forever.
//
// Ownership. OriginProducer / OriginConsumer are copyable handles on one shared state; the state
// lives while any handle or AnnounceConsumer does. The trie holds a reference to each published
// broadcast; the broadcast holds only a link back (to be unpublished when it closes), so there
// is no cycle. Nodes that hold nothing are pruned at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "model/async/list.h"
#include "model/base/path.h"
#include "model/base/ref.h"
#include "model/base/result.h"
#include "model/data/broadcast.h"

namespace moq {

struct AnnounceEvent {
  enum class Kind : uint8_t { Announce, Unannounce };
  Kind kind = Kind::Announce;
  Path path;                    // the full path of the broadcast
  BroadcastConsumer broadcast;  // the broadcast (also for Unannounce: the one that went away)
};

namespace detail {

struct PublishedTag;
struct ListenerTag;
class OriginState;
class AnnounceState;

// One trie node: a path segment, and what is published or listened for at its full path.
class OriginNode : public Link<PublishedTag> {
 public:
  OriginNode(OriginState* origin, OriginNode* parent, std::string segment, Path path)
      : origin(origin), parent(parent), segment(std::move(segment)), path(std::move(path)) {}
  ~OriginNode();
  bool prunable() const;

  OriginState* origin;
  OriginNode* parent;
  std::string segment;
  Path path;
  std::map<std::string, std::unique_ptr<OriginNode>, std::less<>> children;
  Ref<BroadcastState> broadcast;                        // published here, if any
  IntrusiveList<AnnounceState, ListenerTag> listeners;  // announced(path) consumers
};

class OriginState {
 public:
  OriginState() : root(this, nullptr, "", Path()) {}
  OriginState(const OriginState&) = delete;
  OriginState& operator=(const OriginState&) = delete;

  void add_ref() { ++refs; }
  void release() {
    if (--refs == 0) delete this;
  }
  // The node at path, created (with its ancestors) when create is set; else null when absent.
  OriginNode* walk(const Path& path, bool create);
  // Removes node and its empty ancestors if they hold nothing.
  void prune(OriginNode* node);

  uint32_t refs = 0;
  OriginNode root;
  std::optional<Error> closed;  // set by OriginProducer::close
};

// Ends the publication at this node (its broadcast closed, or unpublish was called).
void origin_unpublish(OriginNode& node);

class AnnounceState : public Link<ListenerTag> {
 public:
  AnnounceState(Ref<OriginState> origin, Path prefix)
      : origin(std::move(origin)), prefix(std::move(prefix)) {}
  ~AnnounceState();
  void push(AnnounceEvent::Kind kind, const Path& path, const Ref<BroadcastState>& broadcast);

  Ref<OriginState> origin;
  Path prefix;
  OriginNode* node = nullptr;
  std::vector<AnnounceEvent> queue;
  size_t head = 0;
  size_t initial = 0;
  WaitList events{"announcements"};
};

}  // namespace detail

class OriginConsumer;
class AnnounceConsumer;

// The publishing side of an origin. Copyable (a reference count).
class OriginProducer {
 public:
  OriginProducer() = default;
  static OriginProducer create();

  explicit operator bool() const { return static_cast<bool>(s_); }
  // Lists broadcast under path and announces it. Fails with kInvalid (empty path or empty
  // broadcast), kClosed (the broadcast is closed) or kDuplicate (the path is taken).
  Status publish(const Path& path, const BroadcastConsumer& broadcast);
  // Unlists the broadcast at path and announces its end. Fails with kNotFound.
  Status unpublish(const Path& path);
  // Ends the origin with reason (see "Closing" above). Only the first call counts.
  void close(Error reason);
  OriginConsumer consume() const;

 private:
  Ref<detail::OriginState> s_;
};

// The reading side of an origin. Copyable.
class OriginConsumer {
 public:
  OriginConsumer() = default;
  explicit operator bool() const { return static_cast<bool>(s_); }

  // The broadcast published at exactly this path.
  std::optional<BroadcastConsumer> lookup(const Path& path) const;
  // Announcements under prefix: a snapshot of what is published, then live events.
  AnnounceConsumer announced(const Path& prefix) const;

 private:
  friend class OriginProducer;
  explicit OriginConsumer(Ref<detail::OriginState> s) : s_(std::move(s)) {}
  Ref<detail::OriginState> s_;
};

// A listener's queue of announcements. Move-only; dropping it stops listening.
class AnnounceConsumer {
 public:
  AnnounceConsumer();
  AnnounceConsumer(AnnounceConsumer&&) noexcept;
  AnnounceConsumer& operator=(AnnounceConsumer&&) noexcept;
  ~AnnounceConsumer();

  explicit operator bool() const { return static_cast<bool>(s_); }
  const Path& prefix() const;
  // How many events the initial snapshot had (they come first).
  size_t initial_count() const;
  // Events not read yet.
  size_t pending() const;
  // Ready with the next event; Pending: wait on events(); Aborted once the origin is closed and
  // every queued event was read (error() says why).
  Next next(AnnounceEvent& out);
  // Notified on each event and when the origin closes.
  WaitList& events() const;
  // Why the origin closed (only after next() returned Aborted).
  const Error& error() const;

 private:
  friend class OriginConsumer;
  explicit AnnounceConsumer(std::unique_ptr<detail::AnnounceState> s);
  std::unique_ptr<detail::AnnounceState> s_;
};

}  // namespace moq
