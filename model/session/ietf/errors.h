// The requests' error paths, both roles: the REQUEST_ERROR a publisher answers with (and the
// track lookup that produces most of them), and the Error a viewer's consumer sees for one.
#pragma once

#include <optional>
#include <string>

#include "model/base/result.h"
#include "model/data/data.h"
#include "model/wire/ietf/messages.h"

namespace moq::session::ietf {

namespace w = ::moq::wire::ietf;
class IetfSession;

// A REQUEST_ERROR with the reason cut to the longest Reason Phrase.
w::RequestError request_error(w::RequestErrorCode code, std::string reason);
std::string clip_reason(std::string text);

// The track a request names in the served origin; nullopt with the REQUEST_ERROR to send.
struct TrackLookup {
  std::optional<TrackConsumer> track;
  w::RequestError error;
};
TrackLookup lookup_track(IetfSession& s, const w::TrackNamespace& ns, const std::string& name,
                         const TrackPreferences& prefs = {});
// The same for a namespace already turned into a path (path_of; nullopt when it has none).
TrackLookup lookup_track(IetfSession& s, const std::optional<Path>& path, const std::string& name,
                         const TrackPreferences& prefs = {});

// The error a consumer sees for a REQUEST_ERROR: DOES_NOT_EXIST maps to the data model's
// kNotFound; other codes keep their wire value. The text names the request and the code.
Error refusal(const char* request, const w::RequestError& e, w::IetfVersion v);

// A response carrying a mandatory track property this endpoint does not know is refused.
bool has_mandatory_property(const w::Properties& props);

}  // namespace moq::session::ietf
