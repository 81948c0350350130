// Shared field encodings of moq-transport (draft-ietf-moq-transport, data types): Location, Track
// Namespace and Track Name, Key-Value-Pairs (Setup Options, Track Properties), the Token carried by
// AUTHORIZATION_TOKEN, Reason Phrase and the REQUEST_ERROR Redirect structure.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

#include "model/base/codec.h"
#include "model/base/result.h"
#include "model/wire/ietf/codes.h"

namespace moq::wire::ietf {

// ---- Location (2.5): ordered by (group, object) ----
struct Location {
  uint64_t group = 0;
  uint64_t object = 0;
  auto operator<=>(const Location&) const = default;
};
void encode_location(Writer& w, Location loc);
Location decode_location(Reader& r, const char* group_field, const char* object_field);

// ---- Track Namespace and Track Name (2.5) ----
inline constexpr size_t kMaxNamespaceFields = 32;
inline constexpr size_t kMaxFullTrackNameLength = 4096;
inline constexpr size_t kMaxReasonPhraseLength = 1024;
inline constexpr size_t kMaxGoawayUriLength = 8192;
inline constexpr size_t kMaxKvpValueLength = 65535;
inline constexpr size_t kMaxControlBodyLength = 65535;

// 0 to 32 fields, each at least one byte; fields plus track name at most 4096 bytes.
struct TrackNamespace {
  std::vector<std::string> fields;
  bool operator==(const TrackNamespace&) const = default;
  size_t byte_length() const;
};
void encode_namespace(Writer& w, const TrackNamespace& ns);
// Reads and checks a namespace; `field` names it in errors ("track namespace", "prefix").
TrackNamespace decode_namespace(Reader& r, const char* field);
// The same into out, whose fields keep their capacity (a message decoded into a reused one).
void decode_namespace(Reader& r, const char* field, TrackNamespace& out);
// Reads a Track Name and checks the Full Track Name limit against the namespace already read.
std::string decode_track_name(Reader& r, const TrackNamespace& ns);
// Encode-side checks of the same rules; message names the message in the error.
Status check_namespace(const TrackNamespace& ns, const char* message, const char* field);
Status check_full_track_name(const TrackNamespace& ns, const std::string& name,
                             const char* message);

// ---- Key-Value-Pairs (2.3) ----
// Even types carry one varint (`value`); odd types carry bytes (`bytes`, at most 65535).
struct KeyValuePair {
  uint64_t type = 0;
  uint64_t value = 0;
  std::string bytes;
  bool operator==(const KeyValuePair&) const = default;
  static KeyValuePair integer(uint64_t type, uint64_t v) { return {type, v, {}}; }
  static KeyValuePair data(uint64_t type, std::string b) { return {type, 0, std::move(b)}; }
};
using Properties = std::vector<KeyValuePair>;

// Writes entries in the given order with delta-coded types (entries must be in non-decreasing
// type order; check_kvps says so).
void encode_kvps(Writer& w, const std::vector<KeyValuePair>& kvps);
Status check_kvps(const std::vector<KeyValuePair>& kvps, const char* message, const char* field);
// Reads KVPs until the reader's end; `field` names the block in errors.
std::vector<KeyValuePair> decode_kvps_to_end(Reader& r, const char* field);
// Track Properties: decode_kvps_to_end plus the value rules of the known property types (7.5):
// DEFAULT_PUBLISHER_PRIORITY <= 255, DEFAULT_PUBLISHER_GROUP_ORDER in {1,2}, DYNAMIC_GROUPS <= 1,
// IMMUTABLE_PROPERTIES holding well-formed KVPs and no nested IMMUTABLE_PROPERTIES.
Properties decode_track_properties(Reader& r);
Status check_track_properties(const Properties& props, const char* message);

// ---- Token (2.6), the AUTHORIZATION_TOKEN value ----
struct Token {
  TokenAliasType alias_type = TokenAliasType::UseValue;
  uint64_t alias = 0;       // DELETE, REGISTER, USE_ALIAS
  uint64_t token_type = 0;  // REGISTER, USE_VALUE
  std::string value;        // REGISTER, USE_VALUE
  bool operator==(const Token&) const = default;
};
// The Token body (no outer length).
void encode_token(Writer& w, const Token& t);
// Reads a Token filling the whole reader; failures are KEY_VALUE_FORMATTING_ERROR.
Token decode_token(Reader& r);
Status check_token(const Token& t, const char* message);

// ---- Redirect (REQUEST_ERROR with code REDIRECT) ----
struct Redirect {
  std::string connect_uri;
  TrackNamespace track_namespace;
  std::string track_name;
  bool operator==(const Redirect&) const = default;
};
void encode_redirect(Writer& w, const Redirect& r);
Redirect decode_redirect(Reader& r);

}  // namespace moq::wire::ietf
