// Heap allocation counting: how many allocations, frees and requested bytes a region made.
//
// Link the CMake target `moq_alloc_counter` into an executable to count. It replaces the
// allocator entry points of that executable with thin counting wrappers:
//
//  * normal builds: every malloc-family call (malloc, calloc, realloc, reallocarray, free,
//    aligned_alloc, posix_memalign, memalign, valloc, pvalloc) and every operator new/delete
//    form (plain, array, sized, aligned, nothrow) is counted and forwarded to mimalloc.
//    malloc_usable_size is forwarded uncounted. Coverage: AllocCoverage::NewDeleteAndMalloc.
//  * MOQ_SANITIZE builds: ASan owns malloc, so only operator new/delete are counted; they
//    forward to malloc/free so ASan still checks every block. malloc-family calls made directly
//    (C libraries, strdup, ...) are NOT counted. Coverage: AllocCoverage::NewDelete.
//
// Counting rules (identical in both builds):
//  * allocs: one per allocating call (new, malloc, calloc, realloc, ...), counted on entry.
//  * bytes: the size the caller requested (calloc: count*size), not the allocator's rounded size.
//  * frees: one per free/delete of a non-null pointer.
//  * realloc(p, n): one alloc of n bytes, plus one free when p is non-null, whether or not the
//    block moved; so allocs - frees stays the number of live blocks.
//
// Counters are per thread (the calling thread's calls only): background threads cannot
// pollute a measured region, and each update is a thread-local add in one out-of-line function,
// kAllocationMarker, whose callgrind cost counts allocations wherever collection is on.
#pragma once

#include <cstdint>

namespace moq::counters {

// The function every counted allocation calls once, as callgrind names it.
inline constexpr const char* kAllocationMarker = "moq_count_allocation";

struct AllocSnapshot {
  uint64_t allocs = 0;
  uint64_t frees = 0;
  uint64_t bytes = 0;

  friend bool operator==(const AllocSnapshot&, const AllocSnapshot&) = default;
  friend AllocSnapshot operator-(const AllocSnapshot& a, const AllocSnapshot& b) {
    return {a.allocs - b.allocs, a.frees - b.frees, a.bytes - b.bytes};
  }
};

// The calling thread's totals since it started. Reading does not allocate.
AllocSnapshot alloc_snapshot() noexcept;

// What the counting layer sees in this process, found once by a runtime probe (an operator new
// and a malloc, each checked against the counters), so it is right even when something else
// intercepts the allocator (ASan, valgrind memcheck's replacement malloc).
enum class AllocCoverage : uint8_t {
  None,                // nothing is counted
  NewDelete,           // operator new/delete only (MOQ_SANITIZE builds)
  NewDeleteAndMalloc,  // operator new/delete and the whole malloc family
};
AllocCoverage alloc_counting_coverage();
// "none", "new-delete", "new-delete+malloc": the names results record.
const char* alloc_coverage_name(AllocCoverage coverage);
// True when at least operator new/delete are counted.
bool alloc_counting_active();

// The allocations of a region: construct at its start, read delta() at its end.
class AllocScope {
 public:
  AllocScope() noexcept : start_(alloc_snapshot()) {}
  AllocSnapshot delta() const noexcept { return alloc_snapshot() - start_; }

 private:
  AllocSnapshot start_;
};

}  // namespace moq::counters
