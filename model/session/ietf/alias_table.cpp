#include "model/session/ietf/alias_table.h"

namespace moq::session::ietf {

bool AliasTable::bind(uint64_t alias, SubscribeRequestTask& sub) {
  Entry& e = entries_[alias];
  if (e.kind == Kind::Bound && e.sub != &sub) return false;
  e.kind = Kind::Bound;
  e.sub = &sub;
  changed_.notify_all();
  return true;
}

void AliasTable::tombstone(uint64_t alias, const SubscribeRequestTask* sub) {
  auto it = entries_.try_emplace(alias).first;
  if (it->second.kind == Kind::Bound && it->second.sub != sub) return;
  if (it->second.kind != Kind::Tombstone) {
    it->second.kind = Kind::Tombstone;
    it->second.sub = nullptr;
    order_.push_back(alias);
  }
  while (order_.size() > kMaxTombstones) {
    auto old = entries_.find(order_.front());
    if (old != entries_.end() && old->second.kind == Kind::Tombstone) entries_.erase(old);
    order_.pop_front();
  }
  changed_.notify_all();
}

}  // namespace moq::session::ietf
