// Code points of moq-transport draft-18 and draft-22: message types, stream types, parameter,
// option and property types, and the four error registries (draft-ietf-moq-transport's registries).
// Codes that arrive on the wire are plain uint64_t (a peer may send grease or a later draft's
// code); the enums name the values this codec knows, and each value is written only here: the
// name tables (codes.cpp), the message table (control.cpp) and the parameter scopes
// (param_scopes.cpp) are switches or tables keyed on these enumerators.
#pragma once

#include <cstdint>

#include "model/wire/ietf/version.h"

namespace moq::wire::ietf {

// ---- Control message types (3.2) ----
enum class MessageType : uint64_t {
  RequestUpdate = 0x02,
  Subscribe = 0x03,
  SubscribeOk = 0x04,
  RequestError = 0x05,
  PublishNamespace = 0x06,
  RequestOk = 0x07,
  Namespace = 0x08,
  PublishDone = 0x0B,
  TrackStatus = 0x0D,
  NamespaceDone = 0x0E,
  PublishBlocked = 0x0F,  // PUBLISH_SKIPPED in -22
  GoAway = 0x10,
  SubscribeNamespaceWithOptions = 0x11,  // -17 only (17.2): SUBSCRIBE_NAMESPACE, decoded as it
  Fetch = 0x16,
  FetchOk = 0x18,
  Publish = 0x1D,
  PublishOkLegacy = 0x1E,     // -18 only, decoded as REQUEST_OK ([AMBIG-1]); reserved in -22
  PublishStateNotify = 0x22,  // -22 only
  SubscribeNamespace = 0x50,
  SubscribeTracks = 0x51,
  Setup = 0x2F00,
};

// The messages that may open a request stream (1.2); any other first message is a
// PROTOCOL_VIOLATION.
constexpr bool is_request_opener(MessageType t) {
  return t == MessageType::Subscribe || t == MessageType::Publish || t == MessageType::Fetch ||
         t == MessageType::TrackStatus || t == MessageType::PublishNamespace ||
         t == MessageType::SubscribeNamespace || t == MessageType::SubscribeTracks ||
         t == MessageType::SubscribeNamespaceWithOptions;
}
// The type a message struct goes on the wire with under v: SUBSCRIBE_NAMESPACE is 0x11 in -17
// (17.2); every other struct has its own type in every draft.
constexpr uint64_t wire_type(MessageType t, IetfVersion v) {
  if (t == MessageType::SubscribeNamespace && subscribe_namespace_has_options(v))
    return uint64_t(MessageType::SubscribeNamespaceWithOptions);
  return uint64_t(t);
}

// SUBSCRIBE_NAMESPACE Subscribe Options (-17, 17.2); -18's SUBSCRIBE_NAMESPACE means Namespace.
enum class SubscribeOptions : uint64_t { Publish = 0, Namespace = 1, Both = 2 };

// ---- Unidirectional stream types and datagram types (4.1, 4.4) ----
inline constexpr uint64_t kFetchHeaderType = 0x05;
inline constexpr uint64_t kPaddingStreamType = 0x132B3E28;
inline constexpr uint64_t kPaddingDatagramType = 0x132B3E29;

// ---- Message Parameter types (3.4) ----
enum class ParamType : uint64_t {
  ObjectDeliveryTimeout = 0x02,
  AuthorizationToken = 0x03,
  RendezvousTimeout = 0x04,
  SubgroupDeliveryTimeout = 0x06,
  Expires = 0x08,
  LargestObject = 0x09,
  FillTimeout = 0x0A,
  Forward = 0x10,
  SubscriberPriority = 0x20,
  LocationFilter = 0x21,  // SUBSCRIPTION_FILTER in -18
  GroupOrder = 0x22,
  FillParameters = 0x23,        // -22
  SubgroupFilter = 0x25,        // -22
  ObjectIdFilter = 0x26,        // -22
  PriorityFilter = 0x27,        // -22
  ObjectPropertyFilter = 0x28,  // -22
  TrackPropertyFilter = 0x29,   // -22
  NewGroupRequest = 0x32,
  TrackNamespacePrefix = 0x34,
  IncludeProperties = 0x35,  // -22
};
// The parameter's type as it is on the wire (a varint).
constexpr uint64_t param_code(ParamType t) {
  return uint64_t(t);
}
// The parameter's name in this draft, or nullptr when the draft does not define it.
const char* param_type_name(uint64_t type, IetfVersion v);
// The range filter parameters (-22): SUBGROUP_FILTER to TRACK_PROPERTY_FILTER.
constexpr bool is_range_filter_type(uint64_t t) {
  return t >= uint64_t(ParamType::SubgroupFilter) && t <= uint64_t(ParamType::TrackPropertyFilter);
}
// The range filters over a property, which name its type.
constexpr bool has_property_type(uint64_t t) {
  return t == uint64_t(ParamType::ObjectPropertyFilter) ||
         t == uint64_t(ParamType::TrackPropertyFilter);
}

// ---- Setup Options (1.3) ----
enum class SetupOption : uint64_t {
  Path = 0x01,
  AuthorizationToken = 0x03,
  MaxAuthTokenCacheSize = 0x04,
  Authority = 0x05,
  MaxFilterRanges = 0x06,  // -22
  MoqtImplementation = 0x07,
  MaxRequestUpdates = 0x08,  // -22
};

// ---- Track and Object Property types (7.5) ----
enum class PropertyType : uint64_t {
  ObjectDeliveryTimeout = 0x02,
  MaxCacheDuration = 0x04,
  SubgroupDeliveryTimeout = 0x06,
  ImmutableProperties = 0x0B,
  DefaultPublisherPriority = 0x0E,
  DefaultPublisherGroupOrder = 0x22,
  DynamicGroups = 0x30,
  PriorGroupIdGap = 0x3C,
  PriorObjectIdGap = 0x3E,
};
// 0x4000-0x7FFF are mandatory track properties: an unknown one is refused (UNSUPPORTED_EXTENSION).
constexpr bool is_mandatory_track_property(uint64_t type) {
  return type >= 0x4000 && type <= 0x7FFF;
}

// ---- Authorization token alias types (2.6) ----
enum class TokenAliasType : uint64_t { Delete = 0, Register = 1, UseAlias = 2, UseValue = 3 };

// ---- Object status (4.3) ----
enum class ObjectStatus : uint64_t { Normal = 0x0, EndOfGroup = 0x3, EndOfTrack = 0x4 };
constexpr bool is_known_object_status(uint64_t s) {
  switch (ObjectStatus(s)) {
    case ObjectStatus::Normal:
    case ObjectStatus::EndOfGroup:
    case ObjectStatus::EndOfTrack:
      return true;
  }
  return false;
}

// ---- Group order (GROUP_ORDER parameter, DEFAULT_PUBLISHER_GROUP_ORDER property) ----
enum class GroupOrder : uint8_t { Ascending = 1, Descending = 2 };

// ---- Grease: 0x7f * N + 0x9D, reserved in every registry (7.4) ----
constexpr bool is_grease(uint64_t v) {
  return v >= 0x9D && (v - 0x9D) % 0x7F == 0;
}

// ---- Session termination codes (7.1) ----
enum class SessionError : uint64_t {
  NoError = 0x0,
  InternalError = 0x1,
  Unauthorized = 0x2,
  ProtocolViolation = 0x3,
  InvalidRequestId = 0x4,
  DuplicateTrackAlias = 0x5,
  KeyValueFormattingError = 0x6,
  InvalidPath = 0x8,
  MalformedPath = 0x9,
  GoawayTimeout = 0x10,
  ControlMessageTimeout = 0x11,
  DataStreamTimeout = 0x12,
  AuthTokenCacheOverflow = 0x13,
  DuplicateAuthTokenAlias = 0x14,
  VersionNegotiationFailed = 0x15,  // -18; unassigned from -20 on [D22-INFERRED]
  MalformedAuthToken = 0x16,
  UnknownAuthTokenAlias = 0x17,
  ExpiredAuthToken = 0x18,
  InvalidAuthority = 0x19,
  MalformedAuthority = 0x1A,
  TooManyRequestUpdates = 0x1B,  // -22
};
inline constexpr uint64_t kProtocolViolation = uint64_t(SessionError::ProtocolViolation);
inline constexpr uint64_t kKeyValueFormattingError =
    uint64_t(SessionError::KeyValueFormattingError);

// ---- REQUEST_ERROR codes (7.2) ----
enum class RequestErrorCode : uint64_t {
  InternalError = 0x0,
  Unauthorized = 0x1,
  Timeout = 0x2,
  NotSupported = 0x3,
  MalformedAuthToken = 0x4,
  ExpiredAuthToken = 0x5,
  GoingAway = 0x6,
  ExcessiveLoad = 0x9,
  DoesNotExist = 0x10,
  InvalidRange = 0x11,
  MalformedTrack = 0x12,
  DuplicateSubscription = 0x19,  // -18 only ([D22-INFERRED] removed in -22)
  Uninterested = 0x20,
  PrefixOverlap = 0x30,
  NamespaceTooLarge = 0x31,
  InvalidJoiningRequestId = 0x32,  // -18 only ([D22-INFERRED] removed in -22)
  UnsupportedExtension = 0x33,
  Redirect = 0x34,
  ConflictingFilters = 0x35,  // -22
  InvalidFilter = 0x36,       // -22
};

// ---- PUBLISH_DONE status codes (7.3, -18 and -22; -17 swaps 5 and 6, see publish_done_status_*)
// ----
enum class PublishDoneStatus : uint64_t {
  InternalError = 0x0,
  Unauthorized = 0x1,
  TrackEnded = 0x2,
  SubscriptionEnded = 0x3,
  GoingAway = 0x4,
  TooFarBehind = 0x5,
  Expired = 0x6,
  UpdateFailed = 0x8,
  ExcessiveLoad = 0x9,
  MalformedTrack = 0x12,
};

// ---- Stream reset / STOP_SENDING codes (7.4, same in both drafts) ----
enum class StreamResetCode : uint64_t {
  InternalError = 0x0,
  Cancelled = 0x1,
  DeliveryTimeout = 0x2,
  SessionClosed = 0x3,
  GoingAway = 0x4,
  TooFarBehind = 0x5,
  UnknownObjectStatus = 0x6,
  ExpiredAuthToken = 0x7,
  ExcessiveLoad = 0x9,
  MalformedTrack = 0x12,
};

// A PUBLISH_DONE status (the -18 meaning, as PublishDoneStatus holds it) as draft v writes it, and
// back: -17 swaps 5 and 6 (17.8). The map is its own inverse.
constexpr uint64_t publish_done_status_wire(uint64_t code, IetfVersion v) {
  if (!publish_done_5_6_swapped(v)) return code;
  if (code == uint64_t(PublishDoneStatus::TooFarBehind))
    return uint64_t(PublishDoneStatus::Expired);
  if (code == uint64_t(PublishDoneStatus::Expired))
    return uint64_t(PublishDoneStatus::TooFarBehind);
  return code;
}

// Names of codes assigned in the draft; nullptr for unassigned codes (grease included).
const char* session_error_name(uint64_t code, IetfVersion v);
const char* request_error_name(uint64_t code, IetfVersion v);
const char* publish_done_status_name(uint64_t code, IetfVersion v);
const char* stream_reset_code_name(uint64_t code, IetfVersion v);

// An unknown code in any of these registries means that registry's INTERNAL_ERROR (7.4); a
// REQUEST_ERROR or PUBLISH_DONE with an unknown code never closes the session.
inline uint64_t effective_session_error(uint64_t code, IetfVersion v) {
  return session_error_name(code, v) ? code : uint64_t(SessionError::InternalError);
}
inline uint64_t effective_request_error(uint64_t code, IetfVersion v) {
  return request_error_name(code, v) ? code : uint64_t(RequestErrorCode::InternalError);
}
inline uint64_t effective_publish_done_status(uint64_t code, IetfVersion v) {
  return publish_done_status_name(code, v) ? code : uint64_t(PublishDoneStatus::InternalError);
}
inline uint64_t effective_stream_reset_code(uint64_t code, IetfVersion v) {
  return stream_reset_code_name(code, v) ? code : uint64_t(StreamResetCode::InternalError);
}

}  // namespace moq::wire::ietf
