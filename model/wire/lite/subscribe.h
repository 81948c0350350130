// The Subscribe stream (bidi 0x2, draft-lcurley-moq-lite-06).
//   subscriber: SUBSCRIBE, then any number of SUBSCRIBE_UPDATE (each Length + Body)
//   publisher:  typed replies, each Type (i) + Length (i) + Body:
//               0x0 SUBSCRIBE_OK, 0x1 SUBSCRIBE_END, 0x2 SUBSCRIBE_DROP (-06 only)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>

#include "model/base/codec.h"
#include "model/base/decoded.h"
#include "model/base/result.h"
#include "model/wire/lite/version.h"

namespace moq::wire::lite {

// The fields SUBSCRIBE and SUBSCRIBE_UPDATE share; an update replaces all of them.
struct SubscribeOptions {
  uint8_t priority = 0;               // Subscriber Priority: higher goes first under congestion
  uint64_t max_age_ms = 0;            // Subscriber Max Age: 0 = only the live edge
  uint64_t group_start = 0;           // raw absolute floor
  std::optional<uint64_t> group_end;  // inclusive; wire opt+1, nullopt = unbounded
  uint64_t frame_start = 0;           // raw frame index within the Group Start group
  std::optional<uint64_t> frame_end;  // inclusive, within the end group; wire opt+1

  // -06 and our -07-wip have no live flag: Group Start 0 with Frame Start 0 means live (see
  // subscribe_has_live_flag()); a genuine floor at (0, 0) cannot be expressed.
  bool live() const { return group_start == 0 && frame_start == 0; }

  // The frame rule a single message can break: Frame End must be absent when Group End is. The
  // spec answers a violation with a stream reset (not a session close), so decode accepts it and
  // the publisher calls this; encode refuses it. (The other rule, Frame Start 0 when the
  // subscriber has seen no group, needs session state.)
  Status check(const char* message) const;

  bool operator==(const SubscribeOptions&) const = default;
};

// SUBSCRIBE { Length, Subscribe ID (i), Broadcast Path (s), Track Name (s), Priority (8),
//             Max Age (i), Group Start (i), Group End (i), Frame Start (i), Frame End (i) }
struct Subscribe {
  static constexpr const char* kName = "SUBSCRIBE";

  uint64_t id = 0;  // unique for the session, never reused; GROUP headers carry it
  std::string broadcast;
  std::string track;
  SubscribeOptions options;

  Status check() const { return options.check(kName); }
  Status encode(Writer& w, LiteVersion v) const;
  static Decoded<Subscribe> decode(std::span<const uint8_t> in, LiteVersion v);
  bool operator==(const Subscribe&) const = default;
};

// SUBSCRIBE_UPDATE { Length, Priority (8), Max Age (i), Group Start (i), Group End (i),
//                    Frame Start (i), Frame End (i) }
struct SubscribeUpdate {
  static constexpr const char* kName = "SUBSCRIBE_UPDATE";

  SubscribeOptions options;

  Status check() const { return options.check(kName); }
  Status encode(Writer& w, LiteVersion v) const;
  static Decoded<SubscribeUpdate> decode(std::span<const uint8_t> in, LiteVersion v);
  bool operator==(const SubscribeUpdate&) const = default;
};

// Type 0x0 SUBSCRIBE_OK { Group (i) }: the first group that will be delivered.
struct SubscribeOk {
  static constexpr const char* kName = "SUBSCRIBE_OK";
  static constexpr uint64_t kType = 0x0;

  uint64_t group = 0;

  // Writes Type, Length and Body.
  Status encode(Writer& w, LiteVersion v) const;
  bool operator==(const SubscribeOk&) const = default;
};

// Type 0x1 SUBSCRIBE_END { Group (i) } on -06; { Group (i), Stream Count (i) } on -07
// (subscribe_end_has_stream_count()). Group is the exclusive end.
struct SubscribeEnd {
  static constexpr const char* kName = "SUBSCRIBE_END";
  static constexpr uint64_t kType = 0x1;

  uint64_t group = 0;
  // Group streams the publisher opened for the subscription (-07). Always 0 when decoded on -06;
  // encoding a non-zero count on -06 is an error rather than a silent loss.
  uint64_t stream_count = 0;

  Status encode(Writer& w, LiteVersion v) const;
  bool operator==(const SubscribeEnd&) const = default;
};

// Type 0x2 SUBSCRIBE_DROP { Group Start (i), Group End (i), Error Code (i) } (-06 only,
// has_subscribe_drop()): an inclusive range of groups that will not be delivered; code 0 means
// simply unavailable.
struct SubscribeDrop {
  static constexpr const char* kName = "SUBSCRIBE_DROP";
  static constexpr uint64_t kType = 0x2;

  uint64_t group_start = 0;
  uint64_t group_end = 0;
  uint64_t error_code = 0;

  Status encode(Writer& w, LiteVersion v) const;
  bool operator==(const SubscribeDrop&) const = default;
};

using SubscribeReply = std::variant<SubscribeOk, SubscribeEnd, SubscribeDrop>;

// Decodes one typed reply. A type the version does not define (0x2 on -07, anything >= 0x3) is
// Malformed.
Decoded<SubscribeReply> decode_subscribe_reply(std::span<const uint8_t> in, LiteVersion v);
Status encode_subscribe_reply(const SubscribeReply& reply, Writer& w, LiteVersion v);

}  // namespace moq::wire::lite
