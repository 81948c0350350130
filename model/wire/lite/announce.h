// The Announce stream (bidi 0x1, draft-lcurley-moq-lite-06).
//   subscriber: ANNOUNCE_REQUEST
//   publisher:  ANNOUNCE_OK (Length + Body, exactly once, first), then typed messages, each
//               Type (i) + Length (i) + Body: 0x0 ANNOUNCE_START, 0x1 ANNOUNCE_END,
//               0x2 ANNOUNCE_UPDATE.
// Our -07-wip uses these -06 layouts (no epoch, no compression, no RESTART: see version.h).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <variant>

#include "model/base/codec.h"
#include "model/base/decoded.h"
#include "model/base/result.h"
#include "model/wire/lite/limits.h"
#include "model/wire/lite/version.h"

namespace moq::wire::lite {

// A hop list of at most kMaxHops IDs, stored inline (no allocation). A non-zero ID repeated in one
// list is Malformed on decode and refused on encode.
class HopList {
 public:
  HopList() = default;
  // Entries past kMaxHops are dropped (push_back refuses them).
  HopList(std::initializer_list<uint64_t> ids) {
    for (uint64_t id : ids)
      push_back(id);
  }

  // False (and nothing added) when the list is full.
  bool push_back(uint64_t id) {
    if (size_ == kMaxHops) return false;
    ids_[size_++] = id;
    return true;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint64_t operator[](size_t i) const { return ids_[i]; }
  const uint64_t* begin() const { return ids_.data(); }
  const uint64_t* end() const { return ids_.data() + size_; }
  bool contains(uint64_t id) const;
  // The first non-zero ID that appears twice, or 0.
  uint64_t repeated_id() const;

  bool operator==(const HopList& o) const;

 private:
  std::array<uint64_t, kMaxHops> ids_{};
  uint8_t size_ = 0;
};

// ANNOUNCE_REQUEST { Length, Broadcast Path Prefix (s), [Hidden (8 bool), -07 only] }
struct AnnounceRequest {
  static constexpr const char* kName = "ANNOUNCE_REQUEST";

  std::string prefix;
  // has_hidden_flag(): also announce routes with a path segment starting with '.'. Always false
  // when decoded on -06; encoding true on -06 is an error.
  bool hidden = false;

  Status encode(Writer& w, LiteVersion v) const;
  static Decoded<AnnounceRequest> decode(std::span<const uint8_t> in, LiteVersion v);
  bool operator==(const AnnounceRequest&) const = default;
};

// ANNOUNCE_OK { Length, Hop ID (i), Active Count (i) }
struct AnnounceOk {
  static constexpr const char* kName = "ANNOUNCE_OK";

  uint64_t hop_id = 0;        // the publisher's own ID, the implicit last hop; 0 = unknown
  uint64_t active_count = 0;  // ANNOUNCE_STARTs in the initial snapshot

  Status encode(Writer& w, LiteVersion v) const;
  static Decoded<AnnounceOk> decode(std::span<const uint8_t> in, LiteVersion v);
  bool operator==(const AnnounceOk&) const = default;
};

// Type 0x0 ANNOUNCE_START { Route Prefix Suffix (s), Hop Count (i), Hop ID (i) x Count,
//                           Warm Route Cost (i), Cold Route Cost (i) }
// Takes the next Announce ID of the stream implicitly (0, 1, 2, ...).
struct AnnounceStart {
  static constexpr const char* kName = "ANNOUNCE_START";
  static constexpr uint64_t kType = 0x0;

  std::string suffix;  // joined to the request prefix; empty = the route is the prefix itself
  HopList hops;
  uint64_t warm_cost = 0;
  uint64_t cold_cost = 0;

  // Writes Type, Length and Body.
  Status encode(Writer& w, LiteVersion v) const;
  bool operator==(const AnnounceStart&) const = default;
};

// Type 0x1 ANNOUNCE_END { Announce ID (i) }
struct AnnounceEnd {
  static constexpr const char* kName = "ANNOUNCE_END";
  static constexpr uint64_t kType = 0x1;

  uint64_t id = 0;

  Status encode(Writer& w, LiteVersion v) const;
  bool operator==(const AnnounceEnd&) const = default;
};

// Type 0x2 ANNOUNCE_UPDATE { Announce ID (i), Hop Count (i), Hop ID (i) x Count,
//                            Warm Route Cost (i), Cold Route Cost (i) }
struct AnnounceUpdate {
  static constexpr const char* kName = "ANNOUNCE_UPDATE";
  static constexpr uint64_t kType = 0x2;

  uint64_t id = 0;
  HopList hops;
  uint64_t warm_cost = 0;
  uint64_t cold_cost = 0;

  Status encode(Writer& w, LiteVersion v) const;
  bool operator==(const AnnounceUpdate&) const = default;
};

using AnnounceMessage = std::variant<AnnounceStart, AnnounceEnd, AnnounceUpdate>;

// Decodes one typed announce message; an unknown type is Malformed.
Decoded<AnnounceMessage> decode_announce_message(std::span<const uint8_t> in, LiteVersion v);
Status encode_announce_message(const AnnounceMessage& m, Writer& w, LiteVersion v);

}  // namespace moq::wire::lite
