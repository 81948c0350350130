// The allocation counter must count a known sequence exactly, and nothing else.
#include "harness/counters/alloc_counter.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <thread>

namespace moq::counters {
namespace {

// Makes a pointer escape, so the compiler cannot elide an allocate/free pair.
void escape(void* p) {
  asm volatile("" : : "g"(p) : "memory");
}

#if MOQ_SANITIZE
constexpr AllocCoverage kExpectedCoverage = AllocCoverage::NewDelete;
#else
constexpr AllocCoverage kExpectedCoverage = AllocCoverage::NewDeleteAndMalloc;
#endif

TEST(AllocCounter, CoverageMatchesBuild) {
  EXPECT_EQ(alloc_counting_coverage(), kExpectedCoverage);
  EXPECT_TRUE(alloc_counting_active());
  EXPECT_STREQ(alloc_coverage_name(AllocCoverage::None), "none");
  EXPECT_STREQ(alloc_coverage_name(AllocCoverage::NewDelete), "new-delete");
  EXPECT_STREQ(alloc_coverage_name(AllocCoverage::NewDeleteAndMalloc), "new-delete+malloc");
}

TEST(AllocCounter, RegionWithoutAllocationReadsZero) {
  AllocScope scope;
  int sum = 0;
  for (int i = 0; i < 100; ++i)
    sum += i;
  escape(&sum);
  EXPECT_EQ(scope.delta(), (AllocSnapshot{0, 0, 0}));
}

TEST(AllocCounter, KnownSequenceIsExact) {
  const AllocSnapshot before = alloc_snapshot();
  auto* a = new int(1);                // 4 bytes
  auto* b = new char[100];             // 100 bytes
  auto* c = new std::string(40, 'x');  // sizeof(std::string), plus 41 bytes for the text
  void* m = std::malloc(64);           // malloc family: counted only without ASan
  escape(m);
  m = std::realloc(m, 128);  // one alloc of 128 and one free
  escape(a);
  escape(b);
  escape(c);
  escape(m);
  const AllocSnapshot mid = alloc_snapshot();
  delete a;
  delete[] b;
  delete c;
  std::free(m);
  const AllocSnapshot after = alloc_snapshot();

  AllocSnapshot expected_new{4, 0, 4 + 100 + sizeof(std::string) + 41};
  AllocSnapshot expected_free{0, 4, 0};
  if (kExpectedCoverage == AllocCoverage::NewDeleteAndMalloc) {
    expected_new.allocs += 2;  // malloc + realloc
    expected_new.frees += 1;   // realloc released the malloc block
    expected_new.bytes += 64 + 128;
    expected_free.frees += 1;  // free(m)
  }
  EXPECT_EQ(mid - before, expected_new);
  EXPECT_EQ(after - mid, expected_free);
}

TEST(AllocCounter, EveryOperatorNewAndDeleteFormIsCounted) {
  AllocScope scope;
  void* p[8];
  p[0] = ::operator new(3);
  p[1] = ::operator new[](5);
  p[2] = ::operator new(7, std::nothrow);
  p[3] = ::operator new[](11, std::nothrow);
  p[4] = ::operator new (13, std::align_val_t{64});
  p[5] = ::operator new[](17, std::align_val_t{128});
  p[6] = ::operator new (19, std::align_val_t{256}, std::nothrow);
  p[7] = ::operator new[](23, std::align_val_t{32}, std::nothrow);
  for (void* q : p)
    escape(q);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p[4]) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p[6]) % 256, 0u);
  EXPECT_EQ(scope.delta(), (AllocSnapshot{8, 0, 3 + 5 + 7 + 11 + 13 + 17 + 19 + 23}));

  ::operator delete (p[0], size_t{3});
  ::operator delete[](p[1], size_t{5});
  ::operator delete(p[2], std::nothrow);
  ::operator delete[](p[3], std::nothrow);
  ::operator delete (p[4], size_t{13}, std::align_val_t{64});
  ::operator delete[](p[5], std::align_val_t{128});
  ::operator delete (p[6], std::align_val_t{256}, std::nothrow);
  ::operator delete[](p[7], size_t{23}, std::align_val_t{32});
  EXPECT_EQ(scope.delta().frees, 8u);
}

TEST(AllocCounter, DeletingNullIsNotAFree) {
  AllocScope scope;
  void* volatile null = nullptr;
  ::operator delete(null);
  ::operator delete[](null);
  std::free(null);
  EXPECT_EQ(scope.delta(), (AllocSnapshot{0, 0, 0}));
}

#if !MOQ_SANITIZE
TEST(AllocCounter, EveryMallocFamilyCallIsCounted) {
  AllocScope scope;
  void* a = std::calloc(3, 8);
  void* b = aligned_alloc(64, 128);
  void* c = nullptr;
  ASSERT_EQ(posix_memalign(&c, 32, 40), 0);
  void* d = memalign(16, 24);
  void* e = valloc(10);
  void* f = pvalloc(12);
  void* g = std::realloc(nullptr, 9);  // no pointer in: an alloc, no free
  g = reallocarray(g, 4, 5);
  for (void* q : {a, b, c, d, e, f, g})
    escape(q);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 64, 0u);
  EXPECT_GE(malloc_usable_size(a), 24u);  // passthrough, not counted
  EXPECT_EQ(scope.delta(), (AllocSnapshot{8, 1, 24 + 128 + 40 + 24 + 10 + 12 + 9 + 20}));
  for (void* q : {a, b, c, d, e, f, g})
    std::free(q);
  EXPECT_EQ(scope.delta().frees, 8u);
}

TEST(AllocCounter, LibraryAllocationsThroughMallocAreCounted) {
  AllocScope scope;
  char* s = strdup("counted by the malloc wrapper");
  escape(s);
  std::free(s);
  EXPECT_EQ(scope.delta(), (AllocSnapshot{1, 1, 30}));
}
#endif

TEST(AllocCounter, CountsAreThreadLocal) {
  std::atomic<int> stage{0};
  AllocSnapshot worker_delta;
  std::thread worker([&] {
    while (stage.load() != 1) {
    }
    AllocScope scope;
    for (int i = 0; i < 5; ++i) {
      int* p = new int(i);
      escape(p);
      delete p;
    }
    worker_delta = scope.delta();
    stage.store(2);
  });
  const AllocSnapshot before = alloc_snapshot();
  stage.store(1);
  while (stage.load() != 2) {
  }
  const AllocSnapshot after = alloc_snapshot();
  worker.join();
  EXPECT_EQ(worker_delta, (AllocSnapshot{5, 5, 5 * sizeof(int)}));
  EXPECT_EQ(after - before, (AllocSnapshot{0, 0, 0}));
}

}  // namespace
}  // namespace moq::counters
