// An intrusive doubly-linked list: nodes live inside their owners, so linking never allocates
// and unlinking is O(1). An owner that sits in several lists derives from one Link<Tag> per list.
#pragma once

namespace moq {

struct ListNode {
  ListNode* prev = nullptr;
  ListNode* next = nullptr;
  bool linked() const { return next != nullptr; }
  void unlink() {
    if (!next) return;
    prev->next = next;
    next->prev = prev;
    prev = next = nullptr;
  }
};

template <class Tag>
struct Link : ListNode {
  Link() = default;
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;
  ~Link() { unlink(); }
};

// A circular list with a sentinel, of T objects deriving from Link<Tag>.
template <class T, class Tag>
class IntrusiveList {
 public:
  IntrusiveList() { head_.prev = head_.next = &head_; }
  IntrusiveList(const IntrusiveList&) = delete;
  IntrusiveList& operator=(const IntrusiveList&) = delete;
  ~IntrusiveList() { clear(); }

  bool empty() const { return head_.next == &head_; }
  void push_back(T& item) {
    ListNode& n = static_cast<Link<Tag>&>(item);
    n.prev = head_.prev;
    n.next = &head_;
    head_.prev->next = &n;
    head_.prev = &n;
  }
  T* front() const { return empty() ? nullptr : owner(head_.next); }
  T* pop_front() {
    if (empty()) return nullptr;
    ListNode* n = head_.next;
    n->unlink();
    return owner(n);
  }
  static void remove(T& item) { static_cast<Link<Tag>&>(item).unlink(); }
  // Unlinks every node without touching the owners otherwise.
  void clear() {
    while (!empty())
      head_.next->unlink();
  }
  // Calls f on each item; f may unlink the item it is given.
  template <class F>
  void for_each(F&& f) const {
    for (ListNode* n = head_.next; n != &head_;) {
      ListNode* next = n->next;
      f(*owner(n));
      n = next;
    }
  }

 private:
  static T* owner(ListNode* n) { return static_cast<T*>(static_cast<Link<Tag>*>(n)); }
  ListNode head_;
};

}  // namespace moq
