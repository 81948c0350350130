// How the version-agnostic model maps onto moq-transport names and numbers: broadcast paths and
// Track Namespaces, priorities (the model sends higher first, the wire sends lower first), and a
// track's TrackInfo and its Track Properties.
#pragma once

#include <cstdint>
#include <optional>

#include "model/base/path.h"
#include "model/data/track.h"
#include "model/wire/ietf/types.h"

namespace moq::session::ietf {

namespace w = ::moq::wire::ietf;

// One namespace field per path segment: "room/cam" <-> ("room", "cam").
w::TrackNamespace namespace_of(const Path& path);
// The same into an existing namespace, whose fields keep their capacity (a request sent every
// round allocates nothing).
void assign_namespace(w::TrackNamespace& out, const Path& path);
// The path a namespace names; nullopt when a field holds a '/' (no path has such a segment).
std::optional<Path> path_of(const w::TrackNamespace& ns);

// The model's priorities send higher values first; moq-transport sends lower values first. The
// mapping is its own inverse. An absent wire priority means 128 (draft-ietf-moq-transport, priority
// parameters and properties).
constexpr uint8_t wire_priority(uint8_t local) {
  return static_cast<uint8_t>(255 - local);
}
constexpr uint8_t local_priority(uint8_t wire) {
  return static_cast<uint8_t>(255 - wire);
}
inline constexpr uint8_t kDefaultWirePriority = 128;

// Track Properties describing info: DEFAULT_PUBLISHER_PRIORITY when it is not the default and
// MAX_CACHE_DURATION when the cache age is bounded. The timescale has no moq-transport property
// and is not carried.
w::Properties track_properties(const TrackInfo& info);
// The inverse; unknown properties are ignored, absent ones keep TrackInfo's defaults.
TrackInfo track_info_of(const w::Properties& props);

}  // namespace moq::session::ietf
