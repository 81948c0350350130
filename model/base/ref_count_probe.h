// Counts every change of a shared reference count (a Block's, which Bytes share, and a Ref<T>'s
// state) in debug builds, split by the role of the code that runs (the executor sets it), so
// that a test can assert how many reference-count operations a delivered frame costs each role.
// A count is a memory write on a shared object, and an atomic one should the stack ever share
// blocks between threads: that is why the number of them per frame is kept small. Release
// builds compile all of it away, so the measured code pays nothing for it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace moq::ref_count_probe {

// Buckets: one per role (model/async/role.h, whose values index it), and kExcluded for the
// harness's own bookkeeping (its delivery log), which a test leaves out.
inline constexpr size_t kBuckets = 8;
inline constexpr uint8_t kExcluded = kBuckets - 1;

#ifndef NDEBUG
inline constexpr bool kEnabled = true;
inline std::array<uint64_t, kBuckets> counts{};
inline uint8_t bucket = 0;
inline void count() {
  ++counts[bucket];
}
#else
inline constexpr bool kEnabled = false;
inline void count() {}
#endif

// Sets the bucket that counts until the next set; returns the previous one.
inline uint8_t set_bucket([[maybe_unused]] uint8_t b) {
#ifndef NDEBUG
  const uint8_t before = bucket;
  bucket = b;
  return before;
#else
  return 0;
#endif
}

// Counts what runs in its scope in kExcluded.
class Excluded {
 public:
  Excluded() : before_(set_bucket(kExcluded)) {}
  ~Excluded() { set_bucket(before_); }
  Excluded(const Excluded&) = delete;
  Excluded& operator=(const Excluded&) = delete;

 private:
  uint8_t before_;
};

}  // namespace moq::ref_count_probe
