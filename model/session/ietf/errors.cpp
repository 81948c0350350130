#include "model/session/ietf/errors.h"

#include "model/data/errors.h"
#include "model/session/ietf/ietf_session.h"
#include "model/session/ietf/names.h"
#include "model/wire/ietf/describe_value.h"

namespace moq::session::ietf {

std::string clip_reason(std::string text) {
  if (text.size() > w::kMaxReasonPhraseLength) text.resize(w::kMaxReasonPhraseLength);
  return text;
}

w::RequestError request_error(w::RequestErrorCode code, std::string reason) {
  w::RequestError e;
  e.error_code = uint64_t(code);
  e.reason = clip_reason(std::move(reason));
  return e;
}

TrackLookup lookup_track(IetfSession& s, const w::TrackNamespace& ns, const std::string& name,
                         const TrackPreferences& prefs) {
  return lookup_track(s, path_of(ns), name, prefs);
}

TrackLookup lookup_track(IetfSession& s, const std::optional<Path>& path, const std::string& name,
                         const TrackPreferences& prefs) {
  TrackLookup out;
  out.error.error_code = uint64_t(w::RequestErrorCode::DoesNotExist);
  if (!path) {
    out.error.reason = "no broadcast path has a namespace field holding '/'";
    return out;
  }
  Result<TrackConsumer> t = s.find_track(*path, name, prefs);
  if (!t) {
    out.error.reason = clip_reason(t.error().message);
    return out;
  }
  out.track = std::move(*t);
  return out;
}

Error refusal(const char* request, const w::RequestError& e, w::IetfVersion v) {
  const uint64_t code = w::effective_request_error(e.error_code, v);
  const char* name = w::request_error_name(code, v);
  return Error{code == uint64_t(w::RequestErrorCode::DoesNotExist) ? data_error::kNotFound : code,
               std::string(request) + " refused: " + (name ? name : "?") + " (" +
                   w::describe_value(e.error_code) + ")" +
                   (e.reason.empty() ? std::string() : ": " + e.reason)};
}

bool has_mandatory_property(const w::Properties& props) {
  for (const w::KeyValuePair& kv : props)
    if (w::is_mandatory_track_property(kv.type)) return true;
  return false;
}

}  // namespace moq::session::ietf
