// How much memory a case will hold at its peak, estimated from its axes before it is built.
//
// A scenario whose memory grows with its axes gives its ScenarioDef an estimate_memory function
// (scenario.h). The estimate is a sum of terms, each one kind of state the case holds: a cost per
// unit (measured on the Release build, with a margin) times the axis values it grows with, e.g.
// "frames each viewer holds: viewers 1024 x frames 65536 x 320 B". memory_check.h compares the
// sum with what this process may use, so a case that cannot fit is refused with a message naming
// the size and the axes to lower, instead of dying in the allocator.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace moq::harness {

struct MemoryTerm {
  std::string what;  // "frames each viewer holds (viewers 1024 x frames 65536 x 320 B)"
  std::vector<std::string> axes;  // the axes it grows with, the ones to lower
  uint64_t bytes = 0;
};

struct MemoryEstimate {
  std::vector<MemoryTerm> terms;

  // The sum of the terms (saturating: an absurd estimate stays absurd, it does not wrap).
  uint64_t total() const;
  // The term that costs the most (nullptr when there is none).
  const MemoryTerm* largest() const;

  // Adds `unit_bytes` x the product of the factors, described as "what (name v x name v x N B)".
  // Factors named after axes of the case are listed in MemoryTerm::axes; others (a cache's
  // group count, say) describe the product but are nothing a user can lower directly.
  void add(std::string what, uint64_t unit_bytes,
           const std::vector<std::pair<std::string, uint64_t>>& factors,
           const std::vector<std::string>& axis_names = {});
};

// 1536 -> "1.5 KiB", 21474836480 -> "20.0 GiB": bytes for messages.
std::string format_bytes(uint64_t bytes);

}  // namespace moq::harness
