// The control messages (messages.h) in one file past 600 lines: one section per message, in the
// draft's table order, each message's encode, decode and check together, and the parameter and
// Required Request ID Delta helpers of the top shared by all; a split would part a message's
// halves or copy those helpers.
#include "model/wire/ietf/messages.h"

#include <algorithm>

#include "model/wire/ietf/control.h"
#include "model/wire/ietf/describe_value.h"
#include "model/wire/ietf/field_error.h"

namespace moq::wire::ietf {

namespace {

std::string to_string(std::span<const uint8_t> b) {
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

// Reads the parameter block of message type t into the message's own.
void read_params(Reader& r, MessageType t, IetfVersion v, MessageParams& into) {
  decode_params(r, allowed_params_for_message(t, v), v, into);
}

Status check_msg_params(const MessageParams& p, MessageType t, IetfVersion v) {
  return check_params(p, allowed_params_for_message(t, v), v,
                      message_type_name(wire_type(t, v), v));
}

// 17.1: the Required Request ID Delta after a -17 request's Request ID; written 0, read and
// ignored (see has_required_request_id_delta).
void put_required_delta(Writer& w, IetfVersion v) {
  if (has_required_request_id_delta(v)) w.varint(0);
}
void skip_required_delta(Reader& r, IetfVersion v) {
  if (has_required_request_id_delta(v)) (void)r.varint("required request ID delta");
}

#define MOQ_TRY(expr)        \
  do {                       \
    Status _s = (expr);      \
    if (!_s.ok()) return _s; \
  } while (0)

}  // namespace

// ---- SETUP ----

namespace {

void put_option(std::vector<KeyValuePair>& out, SetupOption type, const std::string& bytes) {
  out.push_back(KeyValuePair::data(uint64_t(type), bytes));
}
void put_option(std::vector<KeyValuePair>& out, SetupOption type, uint64_t value) {
  out.push_back(KeyValuePair::integer(uint64_t(type), value));
}

// All options in wire order: known ones by type, unknown ones merged by type (stable).
std::vector<KeyValuePair> setup_options(const Setup& m) {
  std::vector<KeyValuePair> out;
  if (m.path) put_option(out, SetupOption::Path, *m.path);
  for (const auto& t : m.authorization_tokens) {
    std::vector<uint8_t> buf;
    Writer w(buf, kVarint);
    encode_token(w, t);
    put_option(out, SetupOption::AuthorizationToken, to_string(buf));
  }
  if (m.max_auth_token_cache_size)
    put_option(out, SetupOption::MaxAuthTokenCacheSize, *m.max_auth_token_cache_size);
  if (m.authority) put_option(out, SetupOption::Authority, *m.authority);
  if (m.max_filter_ranges) put_option(out, SetupOption::MaxFilterRanges, *m.max_filter_ranges);
  if (m.implementation) put_option(out, SetupOption::MoqtImplementation, *m.implementation);
  if (m.max_request_updates)
    put_option(out, SetupOption::MaxRequestUpdates, *m.max_request_updates);
  out.insert(out.end(), m.unknown_options.begin(), m.unknown_options.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const KeyValuePair& a, const KeyValuePair& b) { return a.type < b.type; });
  return out;
}

bool is_known_setup_option(uint64_t type, IetfVersion v) {
  switch (SetupOption(type)) {
    case SetupOption::Path:
    case SetupOption::AuthorizationToken:
    case SetupOption::MaxAuthTokenCacheSize:
    case SetupOption::Authority:
    case SetupOption::MoqtImplementation:
      return true;
    case SetupOption::MaxFilterRanges:
    case SetupOption::MaxRequestUpdates:
      return has_limit_setup_options(v);
  }
  return false;
}

}  // namespace

void Setup::encode(Writer& w, IetfVersion) const {
  encode_kvps(w, setup_options(*this));
}

void Setup::decode(Reader& r, IetfVersion v, Setup& m) {
  std::vector<KeyValuePair> kvps = decode_kvps_to_end(r, "setup options");
  if (!r.ok()) return;
  auto once = [&r](bool already, const char* name) {
    if (already) r.fail(name, "repeated (only AUTHORIZATION_TOKEN may repeat)");
    return !already;
  };
  for (auto& kv : kvps) {
    if (!r.ok()) break;
    if (!is_known_setup_option(kv.type, v)) {
      m.unknown_options.push_back(std::move(kv));
      continue;
    }
    switch (SetupOption(kv.type)) {
      case SetupOption::Path:
        if (once(m.path.has_value(), "PATH")) m.path = std::move(kv.bytes);
        break;
      case SetupOption::AuthorizationToken: {
        Reader c({reinterpret_cast<const uint8_t*>(kv.bytes.data()), kv.bytes.size()}, kVarint,
                 r.message());
        Token t = decode_token(c);
        r.adopt(c, "AUTHORIZATION_TOKEN", kKeyValueFormattingError);
        m.authorization_tokens.push_back(std::move(t));
        break;
      }
      case SetupOption::MaxAuthTokenCacheSize:
        if (once(m.max_auth_token_cache_size.has_value(), "MAX_AUTH_TOKEN_CACHE_SIZE"))
          m.max_auth_token_cache_size = kv.value;
        break;
      case SetupOption::Authority:
        if (once(m.authority.has_value(), "AUTHORITY")) m.authority = std::move(kv.bytes);
        break;
      case SetupOption::MaxFilterRanges:
        if (once(m.max_filter_ranges.has_value(), "MAX_FILTER_RANGES"))
          m.max_filter_ranges = kv.value;
        break;
      case SetupOption::MoqtImplementation:
        if (once(m.implementation.has_value(), "MOQT_IMPLEMENTATION"))
          m.implementation = std::move(kv.bytes);
        break;
      case SetupOption::MaxRequestUpdates:
        if (once(m.max_request_updates.has_value(), "MAX_REQUEST_UPDATES"))
          m.max_request_updates = kv.value;
        break;
    }
  }
}

Status Setup::check(IetfVersion v) const {
  constexpr const char* kName = "SETUP";
  if (!has_limit_setup_options(v) && (max_filter_ranges || max_request_updates))
    return make_error(kName, "MAX_FILTER_RANGES / MAX_REQUEST_UPDATES",
                      std::string("not defined in ") + version_name(v));
  for (const auto& kv : unknown_options)
    if (is_known_setup_option(kv.type, v))
      return make_error(kName, "unknown options",
                        "type " + describe_value(kv.type) + " is a known option of " +
                            version_name(v) + "; use its field");
  for (const auto& t : authorization_tokens)
    MOQ_TRY(check_token(t, kName));
  std::vector<KeyValuePair> unknown = unknown_options;
  std::stable_sort(unknown.begin(), unknown.end(),
                   [](const KeyValuePair& a, const KeyValuePair& b) { return a.type < b.type; });
  MOQ_TRY(check_kvps(unknown, kName, "unknown options"));
  return check_kvps(setup_options(*this), kName, "setup options");
}

// ---- GOAWAY ----

void GoAway::encode(Writer& w, IetfVersion v) const {
  w.string(new_session_uri);
  w.varint(timeout_ms);
  if (goaway_has_request_id(v) && request_id) w.varint(*request_id);
}

void GoAway::decode(Reader& r, IetfVersion v, GoAway& m) {
  m.new_session_uri = std::string(r.string("new session URI", kMaxGoawayUriLength));
  m.timeout_ms = r.varint("timeout");
  if (goaway_has_request_id(v) && r.ok() && !r.at_end()) m.request_id = r.varint("request ID");
}

Status GoAway::check(IetfVersion v) const {
  if (new_session_uri.size() > kMaxGoawayUriLength)
    return make_error("GOAWAY", "new session URI", "longer than 8192 bytes");
  if (!goaway_has_request_id(v) && request_id)
    return make_error("GOAWAY", "request ID", std::string("not in ") + version_name(v));
  return {};
}

// ---- SUBSCRIBE / TRACK_STATUS (same layout) ----

void Subscribe::encode(Writer& w, IetfVersion v) const {
  w.varint(request_id);
  put_required_delta(w, v);
  encode_namespace(w, track_namespace);
  w.string(track_name);
  encode_params(w, params, v);
}

void Subscribe::decode(Reader& r, IetfVersion v, Subscribe& m) {
  m.request_id = r.varint("request ID");
  skip_required_delta(r, v);
  decode_namespace(r, "track namespace", m.track_namespace);
  m.track_name = decode_track_name(r, m.track_namespace);
  read_params(r, kType, v, m.params);
}

Status Subscribe::check(IetfVersion v) const {
  MOQ_TRY(check_full_track_name(track_namespace, track_name, "SUBSCRIBE"));
  return check_msg_params(params, kType, v);
}

void TrackStatus::encode(Writer& w, IetfVersion v) const {
  w.varint(request_id);
  put_required_delta(w, v);
  encode_namespace(w, track_namespace);
  w.string(track_name);
  encode_params(w, params, v);
}

void TrackStatus::decode(Reader& r, IetfVersion v, TrackStatus& m) {
  m.request_id = r.varint("request ID");
  skip_required_delta(r, v);
  decode_namespace(r, "track namespace", m.track_namespace);
  m.track_name = decode_track_name(r, m.track_namespace);
  read_params(r, kType, v, m.params);
}

Status TrackStatus::check(IetfVersion v) const {
  MOQ_TRY(check_full_track_name(track_namespace, track_name, "TRACK_STATUS"));
  return check_msg_params(params, kType, v);
}

// ---- SUBSCRIBE_OK ----

void SubscribeOk::encode(Writer& w, IetfVersion v) const {
  w.varint(track_alias);
  encode_params(w, params, v);
  encode_kvps(w, track_properties);
}

void SubscribeOk::decode(Reader& r, IetfVersion v, SubscribeOk& m) {
  m.track_alias = r.varint("track alias");
  read_params(r, kType, v, m.params);
  if (r.ok()) m.track_properties = decode_track_properties(r);
}

Status SubscribeOk::check(IetfVersion v) const {
  MOQ_TRY(check_msg_params(params, kType, v));
  return check_track_properties(track_properties, "SUBSCRIBE_OK");
}

// ---- REQUEST_UPDATE ----

void RequestUpdate::encode(Writer& w, IetfVersion v) const {
  w.varint(request_id);
  put_required_delta(w, v);
  encode_params(w, params, v);
}

void RequestUpdate::decode(Reader& r, IetfVersion v, RequestUpdate& m) {
  m.request_id = r.varint("request ID");
  skip_required_delta(r, v);
  read_params(r, kType, v, m.params);
}

Status RequestUpdate::check(IetfVersion v) const {
  return check_msg_params(params, kType, v);
}

// ---- PUBLISH ----

void Publish::encode(Writer& w, IetfVersion v) const {
  w.varint(request_id);
  put_required_delta(w, v);
  encode_namespace(w, track_namespace);
  w.string(track_name);
  w.varint(track_alias);
  encode_params(w, params, v);
  encode_kvps(w, track_properties);
}

void Publish::decode(Reader& r, IetfVersion v, Publish& m) {
  m.request_id = r.varint("request ID");
  skip_required_delta(r, v);
  decode_namespace(r, "track namespace", m.track_namespace);
  m.track_name = decode_track_name(r, m.track_namespace);
  m.track_alias = r.varint("track alias");
  read_params(r, kType, v, m.params);
  if (r.ok()) m.track_properties = decode_track_properties(r);
}

Status Publish::check(IetfVersion v) const {
  MOQ_TRY(check_full_track_name(track_namespace, track_name, "PUBLISH"));
  MOQ_TRY(check_msg_params(params, kType, v));
  return check_track_properties(track_properties, "PUBLISH");
}

// ---- PUBLISH_DONE ----

void PublishDone::encode(Writer& w, IetfVersion v) const {
  w.varint(publish_done_status_wire(status_code, v));
  w.varint(stream_count);
  w.string(reason);
}

void PublishDone::decode(Reader& r, IetfVersion v, PublishDone& m) {
  m.status_code = publish_done_status_wire(r.varint("status code"), v);
  m.stream_count = r.varint("stream count");
  m.reason = std::string(r.string("reason phrase", kMaxReasonPhraseLength));
}

Status PublishDone::check(IetfVersion) const {
  if (reason.size() > kMaxReasonPhraseLength)
    return make_error("PUBLISH_DONE", "reason phrase", "longer than 1024 bytes");
  return {};
}

// ---- PUBLISH_STATE_NOTIFY ----

void PublishStateNotify::encode(Writer& w, IetfVersion v) const {
  encode_params(w, params, v);
}

void PublishStateNotify::decode(Reader& r, IetfVersion v, PublishStateNotify& m) {
  read_params(r, kType, v, m.params);
}

Status PublishStateNotify::check(IetfVersion v) const {
  if (!has_publish_state_notify(v))
    return make_error("PUBLISH_STATE_NOTIFY", "type", std::string("not in ") + version_name(v));
  return check_msg_params(params, kType, v);
}

// ---- FETCH ----

void Fetch::encode(Writer& w, IetfVersion v) const {
  w.varint(request_id);
  put_required_delta(w, v);
  if (fetch_has_fetch_type(v)) {
    w.varint(uint64_t(fetch_type));
    if (fetch_type == FetchType::Standalone) {
      encode_namespace(w, track_namespace);
      w.string(track_name);
      encode_location(w, start);
      encode_location(w, end);
    } else {
      w.varint(joining_request_id);
      w.varint(joining_start);
    }
  } else {
    encode_namespace(w, track_namespace);
    w.string(track_name);
  }
  encode_params(w, params, v);
}

void Fetch::decode(Reader& r, IetfVersion v, Fetch& m) {
  m.request_id = r.varint("request ID");
  skip_required_delta(r, v);
  bool standalone = true;
  if (fetch_has_fetch_type(v)) {
    const uint64_t t = r.varint("fetch type");
    if (r.ok() && (t < 1 || t > 3)) r.fail("fetch type", "unknown fetch type " + describe_value(t));
    if (!r.ok()) return;
    m.fetch_type = FetchType(t);
    standalone = m.fetch_type == FetchType::Standalone;
  }
  if (standalone) {
    decode_namespace(r, "track namespace", m.track_namespace);
    m.track_name = decode_track_name(r, m.track_namespace);
    if (fetch_has_fetch_type(v)) {
      m.start = decode_location(r, "start group", "start object");
      m.end = decode_location(r, "end group", "end object");
    }
  } else {
    m.joining_request_id = r.varint("joining request ID");
    m.joining_start = r.varint("joining start");
  }
  read_params(r, kType, v, m.params);
}

Status Fetch::check(IetfVersion v) const {
  constexpr const char* kName = "FETCH";
  const bool standalone = fetch_type == FetchType::Standalone;
  if (fetch_has_fetch_type(v)) {
    if (uint8_t(fetch_type) < 1 || uint8_t(fetch_type) > 3)
      return make_error(kName, "fetch type", "unknown fetch type");
  } else if (!standalone) {
    return make_error(kName, "fetch type",
                      std::string("joining FETCH does not exist in ") + version_name(v));
  }
  if (standalone) {
    MOQ_TRY(check_full_track_name(track_namespace, track_name, kName));
    if (joining_request_id != 0 || joining_start != 0)
      return make_error(kName, "joining request ID", "set on a standalone FETCH");
    if (!fetch_has_fetch_type(v) && (start != Location{} || end != Location{}))
      return make_error(kName, "start/end",
                        std::string("the range is a LOCATION_FILTER in ") + version_name(v));
  } else if (!track_namespace.fields.empty() || !track_name.empty() || start != Location{} ||
             end != Location{}) {
    return make_error(kName, "track namespace", "a joining FETCH names no track or range");
  }
  return check_msg_params(params, kType, v);
}

// ---- FETCH_OK ----

void FetchOk::encode(Writer& w, IetfVersion v) const {
  w.u8(end_of_track ? 1 : 0);
  encode_location(w, end);
  encode_params(w, params, v);
  encode_kvps(w, track_properties);
}

void FetchOk::decode(Reader& r, IetfVersion v, FetchOk& m) {
  m.end_of_track = r.boolean("end of track");
  m.end = decode_location(r, "end group", "end object");
  read_params(r, kType, v, m.params);
  if (r.ok()) m.track_properties = decode_track_properties(r);
}

Status FetchOk::check(IetfVersion v) const {
  MOQ_TRY(check_msg_params(params, kType, v));
  return check_track_properties(track_properties, "FETCH_OK");
}

FetchEnd fetch_end_from_wire(Location end, IetfVersion v) {
  if (fetch_ok_end_is_inclusive(v)) return {end.group, end.object};
  if (end.object == 0) return {end.group, std::nullopt};
  return {end.group, end.object - 1};
}

Location fetch_end_to_wire(Location last, IetfVersion v) {
  if (fetch_ok_end_is_inclusive(v)) return last;
  return {last.group, last.object + 1};
}

// ---- REQUEST_OK ----

void RequestOk::encode(Writer& w, IetfVersion v) const {
  encode_params(w, params, v);
  encode_kvps(w, track_properties);
}

void RequestOk::decode(Reader& r, IetfVersion v, RequestOk& m) {
  read_params(r, kType, v, m.params);
  if (r.ok()) m.track_properties = decode_track_properties(r);
}

Status RequestOk::check(IetfVersion v) const {
  MOQ_TRY(check_msg_params(params, kType, v));
  return check_track_properties(track_properties, "REQUEST_OK");
}

Status check_request_ok(const RequestOk& m, ParamScope answered, IetfVersion v) {
  MOQ_TRY(check_params(m.params, answered, v, param_scope_name(answered)));
  if (answered != ParamScope::TrackStatusOk && !m.track_properties.empty())
    return make_error(param_scope_name(answered), "track properties",
                      "only TRACK_STATUS_OK carries Track Properties");
  return {};
}

// ---- REQUEST_ERROR ----

void RequestError::encode(Writer& w, IetfVersion) const {
  w.varint(error_code);
  w.varint(retry_interval);
  w.string(reason);
  if (redirect) encode_redirect(w, *redirect);
}

void RequestError::decode(Reader& r, IetfVersion v, RequestError& m) {
  m.error_code = r.varint("error code");
  m.retry_interval = r.varint("retry interval");
  m.reason = std::string(r.string("reason phrase", kMaxReasonPhraseLength));
  if (r.ok() && request_error_has_redirect(v) &&
      m.error_code == uint64_t(RequestErrorCode::Redirect))
    m.redirect = decode_redirect(r);
}

Status RequestError::check(IetfVersion v) const {
  constexpr const char* kName = "REQUEST_ERROR";
  if (reason.size() > kMaxReasonPhraseLength)
    return make_error(kName, "reason phrase", "longer than 1024 bytes");
  if (!request_error_has_redirect(v))
    return redirect ? make_error(kName, "redirect", std::string("not in ") + version_name(v))
                    : Status{};
  const bool is_redirect = error_code == uint64_t(RequestErrorCode::Redirect);
  if (is_redirect != redirect.has_value())
    return make_error(kName, "redirect", "present exactly when the error code is REDIRECT");
  if (redirect)
    return check_full_track_name(redirect->track_namespace, redirect->track_name, kName);
  return {};
}

// ---- PUBLISH_NAMESPACE, SUBSCRIBE_NAMESPACE, SUBSCRIBE_TRACKS ----

void PublishNamespace::encode(Writer& w, IetfVersion v) const {
  w.varint(request_id);
  put_required_delta(w, v);
  encode_namespace(w, track_namespace);
  encode_params(w, params, v);
}

void PublishNamespace::decode(Reader& r, IetfVersion v, PublishNamespace& m) {
  m.request_id = r.varint("request ID");
  skip_required_delta(r, v);
  decode_namespace(r, "track namespace", m.track_namespace);
  read_params(r, kType, v, m.params);
}

Status PublishNamespace::check(IetfVersion v) const {
  MOQ_TRY(check_namespace(track_namespace, "PUBLISH_NAMESPACE", "track namespace"));
  return check_msg_params(params, kType, v);
}

void SubscribeNamespace::encode(Writer& w, IetfVersion v) const {
  w.varint(request_id);
  put_required_delta(w, v);
  encode_namespace(w, prefix);
  if (subscribe_namespace_has_options(v)) w.varint(uint64_t(subscribe_options));
  encode_params(w, params, v);
}

void SubscribeNamespace::decode(Reader& r, IetfVersion v, SubscribeNamespace& m) {
  m.request_id = r.varint("request ID");
  skip_required_delta(r, v);
  decode_namespace(r, "track namespace prefix", m.prefix);
  if (subscribe_namespace_has_options(v) && r.ok()) {
    const uint64_t o = r.varint("subscribe options");
    if (r.ok() && o > uint64_t(SubscribeOptions::Both))
      r.fail("subscribe options",
             "not 0 (PUBLISH), 1 (NAMESPACE) or 2 (both): " + describe_value(o));
    m.subscribe_options = SubscribeOptions(o);
  }
  read_params(r, kType, v, m.params);
}

Status SubscribeNamespace::check(IetfVersion v) const {
  MOQ_TRY(check_namespace(prefix, "SUBSCRIBE_NAMESPACE", "track namespace prefix"));
  if (uint64_t(subscribe_options) > uint64_t(SubscribeOptions::Both))
    return make_error("SUBSCRIBE_NAMESPACE", "subscribe options", "not 0, 1 or 2");
  if (!subscribe_namespace_has_options(v) && subscribe_options != SubscribeOptions::Namespace)
    return make_error("SUBSCRIBE_NAMESPACE", "subscribe options",
                      std::string("not in ") + version_name(v) + " (namespaces only)");
  return check_msg_params(params, kType, v);
}

void SubscribeTracks::encode(Writer& w, IetfVersion v) const {
  w.varint(request_id);
  put_required_delta(w, v);
  encode_namespace(w, prefix);
  encode_params(w, params, v);
}

void SubscribeTracks::decode(Reader& r, IetfVersion v, SubscribeTracks& m) {
  m.request_id = r.varint("request ID");
  skip_required_delta(r, v);
  decode_namespace(r, "track namespace prefix", m.prefix);
  read_params(r, kType, v, m.params);
}

Status SubscribeTracks::check(IetfVersion v) const {
  if (subscribe_namespace_has_options(v))
    return make_error("SUBSCRIBE_TRACKS", "type", std::string("not in ") + version_name(v));
  MOQ_TRY(check_namespace(prefix, "SUBSCRIBE_TRACKS", "track namespace prefix"));
  return check_msg_params(params, kType, v);
}

// ---- NAMESPACE, NAMESPACE_DONE, PUBLISH_BLOCKED ----

void Namespace::encode(Writer& w, IetfVersion) const {
  encode_namespace(w, suffix);
}

void Namespace::decode(Reader& r, IetfVersion, Namespace& m) {
  decode_namespace(r, "track namespace suffix", m.suffix);
}

Status Namespace::check(IetfVersion) const {
  return check_namespace(suffix, "NAMESPACE", "track namespace suffix");
}

void NamespaceDone::encode(Writer& w, IetfVersion) const {
  encode_namespace(w, suffix);
}

void NamespaceDone::decode(Reader& r, IetfVersion, NamespaceDone& m) {
  decode_namespace(r, "track namespace suffix", m.suffix);
}

Status NamespaceDone::check(IetfVersion) const {
  return check_namespace(suffix, "NAMESPACE_DONE", "track namespace suffix");
}

void PublishBlocked::encode(Writer& w, IetfVersion) const {
  encode_namespace(w, suffix);
  w.string(track_name);
}

void PublishBlocked::decode(Reader& r, IetfVersion, PublishBlocked& m) {
  decode_namespace(r, "track namespace suffix", m.suffix);
  m.track_name = decode_track_name(r, m.suffix);
}

Status PublishBlocked::check(IetfVersion v) const {
  return check_full_track_name(suffix, track_name, publish_blocked_name(v));
}

}  // namespace moq::wire::ietf
