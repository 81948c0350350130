#include "model/wire/ietf/codes.h"

namespace moq::wire::ietf {

const char* message_type_name(uint64_t type, IetfVersion v) {
  switch (type) {
    case 0x02:
      return "REQUEST_UPDATE";
    case 0x03:
      return "SUBSCRIBE";
    case 0x04:
      return "SUBSCRIBE_OK";
    case 0x05:
      return "REQUEST_ERROR";
    case 0x06:
      return "PUBLISH_NAMESPACE";
    case 0x07:
      return "REQUEST_OK";
    case 0x08:
      return "NAMESPACE";
    case 0x0B:
      return "PUBLISH_DONE";
    case 0x0D:
      return "TRACK_STATUS";
    case 0x0E:
      return "NAMESPACE_DONE";
    case 0x0F:
      return publish_blocked_name(v);
    case 0x10:
      return "GOAWAY";
    case 0x16:
      return "FETCH";
    case 0x18:
      return "FETCH_OK";
    case 0x1D:
      return "PUBLISH";
    case 0x1E:
      return accepts_publish_ok_type(v) ? "PUBLISH_OK" : nullptr;
    case 0x22:
      return has_publish_state_notify(v) ? "PUBLISH_STATE_NOTIFY" : nullptr;
    case 0x50:
      return "SUBSCRIBE_NAMESPACE";
    case 0x51:
      return "SUBSCRIBE_TRACKS";
    case 0x2F00:
      return "SETUP";
    default:
      return nullptr;
  }
}

const char* param_type_name(uint64_t type, IetfVersion v) {
  switch (type) {
    case 0x02:
      return "OBJECT_DELIVERY_TIMEOUT";
    case 0x03:
      return "AUTHORIZATION_TOKEN";
    case 0x04:
      return "RENDEZVOUS_TIMEOUT";
    case 0x06:
      return "SUBGROUP_DELIVERY_TIMEOUT";
    case 0x08:
      return "EXPIRES";
    case 0x09:
      return "LARGEST_OBJECT";
    case 0x0A:
      return "FILL_TIMEOUT";
    case 0x10:
      return "FORWARD";
    case 0x20:
      return "SUBSCRIBER_PRIORITY";
    case 0x21:
      return location_filter_is_typed(v) ? "LOCATION_FILTER" : "SUBSCRIPTION_FILTER";
    case 0x22:
      return "GROUP_ORDER";
    case 0x23:
      return has_fill(v) ? "FILL_PARAMETERS" : nullptr;
    case 0x25:
      return has_range_filters(v) ? "SUBGROUP_FILTER" : nullptr;
    case 0x26:
      return has_range_filters(v) ? "OBJECTID_FILTER" : nullptr;
    case 0x27:
      return has_range_filters(v) ? "PRIORITY_FILTER" : nullptr;
    case 0x28:
      return has_range_filters(v) ? "OBJECT_PROPERTY_FILTER" : nullptr;
    case 0x29:
      return has_range_filters(v) ? "TRACK_PROPERTY_FILTER" : nullptr;
    case 0x32:
      return "NEW_GROUP_REQUEST";
    case 0x34:
      return "TRACK_NAMESPACE_PREFIX";
    case 0x35:
      return has_include_properties(v) ? "INCLUDE_PROPERTIES" : nullptr;
    default:
      return nullptr;
  }
}

const char* session_error_name(uint64_t code, IetfVersion v) {
  switch (code) {
    case 0x0:
      return "NO_ERROR";
    case 0x1:
      return "INTERNAL_ERROR";
    case 0x2:
      return "UNAUTHORIZED";
    case 0x3:
      return "PROTOCOL_VIOLATION";
    case 0x4:
      return "INVALID_REQUEST_ID";
    case 0x5:
      return "DUPLICATE_TRACK_ALIAS";
    case 0x6:
      return "KEY_VALUE_FORMATTING_ERROR";
    case 0x8:
      return "INVALID_PATH";
    case 0x9:
      return "MALFORMED_PATH";
    case 0x10:
      return "GOAWAY_TIMEOUT";
    case 0x11:
      return "CONTROL_MESSAGE_TIMEOUT";
    case 0x12:
      return "DATA_STREAM_TIMEOUT";
    case 0x13:
      return "AUTH_TOKEN_CACHE_OVERFLOW";
    case 0x14:
      return "DUPLICATE_AUTH_TOKEN_ALIAS";
    // [D22-INFERRED] The spec file keeps 0x15; a draft-20 registry transcription lists it as
    // removed (ALPN does version selection), so -22 treats it as unassigned.
    case 0x15:
      return has_draft22_error_registry(v) ? nullptr : "VERSION_NEGOTIATION_FAILED";
    case 0x16:
      return "MALFORMED_AUTH_TOKEN";
    case 0x17:
      return "UNKNOWN_AUTH_TOKEN_ALIAS";
    case 0x18:
      return "EXPIRED_AUTH_TOKEN";
    case 0x19:
      return "INVALID_AUTHORITY";
    case 0x1A:
      return "MALFORMED_AUTHORITY";
    case 0x1B:
      return has_draft22_error_registry(v) ? "TOO_MANY_REQUEST_UPDATES" : nullptr;
    default:
      return nullptr;
  }
}

const char* request_error_name(uint64_t code, IetfVersion v) {
  const bool d22 = has_draft22_error_registry(v);
  switch (code) {
    case 0x0:
      return "INTERNAL_ERROR";
    case 0x1:
      return "UNAUTHORIZED";
    case 0x2:
      return "TIMEOUT";
    case 0x3:
      return "NOT_SUPPORTED";
    case 0x4:
      return "MALFORMED_AUTH_TOKEN";
    case 0x5:
      return "EXPIRED_AUTH_TOKEN";
    case 0x6:
      return "GOING_AWAY";
    case 0x9:
      return "EXCESSIVE_LOAD";
    case 0x10:
      return "DOES_NOT_EXIST";
    case 0x11:
      return "INVALID_RANGE";
    case 0x12:
      return "MALFORMED_TRACK";
    case 0x19:
      return d22 ? nullptr : "DUPLICATE_SUBSCRIPTION";
    case 0x20:
      return "UNINTERESTED";
    case 0x30:
      return "PREFIX_OVERLAP";
    case 0x31:
      return "NAMESPACE_TOO_LARGE";
    case 0x32:
      return d22 ? nullptr : "INVALID_JOINING_REQUEST_ID";
    case 0x33:
      return "UNSUPPORTED_EXTENSION";
    case 0x34:
      return "REDIRECT";
    case 0x35:
      return d22 ? "CONFLICTING_FILTERS" : nullptr;
    case 0x36:
      return d22 ? "INVALID_FILTER" : nullptr;
    default:
      return nullptr;
  }
}

const char* publish_done_status_name(uint64_t code, IetfVersion) {
  switch (code) {
    case 0x0:
      return "INTERNAL_ERROR";
    case 0x1:
      return "UNAUTHORIZED";
    case 0x2:
      return "TRACK_ENDED";
    case 0x3:
      return "SUBSCRIPTION_ENDED";
    case 0x4:
      return "GOING_AWAY";
    case 0x5:
      return "TOO_FAR_BEHIND";
    case 0x6:
      return "EXPIRED";
    case 0x8:
      return "UPDATE_FAILED";
    case 0x9:
      return "EXCESSIVE_LOAD";
    case 0x12:
      return "MALFORMED_TRACK";
    default:
      return nullptr;
  }
}

const char* stream_reset_code_name(uint64_t code, IetfVersion) {
  switch (code) {
    case 0x0:
      return "INTERNAL_ERROR";
    case 0x1:
      return "CANCELLED";
    case 0x2:
      return "DELIVERY_TIMEOUT";
    case 0x3:
      return "SESSION_CLOSED";
    case 0x4:
      return "GOING_AWAY";
    case 0x5:
      return "TOO_FAR_BEHIND";
    case 0x6:
      return "UNKNOWN_OBJECT_STATUS";
    case 0x7:
      return "EXPIRED_AUTH_TOKEN";
    case 0x9:
      return "EXCESSIVE_LOAD";
    case 0x12:
      return "MALFORMED_TRACK";
    default:
      return nullptr;
  }
}

}  // namespace moq::wire::ietf
