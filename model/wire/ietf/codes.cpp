#include "model/wire/ietf/codes.h"

namespace moq::wire::ietf {

const char* param_type_name(uint64_t type, IetfVersion v) {
  switch (ParamType(type)) {
    case ParamType::ObjectDeliveryTimeout:
      return has_draft18_parameters(v) ? "OBJECT_DELIVERY_TIMEOUT" : "DELIVERY_TIMEOUT";
    case ParamType::AuthorizationToken:
      return "AUTHORIZATION_TOKEN";
    case ParamType::RendezvousTimeout:
      return "RENDEZVOUS_TIMEOUT";
    case ParamType::SubgroupDeliveryTimeout:
      return has_draft18_parameters(v) ? "SUBGROUP_DELIVERY_TIMEOUT" : nullptr;
    case ParamType::Expires:
      return "EXPIRES";
    case ParamType::LargestObject:
      return "LARGEST_OBJECT";
    case ParamType::FillTimeout:
      return has_draft18_parameters(v) ? "FILL_TIMEOUT" : nullptr;
    case ParamType::Forward:
      return "FORWARD";
    case ParamType::SubscriberPriority:
      return "SUBSCRIBER_PRIORITY";
    case ParamType::LocationFilter:
      return location_filter_is_typed(v) ? "LOCATION_FILTER" : "SUBSCRIPTION_FILTER";
    case ParamType::GroupOrder:
      return "GROUP_ORDER";
    case ParamType::FillParameters:
      return has_fill(v) ? "FILL_PARAMETERS" : nullptr;
    case ParamType::SubgroupFilter:
      return has_range_filters(v) ? "SUBGROUP_FILTER" : nullptr;
    case ParamType::ObjectIdFilter:
      return has_range_filters(v) ? "OBJECTID_FILTER" : nullptr;
    case ParamType::PriorityFilter:
      return has_range_filters(v) ? "PRIORITY_FILTER" : nullptr;
    case ParamType::ObjectPropertyFilter:
      return has_range_filters(v) ? "OBJECT_PROPERTY_FILTER" : nullptr;
    case ParamType::TrackPropertyFilter:
      return has_range_filters(v) ? "TRACK_PROPERTY_FILTER" : nullptr;
    case ParamType::NewGroupRequest:
      return "NEW_GROUP_REQUEST";
    case ParamType::TrackNamespacePrefix:
      return has_draft18_parameters(v) ? "TRACK_NAMESPACE_PREFIX" : nullptr;
    case ParamType::IncludeProperties:
      return has_include_properties(v) ? "INCLUDE_PROPERTIES" : nullptr;
  }
  return nullptr;  // unassigned (grease included)
}

const char* session_error_name(uint64_t code, IetfVersion v) {
  switch (SessionError(code)) {
    case SessionError::NoError:
      return "NO_ERROR";
    case SessionError::InternalError:
      return "INTERNAL_ERROR";
    case SessionError::Unauthorized:
      return "UNAUTHORIZED";
    case SessionError::ProtocolViolation:
      return "PROTOCOL_VIOLATION";
    case SessionError::InvalidRequestId:
      return "INVALID_REQUEST_ID";
    case SessionError::DuplicateTrackAlias:
      return "DUPLICATE_TRACK_ALIAS";
    case SessionError::KeyValueFormattingError:
      return "KEY_VALUE_FORMATTING_ERROR";
    case SessionError::InvalidPath:
      return "INVALID_PATH";
    case SessionError::MalformedPath:
      return "MALFORMED_PATH";
    case SessionError::GoawayTimeout:
      return "GOAWAY_TIMEOUT";
    case SessionError::ControlMessageTimeout:
      return "CONTROL_MESSAGE_TIMEOUT";
    case SessionError::DataStreamTimeout:
      return "DATA_STREAM_TIMEOUT";
    case SessionError::AuthTokenCacheOverflow:
      return "AUTH_TOKEN_CACHE_OVERFLOW";
    case SessionError::DuplicateAuthTokenAlias:
      return "DUPLICATE_AUTH_TOKEN_ALIAS";
    // [D22-INFERRED] The spec file keeps 0x15; a draft-20 registry transcription lists it as
    // removed (ALPN does version selection), so -22 treats it as unassigned.
    case SessionError::VersionNegotiationFailed:
      return has_draft22_error_registry(v) ? nullptr : "VERSION_NEGOTIATION_FAILED";
    case SessionError::MalformedAuthToken:
      return "MALFORMED_AUTH_TOKEN";
    case SessionError::UnknownAuthTokenAlias:
      return "UNKNOWN_AUTH_TOKEN_ALIAS";
    case SessionError::ExpiredAuthToken:
      return "EXPIRED_AUTH_TOKEN";
    case SessionError::InvalidAuthority:
      return "INVALID_AUTHORITY";
    case SessionError::MalformedAuthority:
      return "MALFORMED_AUTHORITY";
    case SessionError::TooManyRequestUpdates:
      return has_draft22_error_registry(v) ? "TOO_MANY_REQUEST_UPDATES" : nullptr;
  }
  return nullptr;  // unassigned (grease included)
}

const char* request_error_name(uint64_t code, IetfVersion v) {
  const bool d22 = has_draft22_error_registry(v);
  switch (RequestErrorCode(code)) {
    case RequestErrorCode::InternalError:
      return "INTERNAL_ERROR";
    case RequestErrorCode::Unauthorized:
      return "UNAUTHORIZED";
    case RequestErrorCode::Timeout:
      return "TIMEOUT";
    case RequestErrorCode::NotSupported:
      return "NOT_SUPPORTED";
    case RequestErrorCode::MalformedAuthToken:
      return "MALFORMED_AUTH_TOKEN";
    case RequestErrorCode::ExpiredAuthToken:
      return "EXPIRED_AUTH_TOKEN";
    case RequestErrorCode::GoingAway:
      return "GOING_AWAY";
    case RequestErrorCode::ExcessiveLoad:
      return "EXCESSIVE_LOAD";
    case RequestErrorCode::DoesNotExist:
      return "DOES_NOT_EXIST";
    case RequestErrorCode::InvalidRange:
      return "INVALID_RANGE";
    case RequestErrorCode::MalformedTrack:
      return "MALFORMED_TRACK";
    case RequestErrorCode::DuplicateSubscription:
      return d22 ? nullptr : "DUPLICATE_SUBSCRIPTION";
    case RequestErrorCode::Uninterested:
      return "UNINTERESTED";
    case RequestErrorCode::PrefixOverlap:
      return "PREFIX_OVERLAP";
    case RequestErrorCode::NamespaceTooLarge:
      return "NAMESPACE_TOO_LARGE";
    case RequestErrorCode::InvalidJoiningRequestId:
      return d22 ? nullptr : "INVALID_JOINING_REQUEST_ID";
    case RequestErrorCode::UnsupportedExtension:
      return request_error_has_redirect(v) ? "UNSUPPORTED_EXTENSION" : nullptr;
    case RequestErrorCode::Redirect:
      return request_error_has_redirect(v) ? "REDIRECT" : nullptr;
    case RequestErrorCode::ConflictingFilters:
      return d22 ? "CONFLICTING_FILTERS" : nullptr;
    case RequestErrorCode::InvalidFilter:
      return d22 ? "INVALID_FILTER" : nullptr;
  }
  return nullptr;  // unassigned (grease included)
}

const char* publish_done_status_name(uint64_t code, IetfVersion) {
  switch (PublishDoneStatus(code)) {
    case PublishDoneStatus::InternalError:
      return "INTERNAL_ERROR";
    case PublishDoneStatus::Unauthorized:
      return "UNAUTHORIZED";
    case PublishDoneStatus::TrackEnded:
      return "TRACK_ENDED";
    case PublishDoneStatus::SubscriptionEnded:
      return "SUBSCRIPTION_ENDED";
    case PublishDoneStatus::GoingAway:
      return "GOING_AWAY";
    case PublishDoneStatus::TooFarBehind:
      return "TOO_FAR_BEHIND";
    case PublishDoneStatus::Expired:
      return "EXPIRED";
    case PublishDoneStatus::UpdateFailed:
      return "UPDATE_FAILED";
    case PublishDoneStatus::ExcessiveLoad:
      return "EXCESSIVE_LOAD";
    case PublishDoneStatus::MalformedTrack:
      return "MALFORMED_TRACK";
  }
  return nullptr;  // unassigned (grease included)
}

const char* stream_reset_code_name(uint64_t code, IetfVersion) {
  switch (StreamResetCode(code)) {
    case StreamResetCode::InternalError:
      return "INTERNAL_ERROR";
    case StreamResetCode::Cancelled:
      return "CANCELLED";
    case StreamResetCode::DeliveryTimeout:
      return "DELIVERY_TIMEOUT";
    case StreamResetCode::SessionClosed:
      return "SESSION_CLOSED";
    case StreamResetCode::GoingAway:
      return "GOING_AWAY";
    case StreamResetCode::TooFarBehind:
      return "TOO_FAR_BEHIND";
    case StreamResetCode::UnknownObjectStatus:
      return "UNKNOWN_OBJECT_STATUS";
    case StreamResetCode::ExpiredAuthToken:
      return "EXPIRED_AUTH_TOKEN";
    case StreamResetCode::ExcessiveLoad:
      return "EXCESSIVE_LOAD";
    case StreamResetCode::MalformedTrack:
      return "MALFORMED_TRACK";
  }
  return nullptr;  // unassigned (grease included)
}

}  // namespace moq::wire::ietf
