// Which objects a request covers, evaluated as the publisher holds the track when it processes
// the request (draft-ietf-moq-transport: subscription filters, FETCH): a subscription's start and
// end from the -18 SUBSCRIPTION_FILTER or the -22 LOCATION_FILTER, and the inclusive span of a
// FETCH, a -18 joining FETCH or a -22 fill, which never reaches beyond the largest object.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/data/track.h"
#include "model/wire/ietf/messages.h"
#include "model/wire/ietf/params.h"

namespace moq::session::ietf {

namespace w = ::moq::wire::ietf;

inline constexpr uint64_t kWholeGroup = UINT64_MAX;  // an end object meaning "to the group's end"

// Where the track stands. A latest group with no frame yet does not hold the largest object:
// the group before it does, if cached, else no object is known.
struct TrackEdge {
  bool any_object = false;
  w::Location largest;      // the LARGEST_OBJECT to report (any_object)
  w::Location next_object;  // the location after the largest ({0,0} for an empty track)
  uint64_t next_group = 0;  // the first group after the largest object's group
};
TrackEdge track_edge(const TrackConsumer& track);

enum class RangeError : uint8_t {
  None,
  InvalidRange,  // REQUEST_ERROR INVALID_RANGE
  Violation,     // the request breaks the protocol (PROTOCOL_VIOLATION)
};

// An inclusive span of locations; end.object kWholeGroup covers all of end.group.
struct Span {
  w::Location start;
  std::optional<w::Location> end;  // nullopt: open-ended
};

struct SpanResult {
  RangeError error = RangeError::None;
  std::string why;  // when error is set
  Span span;
};

// A subscription's span from its filter parameter (no filter: every object).
SpanResult subscription_span(const w::MessageParams& params, w::IetfVersion v,
                             const TrackEdge& edge);
// A -22 LOCATION_FILTER against the track (also used inside FILL_PARAMETERS).
SpanResult location_filter_span(const w::LocationFilter& f, const TrackEdge& edge);

// The span a standalone FETCH asks for (-18 Start/End, -22 LOCATION_FILTER), capped at the
// largest object. INVALID_RANGE when the track has no object or the start lies beyond it.
SpanResult fetch_span(const w::Fetch& fetch, w::IetfVersion v, const TrackEdge& edge);

// Caps a span at the largest object and, when before is set, just before that location (a join
// or fill must not repeat what the subscription delivers). nullopt when nothing is left.
std::optional<Span> cap_span(const Span& span, const TrackEdge& edge,
                             std::optional<w::Location> before);

}  // namespace moq::session::ietf
