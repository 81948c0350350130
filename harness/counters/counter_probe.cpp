// moq_counter_probe: runs a fixed loop inside measured regions and prints each region's counts.
// It exercises the counters end to end (tests run it under callgrind; on a machine with a PMU it
// checks the perf backend), and shows how a program adopts the callgrind re-run.
//
//   moq_counter_probe --counter callgrind|perf [--iterations N] [--rounds R] [--allocate A]
//                     [--event E] [--cpu C]
// Each round runs N loop iterations and A allocations of 32 bytes. It prints the allocation
// counter's coverage, then one line per round:
//   alloc_coverage=<name>
//   round=<i> backend=<name> event=<event> instructions=<n> multiplexed=<0|1> allocs=<a> bytes=<b>
//
//   moq_counter_probe --new-bytes N
// asks the counting layer's operator new for N bytes once and prints "new_bytes=N result=ok" or
// "new_bytes=N result=bad_alloc": what a program linking it sees when memory runs out.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/counters/alloc_counter.h"
#include "harness/counters/callgrind_launch.h"
#include "harness/counters/cpu_pin.h"
#include "harness/counters/open_counter.h"

namespace {

using namespace moq::counters;

volatile uint64_t sink;

// The measured work: a fixed number of instructions per iteration.
__attribute__((noinline)) void spin(uint64_t iterations) {
  for (uint64_t i = 0; i < iterations; ++i)
    sink = sink + i;
}

__attribute__((noinline)) void allocate(uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {
    char* p = new char[32];
    asm volatile("" : : "g"(p) : "memory");  // keeps the new/delete pair from being elided
    delete[] p;
  }
}

// One operator new of `bytes` through the counting layer; std::bad_alloc is what must come back
// when there is no such memory (not an abort).
int try_new(uint64_t bytes) {
  try {
    void* p = ::operator new(static_cast<size_t>(bytes));
    asm volatile("" : : "g"(p) : "memory");
    ::operator delete(p);
    printf("new_bytes=%llu result=ok\n", static_cast<unsigned long long>(bytes));
  } catch (const std::bad_alloc&) {
    printf("new_bytes=%llu result=bad_alloc\n", static_cast<unsigned long long>(bytes));
  }
  return 0;
}

int usage(const std::string& why) {
  fprintf(stderr,
          "moq_counter_probe: %s\nusage: moq_counter_probe --counter callgrind|perf "
          "[--iterations N] [--rounds R] [--allocate A] [--event E] [--cpu C]\n"
          "       moq_counter_probe --new-bytes N\n",
          why.c_str());
  return 2;
}

bool parse_u64(std::string_view s, uint64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

int main(int argc, char** argv) {
  CounterOptions options;
  uint64_t iterations = 1000;
  uint64_t rounds = 2;
  uint64_t allocations = 0;
  bool have_backend = false;
  std::optional<int> pin_cpu;
  for (int i = 1; i < argc; ++i) {
    std::string_view flag = argv[i];
    if (i + 1 >= argc) return usage("missing value after " + std::string(flag));
    std::string_view value = argv[++i];
    uint64_t n = 0;
    if (flag == "--counter") {
      moq::Result<std::vector<CounterBackendDef>> defs = registered_counter_backends();
      if (!defs) return usage(defs.error().message);
      std::optional<CounterBackend> b;
      if (value == "none") b = CounterBackend::kNone;
      for (const CounterBackendDef& def : *defs)
        if (def.backend.name() == value) b = def.backend;
      if (!b) {
        return usage("unknown counter backend '" + std::string(value) +
                     "': expected one of none, " + counter_backend_names(*defs));
      }
      options.backend = *b;
      have_backend = true;
    } else if (flag == "--iterations" || flag == "--rounds" || flag == "--allocate" ||
               flag == "--cpu") {
      if (!parse_u64(value, n)) {
        return usage(std::string(flag) + " wants a number, got '" + std::string(value) + "'");
      }
      if (flag == "--iterations") iterations = n;
      if (flag == "--rounds") rounds = n;
      if (flag == "--allocate") allocations = n;
      if (flag == "--cpu") pin_cpu = static_cast<int>(n);
    } else if (flag == "--new-bytes") {
      if (!parse_u64(value, n)) return usage("--new-bytes wants a number");
      return try_new(n);
    } else if (flag == "--event") {
      options.event = value;
    } else {
      return usage("unknown option '" + std::string(flag) + "'");
    }
  }
  if (!have_backend) return usage("--counter is required");

  if (options.backend == CounterBackend::kCallgrind && !running_under_valgrind()) {
    moq::Result<int> status = run_under_callgrind(argc, argv);
    if (status) return *status;
    fprintf(stderr, "moq_counter_probe: %s\n", status.error().message.c_str());
    return 1;
  }
  if (pin_cpu) {
    if (moq::Status st = pin_current_thread_to_cpu(*pin_cpu); !st) {
      fprintf(stderr, "moq_counter_probe: --cpu %d: %s\n", *pin_cpu, st.error().message.c_str());
      return 1;
    }
  }
  moq::Result<std::unique_ptr<InstructionCounter>> counter = open_instruction_counter(options);
  if (!counter) {
    fprintf(stderr, "moq_counter_probe: %s\n", counter.error().message.c_str());
    return 1;
  }
  InstructionCounter& c = **counter;
  printf("alloc_coverage=%s\n", alloc_coverage_name(alloc_counting_coverage()));
  for (uint64_t r = 0; r < rounds; ++r) {
    AllocScope allocs;
    if (moq::Status s = c.start(); !s) {
      fprintf(stderr, "moq_counter_probe: %s\n", s.error().message.c_str());
      return 1;
    }
    spin(iterations);
    allocate(allocations);
    // Read the allocations before stop(): stop() itself allocates (callgrind reads a file).
    const AllocSnapshot a = allocs.delta();
    moq::Result<InstrReading> reading = c.stop();
    if (!reading) {
      fprintf(stderr, "moq_counter_probe: %s\n", reading.error().message.c_str());
      return 1;
    }
    printf(
        "round=%llu backend=%s event=%s instructions=%llu multiplexed=%d allocs=%llu "
        "bytes=%llu\n",
        static_cast<unsigned long long>(r),
        std::string(moq::results::to_string(reading->backend)).c_str(), c.event().c_str(),
        static_cast<unsigned long long>(reading->instructions), reading->multiplexed ? 1 : 0,
        static_cast<unsigned long long>(a.allocs), static_cast<unsigned long long>(a.bytes));
  }
  return 0;
}
