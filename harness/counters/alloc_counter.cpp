// The counting layer over the allocator; see alloc_counter.h for what is counted and why.
//
// All replacement entry points live in this one translation unit with the counters, so the
// counters need no cross-TU thread_local wrapper, and one forced-undefined symbol
// (moq_alloc_counter_anchor, see CMakeLists.txt) pulls the whole layer into any executable that
// links the target, even if it never reads a snapshot.
#include "harness/counters/alloc_counter.h"

#include <cstddef>
#include <cstdlib>
#include <new>

#if !MOQ_SANITIZE
#include <malloc.h>
#include <mimalloc.h>
#endif

namespace moq::counters {
namespace {

struct Tally {
  uint64_t allocs;
  uint64_t frees;
  uint64_t bytes;
};

// initial-exec: a fixed offset from the thread pointer, never __tls_get_addr (which may itself
// call malloc). Zero-initialised, so no TLS init function runs on access.
constinit thread_local Tally tally __attribute__((tls_model("initial-exec"))) = {0, 0, 0};

}  // namespace

// Out of line, under a name of its own and with the same few instructions for every call, so a
// profile counts allocations in any part of a run by its cost: callgrind's cost of it is
// collected exactly where collection is on, while its call counts are not (harness/cli/
// role_split.h). One call per allocation costs a call and a return more than inline counting.
extern "C" [[gnu::noinline, gnu::noipa]] void moq_count_allocation(size_t size) noexcept {
  tally.allocs += 1;
  tally.bytes += size;
}

namespace {

inline void count_alloc(size_t size) noexcept {
  moq_count_allocation(size);
}

inline void count_free(const void* p) noexcept {
  if (p != nullptr) tally.frees += 1;
}

}  // namespace

AllocSnapshot alloc_snapshot() noexcept {
  return {tally.allocs, tally.frees, tally.bytes};
}

namespace {

// Calls through volatile pointers so the compiler cannot elide the probe's allocate/free pairs.
void* (*volatile probe_new)(size_t) = &::operator new;
void (*volatile probe_delete)(void*) = &::operator delete;
void* (*volatile probe_malloc)(size_t) = &std::malloc;
void (*volatile probe_free)(void*) = &std::free;

AllocCoverage probe_coverage() {
  const AllocSnapshot before_new = alloc_snapshot();
  probe_delete(probe_new(1));
  const AllocSnapshot after_new = alloc_snapshot();
  probe_free(probe_malloc(1));
  const AllocSnapshot after_malloc = alloc_snapshot();
  const AllocSnapshot one_each{1, 1, 1};
  if (after_new - before_new != one_each) return AllocCoverage::None;
  if (after_malloc - after_new != one_each) return AllocCoverage::NewDelete;
  return AllocCoverage::NewDeleteAndMalloc;
}

}  // namespace

AllocCoverage alloc_counting_coverage() {
  static const AllocCoverage coverage = probe_coverage();
  return coverage;
}

const char* alloc_coverage_name(AllocCoverage coverage) {
  switch (coverage) {
    case AllocCoverage::None:
      return "none";
    case AllocCoverage::NewDelete:
      return "new-delete";
    case AllocCoverage::NewDeleteAndMalloc:
      return "new-delete+malloc";
  }
  return "invalid";
}

bool alloc_counting_active() {
  return alloc_counting_coverage() != AllocCoverage::None;
}

namespace {
// Probe at start-up, so a later first call to alloc_counting_coverage() inside a measured
// region adds nothing to it.
[[maybe_unused]] const AllocCoverage startup_probe = alloc_counting_coverage();
}  // namespace

}  // namespace moq::counters

using moq::counters::count_alloc;
using moq::counters::count_free;

extern "C" void moq_alloc_counter_anchor() {}

// ---- operator new / delete -----------------------------------------------------------------

namespace {

#if MOQ_SANITIZE
// ASan intercepts malloc/free; forwarding there keeps every block under its checks.
void* raw_alloc(size_t size, size_t align) noexcept {
  if (size == 0) size = 1;  // operator new(0) must return a unique non-null pointer
  if (align <= alignof(std::max_align_t)) return std::malloc(size);
  void* p = nullptr;
  if (align < sizeof(void*)) align = sizeof(void*);
  return posix_memalign(&p, align, size) == 0 ? p : nullptr;
}
inline void fwd_delete(void* p) noexcept {
  std::free(p);
}
inline void fwd_delete_sized(void* p, size_t) noexcept {
  std::free(p);
}
inline void fwd_delete_aligned(void* p, size_t) noexcept {
  std::free(p);
}
inline void fwd_delete_sized_aligned(void* p, size_t, size_t) noexcept {
  std::free(p);
}
#else
// mimalloc's own operator new (mi_new) calls abort() when memory runs out: it is C and cannot
// throw, so the process died in the allocator without a word. Its malloc returns NULL instead,
// and new_or_throw below turns that into std::bad_alloc, which the harness reports.
void* raw_alloc(size_t size, size_t align) noexcept {
  if (align <= alignof(std::max_align_t)) return mi_malloc(size);  // non-null for size 0 too
  return mi_malloc_aligned(size, align);
}
inline void fwd_delete(void* p) noexcept {
  mi_free(p);
}
inline void fwd_delete_sized(void* p, size_t n) noexcept {
  mi_free_size(p, n);
}
inline void fwd_delete_aligned(void* p, size_t al) noexcept {
  mi_free_aligned(p, al);
}
inline void fwd_delete_sized_aligned(void* p, size_t n, size_t al) noexcept {
  mi_free_size_aligned(p, n, al);
}
#endif

// operator new's contract: retry through the new-handler while there is one, then throw.
void* new_or_throw(size_t size, size_t align) {
  for (;;) {
    if (void* p = raw_alloc(size, align)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* new_nothrow(size_t size, size_t align) noexcept {
  try {
    return new_or_throw(size, align);
  } catch (...) {
    return nullptr;
  }
}

inline void* fwd_new(size_t n) {
  return new_or_throw(n, 0);
}
inline void* fwd_new_aligned(size_t n, size_t al) {
  return new_or_throw(n, al);
}
inline void* fwd_new_nothrow(size_t n) noexcept {
  return new_nothrow(n, 0);
}
inline void* fwd_new_aligned_nothrow(size_t n, size_t al) noexcept {
  return new_nothrow(n, al);
}

}  // namespace

void* operator new(size_t n) {
  count_alloc(n);
  return fwd_new(n);
}
void* operator new[](size_t n) {
  count_alloc(n);
  return fwd_new(n);
}
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  count_alloc(n);
  return fwd_new_nothrow(n);
}
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
  count_alloc(n);
  return fwd_new_nothrow(n);
}
void* operator new(size_t n, std::align_val_t al) {
  count_alloc(n);
  return fwd_new_aligned(n, static_cast<size_t>(al));
}
void* operator new[](size_t n, std::align_val_t al) {
  count_alloc(n);
  return fwd_new_aligned(n, static_cast<size_t>(al));
}
void* operator new(size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  count_alloc(n);
  return fwd_new_aligned_nothrow(n, static_cast<size_t>(al));
}
void* operator new[](size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  count_alloc(n);
  return fwd_new_aligned_nothrow(n, static_cast<size_t>(al));
}

void operator delete(void* p) noexcept {
  count_free(p);
  fwd_delete(p);
}
void operator delete[](void* p) noexcept {
  count_free(p);
  fwd_delete(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  count_free(p);
  fwd_delete(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  count_free(p);
  fwd_delete(p);
}
void operator delete(void* p, size_t n) noexcept {
  count_free(p);
  fwd_delete_sized(p, n);
}
void operator delete[](void* p, size_t n) noexcept {
  count_free(p);
  fwd_delete_sized(p, n);
}
void operator delete(void* p, std::align_val_t al) noexcept {
  count_free(p);
  fwd_delete_aligned(p, static_cast<size_t>(al));
}
void operator delete[](void* p, std::align_val_t al) noexcept {
  count_free(p);
  fwd_delete_aligned(p, static_cast<size_t>(al));
}
void operator delete(void* p, std::align_val_t al, const std::nothrow_t&) noexcept {
  count_free(p);
  fwd_delete_aligned(p, static_cast<size_t>(al));
}
void operator delete[](void* p, std::align_val_t al, const std::nothrow_t&) noexcept {
  count_free(p);
  fwd_delete_aligned(p, static_cast<size_t>(al));
}
void operator delete(void* p, size_t n, std::align_val_t al) noexcept {
  count_free(p);
  fwd_delete_sized_aligned(p, n, static_cast<size_t>(al));
}
void operator delete[](void* p, size_t n, std::align_val_t al) noexcept {
  count_free(p);
  fwd_delete_sized_aligned(p, n, static_cast<size_t>(al));
}

// ---- malloc family (not under ASan, which owns these symbols) ------------------------------

#if !MOQ_SANITIZE
extern "C" {

void* malloc(size_t n) noexcept {
  count_alloc(n);
  return mi_malloc(n);
}

void* calloc(size_t count, size_t size) noexcept {
  count_alloc(count * size);
  return mi_calloc(count, size);
}

void* realloc(void* p, size_t n) noexcept {
  count_free(p);
  count_alloc(n);
  return mi_realloc(p, n);
}

void* reallocarray(void* p, size_t count, size_t size) noexcept {
  count_free(p);
  count_alloc(count * size);
  return mi_reallocarray(p, count, size);
}

void free(void* p) noexcept {
  count_free(p);
  mi_free(p);
}

void* aligned_alloc(size_t align, size_t n) noexcept {
  count_alloc(n);
  return mi_aligned_alloc(align, n);
}

int posix_memalign(void** out, size_t align, size_t n) noexcept {
  count_alloc(n);
  return mi_posix_memalign(out, align, n);
}

void* memalign(size_t align, size_t n) noexcept {
  count_alloc(n);
  return mi_memalign(align, n);
}

void* valloc(size_t n) noexcept {
  count_alloc(n);
  return mi_valloc(n);
}

void* pvalloc(size_t n) noexcept {
  count_alloc(n);
  return mi_pvalloc(n);
}

size_t malloc_usable_size(void* p) noexcept {
  return mi_usable_size(p);
}

}  // extern "C"
#endif
