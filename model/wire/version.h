// The protocol versions moqbench knows: one registry, read by the wire codecs, the sessions, the
// harness and the reports. Each family's codec has its own version enum (wire/lite/version.h,
// wire/ietf/version.h) whose names and ALPN identifiers come from here, and every switch over a
// version is exhaustive, so adding a version here makes -Werror (-Wswitch) list every place
// that must decide what the new version does.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace moq {

// New versions go at the end: a version's index is its byte in committed fuzz seeds
// (tests/fuzz/peer_script.h) and its place in the sweep order.
enum class Version : uint8_t { Lite06, Lite07Wip, Transport18, Transport22, Transport17 };

enum class Family : uint8_t {
  Lite,       // moq-lite (model/wire/lite, model/session/lite)
  Transport,  // moq-transport, the IETF drafts (model/wire/ietf, model/session/ietf)
};

struct VersionInfo {
  Version version;
  std::string_view name;  // what reports, case ids and the CLI call it
  std::string_view alpn;  // the identifier negotiated by ALPN / WT-Protocol
  Family family;
  // Implemented for interoperating with another stack only: every command that takes a version
  // accepts it, but the default sweep, the gate baseline and the default fault runs leave it out,
  // because its figures would compare an older draft kept for one peer's sake, not a version
  // moqbench measures (moq-transport-17: the draft @moq/lite speaks, model/wire/ietf/README.md).
  bool interop_only = false;
};

// In Version order: kVersions[size_t(v)] describes v.
inline constexpr std::array<VersionInfo, 5> kVersions = {{
    {Version::Lite06, "moq-lite-06", "moq-lite-06", Family::Lite},
    {Version::Lite07Wip, "moq-lite-07-wip", "moq-lite-07-wip", Family::Lite},
    {Version::Transport18, "moq-transport-18", "moqt-18", Family::Transport},
    {Version::Transport22, "moq-transport-22", "moqt-22", Family::Transport},
    {Version::Transport17, "moq-transport-17", "moqt-17", Family::Transport, true},
}};

constexpr const VersionInfo& version_info(Version v) {
  return kVersions[static_cast<size_t>(v)];
}
constexpr std::string_view version_name(Version v) {
  return version_info(v).name;
}
constexpr std::string_view version_alpn(Version v) {
  return version_info(v).alpn;
}
constexpr Family version_family(Version v) {
  return version_info(v).family;
}
constexpr bool version_interop_only(Version v) {
  return version_info(v).interop_only;
}

// The version with this name ("moq-lite-06", ...), or nullopt.
constexpr std::optional<Version> parse_version(std::string_view name) {
  for (const VersionInfo& v : kVersions) {
    if (v.name == name) return v.version;
  }
  return std::nullopt;
}
// The version negotiated under this ALPN ("moqt-18", ...), or nullopt.
constexpr std::optional<Version> version_from_alpn(std::string_view alpn) {
  for (const VersionInfo& v : kVersions) {
    if (v.alpn == alpn) return v.version;
  }
  return std::nullopt;
}
// A version as a person may write it on a command line: its name ("moq-transport-22"), its ALPN
// ("moqt-22"), or a moq-transport draft as the interop runners write it ("draft-22"). Every
// command that takes a version reads it through this one parser, so the spellings agree; files
// and case ids keep the name alone (parse_version).
constexpr std::optional<Version> parse_version_spelling(std::string_view text) {
  constexpr std::string_view kDraft = "draft-", kTransportAlpn = "moqt-";
  for (const VersionInfo& v : kVersions) {
    if (v.name == text || v.alpn == text) return v.version;
    if (v.family == Family::Transport && text.starts_with(kDraft) &&
        v.alpn.starts_with(kTransportAlpn) &&
        text.substr(kDraft.size()) == v.alpn.substr(kTransportAlpn.size()))
      return v.version;
  }
  return std::nullopt;
}

}  // namespace moq
