// The subscriber's Track Alias table (draft-ietf-moq-transport, Track Alias; research: "IETF alias
// races").
//
// A publisher picks the alias of a subscription in SUBSCRIBE_OK, and its subgroup streams may
// arrive before that response is read. A stream whose alias is unknown is parked by its reader
// (holding its chunks, unparsed) and re-checks when bound() is notified. When a subscription
// ends, its alias becomes a tombstone: streams still in flight for it are stopped, never handed
// to another subscription. Tombstones are kept in FIFO order up to a bound, so a session that
// churns subscriptions holds a fixed amount of state; rebinding an alias replaces its tombstone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>

#include "model/async/executor.h"

namespace moq::session::ietf {

class SubscribeRequestTask;

class AliasTable {
 public:
  static constexpr size_t kMaxTombstones = 1024;

  enum class Kind : uint8_t { Unknown, Bound, Tombstone };
  struct Entry {
    Kind kind = Kind::Unknown;
    SubscribeRequestTask* sub = nullptr;  // Bound only
  };

  Entry find(uint64_t alias) const {
    auto it = entries_.find(alias);
    return it == entries_.end() ? Entry{} : it->second;
  }
  // Binds alias to sub. False when it is bound to another subscription already (the caller
  // closes the session with DUPLICATE_TRACK_ALIAS).
  bool bind(uint64_t alias, SubscribeRequestTask& sub);
  // The subscription bound to alias ended: later streams for it are stopped.
  void tombstone(uint64_t alias, const SubscribeRequestTask* sub);
  // Notified whenever an alias is bound or tombstoned (parked readers re-check).
  WaitList& changed() { return changed_; }
  size_t tombstones() const { return order_.size(); }

 private:
  std::map<uint64_t, Entry> entries_;
  std::deque<uint64_t> order_;  // tombstones, oldest first
  WaitList changed_{"track alias bound"};
};

}  // namespace moq::session::ietf
