#include "model/session/ietf/names.h"

#include <string>

namespace moq::session::ietf {

namespace {
constexpr uint64_t kNsPerMs = 1'000'000;
}

w::TrackNamespace namespace_of(const Path& path) {
  w::TrackNamespace ns;
  assign_namespace(ns, path);
  return ns;
}

void assign_namespace(w::TrackNamespace& out, const Path& path) {
  const std::string& s = path.str();
  size_t n = 0;
  size_t begin = 0;
  while (begin < s.size()) {
    size_t end = s.find('/', begin);
    if (end == std::string::npos) end = s.size();
    if (n == out.fields.size()) out.fields.emplace_back();
    out.fields[n++].assign(s, begin, end - begin);
    begin = end + 1;
  }
  out.fields.resize(n);
}

std::optional<Path> path_of(const w::TrackNamespace& ns) {
  std::string text;
  for (const std::string& f : ns.fields) {
    if (f.empty() || f.find('/') != std::string::npos) return std::nullopt;
    if (!text.empty()) text.push_back('/');
    text += f;
  }
  return Path(text);
}

w::Properties track_properties(const TrackInfo& info) {
  w::Properties props;
  if (info.cache.max_age_ns != UINT64_MAX) {
    props.push_back(w::KeyValuePair::integer(uint64_t(w::PropertyType::MaxCacheDuration),
                                             info.cache.max_age_ns / kNsPerMs));
  }
  const uint8_t wire = wire_priority(info.priority);
  if (wire != kDefaultWirePriority) {
    props.push_back(
        w::KeyValuePair::integer(uint64_t(w::PropertyType::DefaultPublisherPriority), wire));
  }
  return props;
}

TrackInfo track_info_of(const w::Properties& props) {
  TrackInfo info;
  info.priority = local_priority(kDefaultWirePriority);
  for (const w::KeyValuePair& kv : props) {
    if (kv.type == uint64_t(w::PropertyType::DefaultPublisherPriority) && kv.value <= 255) {
      info.priority = local_priority(static_cast<uint8_t>(kv.value));
    } else if (kv.type == uint64_t(w::PropertyType::MaxCacheDuration)) {
      info.cache.max_age_ns = kv.value > UINT64_MAX / kNsPerMs ? UINT64_MAX : kv.value * kNsPerMs;
    }
  }
  return info;
}

}  // namespace moq::session::ietf
