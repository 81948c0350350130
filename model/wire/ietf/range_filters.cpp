// The -22 range filters' semantics: absolute ranges, INVALID_FILTER checks, construction.
#include <set>
#include <tuple>

#include "model/wire/ietf/describe_value.h"
#include "model/wire/ietf/field_error.h"
#include "model/wire/ietf/params.h"

namespace moq::wire::ietf {

namespace {
const char* name_or_type(uint64_t type) {
  const char* n = param_type_name(type, IetfVersion::Draft22);
  return n ? n : "range filter";
}
}  // namespace

// ---- Range filter semantics ----

Result<std::vector<AbsoluteRange>> range_filter_ranges(const RangeFilter& f) {
  const uint64_t invalid = uint64_t(RequestErrorCode::InvalidFilter);
  const char* name = param_type_name(param_code(f.type), IetfVersion::Draft22);
  if (!name) name = "range filter";
  std::vector<AbsoluteRange> out;
  if (f.clear) return out;
  if (has_property_type(param_code(f.type)) && (f.property_type & 1))
    return make_error(
        name, "property type",
        "odd property type " + describe_value(f.property_type) + " (must be an integer property)",
        invalid);
  uint64_t prev_end = 0;
  auto add_start = [&](uint64_t delta, uint64_t& start) -> bool {
    if (delta > UINT64_MAX - prev_end) return false;
    start = prev_end + delta;
    return true;
  };
  for (const auto& r : f.ranges) {
    uint64_t start;
    if (!add_start(r.start_delta, start) || r.end_delta > UINT64_MAX - start)
      return make_error(name, "range", "delta overflows 2^64-1", invalid);
    prev_end = start + r.end_delta;
    out.push_back({start, prev_end});
  }
  if (f.open_start_delta) {
    uint64_t start;
    if (!add_start(*f.open_start_delta, start))
      return make_error(name, "range", "delta overflows 2^64-1", invalid);
    out.push_back({start, std::nullopt});
  }
  if (f.type == ParamType::PriorityFilter)
    for (const auto& r : out)
      if (r.start > 255 || (r.end && *r.end > 255))
        return make_error(name, "range", "publisher priority above 255", invalid);
  return out;
}

Result<RangeFilter> make_range_filter(ParamType type, uint8_t set_id, uint64_t property_type,
                                      std::span<const AbsoluteRange> ranges) {
  RangeFilter f;
  f.type = type;
  f.set_id = set_id;
  f.property_type = property_type;
  uint64_t prev_end = 0;
  for (size_t i = 0; i < ranges.size(); ++i) {
    const AbsoluteRange& r = ranges[i];
    if (r.start < prev_end || (r.end && *r.end < r.start))
      return Error{uint64_t(RequestErrorCode::InvalidFilter),
                   "range filter: ranges must be sorted, non-overlapping, start <= end"};
    if (!r.end) {
      if (i + 1 != ranges.size())
        return Error{uint64_t(RequestErrorCode::InvalidFilter),
                     "range filter: only the last range may be open"};
      f.open_start_delta = r.start - prev_end;
    } else {
      f.ranges.push_back({r.start - prev_end, *r.end - r.start});
      prev_end = *r.end;
    }
  }
  return f;
}

Status check_range_filters(std::span<const RangeFilter> filters) {
  std::set<std::tuple<uint64_t, uint8_t, uint64_t>> seen;
  for (const auto& f : filters) {
    auto r = range_filter_ranges(f);
    if (!r.ok()) return r.error();
    if (!seen.insert({param_code(f.type), f.set_id, f.property_type}).second)
      return Error{uint64_t(RequestErrorCode::InvalidFilter),
                   std::string(name_or_type(param_code(f.type))) +
                       ": the same type, SetID and property type repeat"};
  }
  return {};
}

}  // namespace moq::wire::ietf
