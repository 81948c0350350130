// The control and request messages of moq-transport draft-18 and draft-22 (their control messages),
// and draft-17 for interop. One struct per message serves every draft; fields a draft lacks are
// noted and must keep their defaults under that draft (check() says so).
//
// Each struct has:
//   encode(Writer&, v)    writes the body (no type, no length; control.h frames it)
//   decode(Reader&, v, m) reads the body into m, a default message (control.cpp builds it in
//                         place in the result); the framing checks that the body is used exactly
//   check(v)              the rules the encoder relies on (limits, parameter scopes, draft)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/base/codec.h"
#include "model/base/result.h"
#include "model/wire/ietf/codes.h"
#include "model/wire/ietf/params.h"
#include "model/wire/ietf/types.h"
#include "model/wire/ietf/version.h"

namespace moq::wire::ietf {

// Type names an enumerator (after ::), which parentheses would not compile.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define MOQ_IETF_MESSAGE_METHODS(Self, Type)              \
  static constexpr MessageType kType = MessageType::Type; \
  bool operator==(const Self&) const = default;           \
  void encode(Writer& w, IetfVersion v) const;            \
  static void decode(Reader& r, IetfVersion v, Self& m);  \
  Status check(IetfVersion v) const;
// NOLINTEND(bugprone-macro-parentheses)

// SETUP (0x2F00): Setup Options as KVPs filling the body. Unknown options are ignored on
// receipt; they are kept in unknown_options so a relay or test can see them.
struct Setup {
  std::optional<std::string> path;                    // 0x01, client, native QUIC
  std::vector<Token> authorization_tokens;            // 0x03, repeatable
  std::optional<uint64_t> max_auth_token_cache_size;  // 0x04
  std::optional<std::string> authority;               // 0x05, client, native QUIC
  std::optional<uint64_t> max_filter_ranges;          // 0x06, -22 only
  std::optional<std::string> implementation;          // 0x07 MOQT_IMPLEMENTATION
  std::optional<uint64_t> max_request_updates;        // 0x08, -22 only
  std::vector<KeyValuePair> unknown_options;          // grease and options unknown to the draft
  MOQ_IETF_MESSAGE_METHODS(Setup, Setup)
};

// GOAWAY (0x10).
struct GoAway {
  std::string new_session_uri;  // at most 8192 bytes; empty from a client
  uint64_t timeout_ms = 0;
  std::optional<uint64_t> request_id;  // -18 only, and only on the control stream
  MOQ_IETF_MESSAGE_METHODS(GoAway, GoAway)
};

// SUBSCRIBE (0x03).
struct Subscribe {
  uint64_t request_id = 0;
  TrackNamespace track_namespace;
  std::string track_name;
  MessageParams params;
  MOQ_IETF_MESSAGE_METHODS(Subscribe, Subscribe)
};

// SUBSCRIBE_OK (0x04).
struct SubscribeOk {
  uint64_t track_alias = 0;
  MessageParams params;
  Properties track_properties;
  MOQ_IETF_MESSAGE_METHODS(SubscribeOk, SubscribeOk)
};

// REQUEST_UPDATE (0x02): carries a new Request ID of its own.
struct RequestUpdate {
  uint64_t request_id = 0;
  MessageParams params;
  MOQ_IETF_MESSAGE_METHODS(RequestUpdate, RequestUpdate)
};

// PUBLISH (0x1D).
struct Publish {
  uint64_t request_id = 0;
  TrackNamespace track_namespace;
  std::string track_name;
  uint64_t track_alias = 0;
  MessageParams params;
  Properties track_properties;
  MOQ_IETF_MESSAGE_METHODS(Publish, Publish)
};

// PUBLISH_DONE (0x0B). status_code has the -18 meaning in every draft (the codec swaps -17's 5 and
// 6).
struct PublishDone {
  uint64_t status_code = 0;   // PublishDoneStatus; unknown codes mean INTERNAL_ERROR
  uint64_t stream_count = 0;  // 2^62-1 when unknown
  std::string reason;         // at most 1024 bytes
  MOQ_IETF_MESSAGE_METHODS(PublishDone, PublishDone)
};
inline constexpr uint64_t kUnknownStreamCount = (uint64_t{1} << 62) - 1;

// PUBLISH_STATE_NOTIFY (0x22, -22 only): changed values only.
struct PublishStateNotify {
  MessageParams params;
  MOQ_IETF_MESSAGE_METHODS(PublishStateNotify, PublishStateNotify)
};

// FETCH (0x16). -18: Fetch Type, then Standalone {namespace, name, start, end} or Joining
// {joining_request_id, joining_start}. -22: namespace and name only; the range travels in the
// LOCATION_FILTER parameter and the -18-only fields stay at their defaults.
enum class FetchType : uint8_t { Standalone = 1, RelativeJoining = 2, AbsoluteJoining = 3 };
struct Fetch {
  uint64_t request_id = 0;
  FetchType fetch_type = FetchType::Standalone;  // -18 only
  TrackNamespace track_namespace;                // -18 Standalone, -22
  std::string track_name;                        // -18 Standalone, -22
  Location start;                                // -18 Standalone
  Location end;  // -18 Standalone: last object + 1; object 0 means the whole end group
  uint64_t joining_request_id = 0;  // -18 joining
  uint64_t joining_start = 0;       // -18 joining
  MessageParams params;
  MOQ_IETF_MESSAGE_METHODS(Fetch, Fetch)
};

// FETCH_OK (0x18). End Location: -18 "last + 1, object 0 = whole group"; -22 inclusive.
struct FetchOk {
  bool end_of_track = false;
  Location end;
  MessageParams params;  // no parameter is defined for FETCH_OK in either draft
  Properties track_properties;
  MOQ_IETF_MESSAGE_METHODS(FetchOk, FetchOk)
};
// The last location a FETCH_OK End Location covers: object nullopt means "every object of the
// group" (-18 object 0). The inverse writes what a draft puts on the wire for a last location.
struct FetchEnd {
  uint64_t group = 0;
  std::optional<uint64_t> last_object;
  bool operator==(const FetchEnd&) const = default;
};
FetchEnd fetch_end_from_wire(Location end, IetfVersion v);
Location fetch_end_to_wire(Location last, IetfVersion v);

// TRACK_STATUS (0x0D): the SUBSCRIBE layout.
struct TrackStatus {
  uint64_t request_id = 0;
  TrackNamespace track_namespace;
  std::string track_name;
  MessageParams params;
  MOQ_IETF_MESSAGE_METHODS(TrackStatus, TrackStatus)
};

// REQUEST_OK (0x07), also called PUBLISH_OK, REQUEST_UPDATE_OK, TRACK_STATUS_OK,
// SUBSCRIBE_NAMESPACE_OK, PUBLISH_NAMESPACE_OK, SUBSCRIBE_TRACKS_OK. Under -18, 0x1E decodes to
// this too ([AMBIG-1]).
struct RequestOk {
  MessageParams params;
  Properties track_properties;  // non-empty only in TRACK_STATUS_OK
  MOQ_IETF_MESSAGE_METHODS(RequestOk, RequestOk)
};
// The session knows what a REQUEST_OK answers: checks its parameters and that Track Properties
// appear only in TRACK_STATUS_OK (PROTOCOL_VIOLATION otherwise).
Status check_request_ok(const RequestOk& m, ParamScope answered, IetfVersion v);

// REQUEST_ERROR (0x05).
struct RequestError {
  uint64_t error_code = 0;           // RequestErrorCode; unknown codes mean INTERNAL_ERROR
  uint64_t retry_interval = 0;       // ms + 1; 0 = do not retry
  std::string reason;                // at most 1024 bytes
  std::optional<Redirect> redirect;  // present exactly when error_code is REDIRECT; never in -17
  MOQ_IETF_MESSAGE_METHODS(RequestError, RequestError)
};

// PUBLISH_NAMESPACE (0x06): the namespace (a prefix in -22, same bytes).
struct PublishNamespace {
  uint64_t request_id = 0;
  TrackNamespace track_namespace;
  MessageParams params;
  MOQ_IETF_MESSAGE_METHODS(PublishNamespace, PublishNamespace)
};

// NAMESPACE (0x08) and NAMESPACE_DONE (0x0E): a suffix after the subscribed prefix.
struct Namespace {
  TrackNamespace suffix;
  MOQ_IETF_MESSAGE_METHODS(Namespace, Namespace)
};
struct NamespaceDone {
  TrackNamespace suffix;
  MOQ_IETF_MESSAGE_METHODS(NamespaceDone, NamespaceDone)
};

// SUBSCRIBE_NAMESPACE (0x50; 0x11 in -17) and SUBSCRIBE_TRACKS (0x51, not in -17): a prefix of
// 0 to 32 fields.
struct SubscribeNamespace {
  uint64_t request_id = 0;
  TrackNamespace prefix;
  MessageParams params;
  // -17 only, on the wire before the parameters (17.2); the -18 message means Namespace, and
  // other drafts must keep it so.
  SubscribeOptions subscribe_options = SubscribeOptions::Namespace;
  MOQ_IETF_MESSAGE_METHODS(SubscribeNamespace, SubscribeNamespace)
};
struct SubscribeTracks {
  uint64_t request_id = 0;
  TrackNamespace prefix;
  MessageParams params;
  MOQ_IETF_MESSAGE_METHODS(SubscribeTracks, SubscribeTracks)
};

// PUBLISH_BLOCKED (-18) / PUBLISH_SKIPPED (-22), 0x0F.
struct PublishBlocked {
  TrackNamespace suffix;
  std::string track_name;
  MOQ_IETF_MESSAGE_METHODS(PublishBlocked, PublishBlocked)
};
using PublishSkipped = PublishBlocked;

#undef MOQ_IETF_MESSAGE_METHODS

}  // namespace moq::wire::ietf
