#include "model/session/ietf/ranges.h"

#include <algorithm>

namespace moq::session::ietf {

namespace {

SpanResult ok(w::Location start, std::optional<w::Location> end = std::nullopt) {
  SpanResult r;
  r.span.start = start;
  r.span.end = end;
  return r;
}

SpanResult fail(RangeError e, std::string why) {
  SpanResult r;
  r.error = e;
  r.why = std::move(why);
  return r;
}

std::string loc_text(w::Location l) {
  return "{" + std::to_string(l.group) + ", " +
         (l.object == kWholeGroup ? std::string("*") : std::to_string(l.object)) + "}";
}

}  // namespace

TrackEdge track_edge(const TrackConsumer& track) {
  TrackEdge e;
  std::optional<GroupConsumer> latest = track.latest();
  if (!latest) return e;
  const uint64_t seq = latest->sequence();
  const size_t n = latest->frame_count();
  if (n > 0) {
    e.any_object = true;
    e.largest = {seq, n - 1};
    e.next_object = {seq, n};
    e.next_group = seq + 1;
    return e;
  }
  e.next_object = {seq, 0};
  e.next_group = seq;
  if (seq > 0) {
    if (std::optional<GroupConsumer> prev = track.get_group(seq - 1);
        prev && prev->frame_count() > 0) {
      e.any_object = true;
      e.largest = {seq - 1, prev->frame_count() - 1};
      e.next_object = {seq - 1, prev->frame_count()};
    }
  }
  return e;
}

SpanResult location_filter_span(const w::LocationFilter& f, const TrackEdge& edge) {
  using T = w::LocationFilterType;
  switch (f.type) {
    case T::None:
      return ok({0, 0});
    case T::RelativeStart: {
      const uint64_t base = edge.next_group;
      return ok({f.start_group >= base ? 0 : base - f.start_group, 0});
    }
    case T::AbsoluteStart:
      return ok({f.start_group, f.start_object});
    case T::AbsoluteRange:
    case T::AbsoluteRangeEnd: {
      if (f.end_group_delta > UINT64_MAX - f.start_group)
        return fail(RangeError::Violation, "LOCATION_FILTER end group overflows (start group " +
                                               std::to_string(f.start_group) + " + delta " +
                                               std::to_string(f.end_group_delta) + ")");
      const w::Location start{f.start_group, f.start_object};
      const w::Location end{f.start_group + f.end_group_delta,
                            f.type == T::AbsoluteRange ? kWholeGroup : f.end_object};
      if (end < start)
        return fail(RangeError::InvalidRange,
                    "end " + loc_text(end) + " is before start " + loc_text(start));
      return ok(start, end);
    }
    case T::NextObject:
      return ok(edge.next_object);
  }
  return fail(RangeError::Violation, "unknown LOCATION_FILTER type");
}

SpanResult subscription_span(const w::MessageParams& params, w::IetfVersion v,
                             const TrackEdge& edge) {
  if (w::location_filter_is_typed(v)) {
    if (!params.location_filter) return ok({0, 0});
    return location_filter_span(*params.location_filter, edge);
  }
  if (!params.subscription_filter) return ok({0, 0});
  const w::SubscriptionFilter& f = *params.subscription_filter;
  using T = w::SubscriptionFilterType;
  switch (f.type) {
    case T::NextGroupStart:
      return ok({edge.next_group, 0});
    case T::LargestObject:
      return ok(edge.next_object);
    case T::AbsoluteStart:
      return ok(f.start);
    case T::AbsoluteRange:
      if (f.end_group_delta > UINT64_MAX - f.start.group)
        return fail(RangeError::Violation, "SUBSCRIPTION_FILTER end group overflows");
      return ok(f.start, w::Location{f.start.group + f.end_group_delta, kWholeGroup});
  }
  return fail(RangeError::Violation, "unknown SUBSCRIPTION_FILTER type");
}

std::optional<Span> cap_span(const Span& span, const TrackEdge& edge,
                             std::optional<w::Location> before) {
  if (!edge.any_object) return std::nullopt;
  w::Location end = edge.largest;
  if (span.end && *span.end < end) end = *span.end;
  if (before) {
    if (before->object > 0) {
      end = std::min(end, w::Location{before->group, before->object - 1});
    } else if (before->group > 0) {
      end = std::min(end, w::Location{before->group - 1, kWholeGroup});
    } else {
      return std::nullopt;
    }
  }
  if (end < span.start) return std::nullopt;
  return Span{span.start, end};
}

SpanResult fetch_span(const w::Fetch& fetch, w::IetfVersion v, const TrackEdge& edge) {
  SpanResult asked;
  if (w::fetch_has_fetch_type(v)) {
    // -18: End is exclusive (last + 1); End.Object 0 means the whole End.Group.
    w::Location end{fetch.end.group, kWholeGroup};
    if (fetch.end.object > 0) end.object = fetch.end.object - 1;
    if (fetch.end.object > 0 && fetch.end <= fetch.start)
      return fail(RangeError::InvalidRange,
                  "End " + loc_text(fetch.end) + " is not after Start " + loc_text(fetch.start));
    if (end < fetch.start)
      return fail(RangeError::InvalidRange, "End group " + std::to_string(fetch.end.group) +
                                                " is before Start " + loc_text(fetch.start));
    asked = ok(fetch.start, end);
  } else {
    asked = fetch.params.location_filter ? location_filter_span(*fetch.params.location_filter, edge)
                                         : ok({0, 0});
    if (asked.error != RangeError::None) return asked;
  }
  if (!edge.any_object) return fail(RangeError::InvalidRange, "the track has no object yet");
  if (edge.largest < asked.span.start)
    return fail(RangeError::InvalidRange, "Start " + loc_text(asked.span.start) +
                                              " is beyond the largest object " +
                                              loc_text(edge.largest));
  std::optional<Span> capped = cap_span(asked.span, edge, std::nullopt);
  if (!capped) return fail(RangeError::InvalidRange, "the range holds no object");
  SpanResult r;
  r.span = *capped;
  return r;
}

}  // namespace moq::session::ietf
