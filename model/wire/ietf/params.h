// Message Parameters (draft-ietf-moq-transport): a count, then parameters with delta-coded types
// in ascending order, each value encoded as its type defines (there is no generic length, so an
// unknown parameter is a PROTOCOL_VIOLATION). MessageParams holds every parameter of both drafts;
// which ones a message may carry depends on the message, on what it answers (ParamScope) and on
// the draft.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/base/codec.h"
#include "model/base/result.h"
#include "model/wire/ietf/codes.h"
#include "model/wire/ietf/types.h"
#include "model/wire/ietf/version.h"

namespace moq::wire::ietf {

// ---- -18 SUBSCRIPTION_FILTER (param 0x21, length-prefixed) ----
enum class SubscriptionFilterType : uint8_t {
  NextGroupStart = 1,  // no fields
  LargestObject = 2,   // no fields
  AbsoluteStart = 3,   // start
  AbsoluteRange = 4,   // start, end_group_delta
};
struct SubscriptionFilter {
  SubscriptionFilterType type = SubscriptionFilterType::NextGroupStart;
  Location start;                // AbsoluteStart, AbsoluteRange
  uint64_t end_group_delta = 0;  // AbsoluteRange: last group = start.group + delta
  bool operator==(const SubscriptionFilter&) const = default;
};

// ---- -22 LOCATION_FILTER (param 0x21, typed, no length) ----
enum class LocationFilterType : uint8_t {
  None = 0,              // no filter (removes one in REQUEST_UPDATE)
  RelativeStart = 1,     // start_group: {Largest.Group + 1 - start_group, 0}, open-ended
  AbsoluteStart = 2,     // start_group, start_object
  AbsoluteRange = 3,     // + end_group_delta (whole end group)
  AbsoluteRangeEnd = 4,  // + end_object (inclusive end)
  NextObject = 5,        // no fields
};
struct LocationFilter {
  LocationFilterType type = LocationFilterType::None;
  uint64_t start_group = 0;
  uint64_t start_object = 0;
  uint64_t end_group_delta = 0;
  uint64_t end_object = 0;
  bool operator==(const LocationFilter&) const = default;
};

// ---- -22 range filters (params 0x25-0x29, repeatable) ----
// Kept as on the wire: each Start is a delta from the previous End (or 0), each End a delta from
// its Start; only a final range may omit its End. Semantic checks (overflow, priority above 255,
// odd property type, repeats) are REQUEST_ERROR INVALID_FILTER, not session errors: see
// check_range_filter.
struct RangeFilter {
  ParamType type = ParamType::SubgroupFilter;
  bool clear = false;          // Length 0: removes this filter (REQUEST_UPDATE); nothing else
  uint8_t set_id = 0;          // filters with one SetID are ANDed, sets are ORed
  uint64_t property_type = 0;  // OBJECT_PROPERTY_FILTER / TRACK_PROPERTY_FILTER only
  struct Range {
    uint64_t start_delta = 0;
    uint64_t end_delta = 0;
    bool operator==(const Range&) const = default;
  };
  std::vector<Range> ranges;
  std::optional<uint64_t> open_start_delta;  // a final range with no End
  bool operator==(const RangeFilter&) const = default;
};
struct AbsoluteRange {
  uint64_t start = 0;
  std::optional<uint64_t> end;  // nullopt: no end
  bool operator==(const AbsoluteRange&) const = default;
};
// The ranges as absolute inclusive values; Error code INVALID_FILTER (0x36) when a delta
// overflows, a priority exceeds 255 or a property type is odd.
Result<std::vector<AbsoluteRange>> range_filter_ranges(const RangeFilter& f);
// Builds the wire form from absolute ranges (sorted, non-overlapping; only the last may be open).
Result<RangeFilter> make_range_filter(ParamType type, uint8_t set_id, uint64_t property_type,
                                      std::span<const AbsoluteRange> ranges);
// INVALID_FILTER checks of one message's range filters, including a repeated
// (type, SetID, property type) combination.
Status check_range_filters(std::span<const RangeFilter> filters);

// ---- -22 FILL_PARAMETERS (param 0x23) ----
// [AMBIG-3] A Length, then nested parameters with no count, types delta-coded from 0, using
// their usual value encodings; only these eight types may appear.
struct FillParameters {
  std::optional<uint64_t> fill_timeout;           // 0x0A
  std::optional<uint8_t> subscriber_priority;     // 0x20
  std::optional<LocationFilter> location_filter;  // 0x21
  std::optional<GroupOrder> group_order;          // 0x22
  std::vector<RangeFilter> range_filters;         // 0x25-0x28
  bool operator==(const FillParameters&) const = default;
};

// ---- All parameters ----
struct MessageParams {
  std::optional<uint64_t> object_delivery_timeout;        // 0x02 ms
  std::vector<Token> authorization_tokens;                // 0x03 repeatable
  std::optional<uint64_t> rendezvous_timeout;             // 0x04 ms [AMBIG-5]: varint
  std::optional<uint64_t> subgroup_delivery_timeout;      // 0x06 ms
  std::optional<uint64_t> expires;                        // 0x08 ms
  std::optional<Location> largest_object;                 // 0x09
  std::optional<uint64_t> fill_timeout;                   // 0x0A ms [AMBIG-5]: varint
  std::optional<bool> forward;                            // 0x10 uint8 0/1
  std::optional<uint8_t> subscriber_priority;             // 0x20 uint8
  std::optional<SubscriptionFilter> subscription_filter;  // 0x21 in -18
  std::optional<LocationFilter> location_filter;          // 0x21 in -22
  std::optional<GroupOrder> group_order;                  // 0x22 uint8 1/2
  std::optional<FillParameters> fill;                     // 0x23 -22
  std::vector<RangeFilter> range_filters;                 // 0x25-0x29 -22, repeatable
  std::optional<uint64_t> new_group_request;              // 0x32
  std::optional<TrackNamespace> track_namespace_prefix;   // 0x34
  std::optional<bool> include_properties;                 // 0x35 -22, uint8 0/1

  bool operator==(const MessageParams&) const = default;
  // The Number of Parameters encode_params writes under v (parameter 0x21 counts in its draft's
  // form only).
  size_t count(IetfVersion v) const;
  bool empty() const;
};

// Where a parameter block sits. REQUEST_OK and REQUEST_UPDATE take their rules from the request
// they belong to, which only the session knows; the decoder accepts the union of their scopes and
// the session calls check_params with the exact scope.
enum class ParamScope : uint8_t {
  Subscribe,
  SubscribeOk,
  Publish,
  PublishOk,  // REQUEST_OK answering PUBLISH
  TrackStatus,
  TrackStatusOk,  // REQUEST_OK answering TRACK_STATUS
  Fetch,
  FetchOk,
  PublishNamespace,
  SubscribeNamespace,
  SubscribeTracks,
  NamespaceOk,  // REQUEST_OK answering PUBLISH_NAMESPACE / SUBSCRIBE_NAMESPACE / SUBSCRIBE_TRACKS
  UpdateSubscription,  // REQUEST_UPDATE on a SUBSCRIBE or PUBLISH subscription
  UpdateFetch,
  UpdatePublishNamespace,
  UpdateSubscribeNamespace,
  UpdateSubscribeTracks,
  UpdateOk,  // REQUEST_OK answering REQUEST_UPDATE
  PublishStateNotify,
  Fill,  // inside FILL_PARAMETERS
};
const char* param_scope_name(ParamScope s);

// Bit set over the parameter types (bit per known type); see param_bit.
using ParamMask = uint32_t;
ParamMask allowed_params(ParamScope scope, IetfVersion v);
// The union a decoder of this message type accepts.
ParamMask allowed_params_for_message(MessageType type, IetfVersion v);
// The bit of a known parameter type, or 0.
ParamMask param_bit(uint64_t type);

// Writes Number of Parameters then the parameters in ascending type order (range filters grouped
// by type in vector order).
void encode_params(Writer& w, const MessageParams& p, IetfVersion v);
// Reads a parameter block into `into` (a message's own, still empty: the block is decoded in
// place rather than moved there); parameters outside `allowed` or unknown to the draft are
// PROTOCOL_VIOLATION, as is a repeat of a non-repeatable type.
void decode_params(Reader& r, ParamMask allowed, IetfVersion v, MessageParams& into);
// Checks that p may be sent in `allowed` under v and that every value is encodable;
// message names the message in the error.
Status check_params(const MessageParams& p, ParamMask allowed, IetfVersion v, const char* message);
inline Status check_params(const MessageParams& p, ParamScope scope, IetfVersion v,
                           const char* message) {
  return check_params(p, allowed_params(scope, v), v, message);
}

}  // namespace moq::wire::ietf
