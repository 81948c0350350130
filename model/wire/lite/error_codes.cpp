#include "model/wire/lite/error_codes.h"

namespace moq::wire::lite {

const char* session_code_name(uint64_t code) {
  switch (code) {
    case session_code::kNoError:
      return "NO_ERROR";
    case session_code::kInternalError:
      return "INTERNAL_ERROR";
    case session_code::kUnauthorized:
      return "UNAUTHORIZED";
    case session_code::kProtocolViolation:
      return "PROTOCOL_VIOLATION";
    case session_code::kKeyValueFormattingError:
      return "KEY_VALUE_FORMATTING_ERROR";
    case session_code::kGoawayTimeout:
      return "GOAWAY_TIMEOUT";
    case session_code::kControlMessageTimeout:
      return "CONTROL_MESSAGE_TIMEOUT";
    case session_code::kVersionNegotiationFailed:
      return "VERSION_NEGOTIATION_FAILED";
    case session_code::kTooManyRequestUpdates:
      return "TOO_MANY_REQUEST_UPDATES";
  }
  return is_application_code(code) ? "application" : "unspecified";
}

const char* stream_code_name(uint64_t code, LiteVersion v) {
  switch (code) {
    case stream_code::kInternalError:
      return "INTERNAL_ERROR";
    case stream_code::kCancelled:
      return "CANCELLED";
    case stream_code::kDeliveryTimeout:
      return "DELIVERY_TIMEOUT";
    case stream_code::kSessionClosed:
      return "SESSION_CLOSED";
    case stream_code::kGoingAway:
      return "GOING_AWAY";
    case stream_code::kTooFarBehind:
      return "TOO_FAR_BEHIND";
    case stream_code::kMalformedTrack:
      return "MALFORMED_TRACK";
    case stream_code::kControlTimeout:
      return "provisional CONTROL_TIMEOUT";
    case stream_code::kGroupTooLarge:
      return "provisional GROUP_TOO_LARGE";
    case stream_code::kNotFound:
      return "provisional NOT_FOUND";
    case stream_code::kOld:
      return "provisional OLD";
    case stream_code::kEvicted:
      return "provisional EVICTED";
    case stream_code::kUnroutable:
      return "provisional UNROUTABLE";
    case stream_code::kWrongSize:
      return "provisional WRONG_SIZE";
    case stream_code::kFrameTooLarge:
      return "provisional FRAME_TOO_LARGE";
    case stream_code::kTimestampMismatch:
      return "provisional TIMESTAMP_MISMATCH";
    case stream_code::kUnauthorized07:
      return stream_unauthorized_code(v) ? "UNAUTHORIZED" : "unspecified";
  }
  return is_application_code(code) ? "application" : "unspecified";
}

}  // namespace moq::wire::lite
