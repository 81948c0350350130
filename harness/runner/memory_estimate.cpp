#include "harness/runner/memory_estimate.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace moq::harness {

namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

uint64_t saturating_mul(uint64_t a, uint64_t b) {
  if (a != 0 && b > kMax / a) return kMax;
  return a * b;
}

}  // namespace

uint64_t MemoryEstimate::total() const {
  uint64_t sum = 0;
  for (const MemoryTerm& t : terms)
    sum = t.bytes > kMax - sum ? kMax : sum + t.bytes;
  return sum;
}

const MemoryTerm* MemoryEstimate::largest() const {
  const MemoryTerm* best = nullptr;
  for (const MemoryTerm& t : terms)
    if (!best || t.bytes > best->bytes) best = &t;
  return best;
}

void MemoryEstimate::add(std::string what, uint64_t unit_bytes,
                         const std::vector<std::pair<std::string, uint64_t>>& factors,
                         const std::vector<std::string>& axis_names) {
  MemoryTerm term;
  uint64_t bytes = unit_bytes;
  std::string product;
  for (const auto& [name, value] : factors) {
    bytes = saturating_mul(bytes, value);
    product += name + " " + std::to_string(value) + " x ";
    if (std::find(axis_names.begin(), axis_names.end(), name) != axis_names.end())
      term.axes.push_back(name);
  }
  term.what = std::move(what) + " (" + product + format_bytes(unit_bytes) + ")";
  term.bytes = bytes;
  terms.push_back(std::move(term));
}

std::string format_bytes(uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  return text;
}

}  // namespace moq::harness
