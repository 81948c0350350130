// Sample messages for round trips and as fuzzing seeds: ordinary values plus the edges of each
// version (0, the largest varint, opt+1 at its largest, empty and long strings).
#pragma once

#include <string>
#include <vector>

#include "model/wire/lite/messages.h"

namespace moq::wire::lite::test {

// A long UTF-8 string with multi-byte characters (its length needs a multi-byte varint).
inline std::string long_text(size_t approx_bytes) {
  std::string s;
  const std::string piece = "seg\xC3\xA9/\xE6\x97\xA5\xF0\x9F\x8E\xA5";  // "segé/日🎥"
  while (s.size() < approx_bytes)
    s += piece;
  return s;
}

inline uint64_t vmax(LiteVersion v) {
  return max_varint(v);
}

inline std::vector<SetupMessage> setup_samples(LiteVersion v) {
  std::vector<SetupMessage> out;
  out.push_back({});
  SetupMessage all;
  all.probe = 2;
  all.path = "/demo?x=1";
  all.role = 1;
  all.cost = 0;
  all.hop = 0x1234;
  out.push_back(all);
  SetupMessage edge;
  edge.probe = vmax(v);
  edge.path = "";
  edge.role = 99;
  edge.cost = vmax(v);
  edge.hop = vmax(v);
  out.push_back(edge);
  SetupMessage long_path;
  long_path.path = long_text(20000);
  out.push_back(long_path);
  return out;
}

inline std::vector<SubscribeOptions> option_samples(LiteVersion v) {
  return {
      {},
      {1, 2000, 0, std::nullopt, 0, std::nullopt},
      {255, vmax(v), vmax(v), vmax(v) - 1, vmax(v), vmax(v) - 1},
      {7, 0, 5, 9, 3, 0},
      {0, 1, 63, 63, 64, 64},
  };
}

inline std::vector<Subscribe> subscribe_samples(LiteVersion v) {
  std::vector<Subscribe> out;
  uint64_t id = 0;
  for (const auto& o : option_samples(v)) {
    out.push_back({id, "demo", "video", o});
    id = id == 0 ? vmax(v) : id / 3;
  }
  out.push_back({0, "", "", {}});
  out.push_back({12345, long_text(70000), long_text(300), {}});
  return out;
}

inline std::vector<SubscribeUpdate> subscribe_update_samples(LiteVersion v) {
  std::vector<SubscribeUpdate> out;
  for (const auto& o : option_samples(v))
    out.push_back({o});
  return out;
}

inline std::vector<SubscribeReply> subscribe_reply_samples(LiteVersion v) {
  std::vector<SubscribeReply> out = {SubscribeOk{0}, SubscribeOk{5}, SubscribeOk{vmax(v)},
                                     SubscribeEnd{0, 0}, SubscribeEnd{vmax(v), 0}};
  if (subscribe_end_has_stream_count(v)) {
    out.push_back(SubscribeEnd{7, 3});
    out.push_back(SubscribeEnd{vmax(v), vmax(v)});
  }
  if (has_subscribe_drop(v)) {
    out.push_back(SubscribeDrop{0, 0, 0});
    out.push_back(SubscribeDrop{3, 9, 0x33});
    out.push_back(SubscribeDrop{vmax(v), vmax(v), vmax(v)});
  }
  return out;
}

inline std::vector<Track> track_samples(LiteVersion) {
  return {{"demo", "video"}, {"", ""}, {long_text(5000), "audio"}, {"a/b/c", long_text(200)}};
}

inline std::vector<TrackInfo> track_info_samples(LiteVersion v) {
  std::vector<TrackInfo> out = {{0, std::nullopt, 1000},
                                {255, 0, 90000},
                                {3, 30000, 48000},
                                {1, kLite06MaxAgeNoLimit - 1, vmax(v)}};
  if (max_age_is_opt_plus_one(v)) out.push_back({9, vmax(v) - 1, 1});
  return out;
}

inline std::vector<Fetch> fetch_samples(LiteVersion v) {
  return {{"demo", "video", 1, 5, 0, std::nullopt},
          {"", "", 0, 0, 0, 0},
          {"x", long_text(1000), 255, vmax(v), vmax(v) - 1, vmax(v) - 1},
          {"a/b", "c", 7, 9, 3, 10}};
}

inline std::vector<Probe> probe_samples(LiteVersion v) {
  return {{0, 0}, {2500000, 30}, {vmax(v), vmax(v)}, {63, 64}};
}

inline std::vector<Goaway> goaway_samples(LiteVersion) {
  return {{""}, {"https://relay.example/moq"}, {std::string(kMaxReasonLength, 'u')}};
}

inline HopList full_hops(uint64_t first) {
  HopList h;
  for (uint64_t i = 0; i < kMaxHops; ++i)
    h.push_back(first + i);
  return h;
}

inline std::vector<AnnounceRequest> announce_request_samples(LiteVersion v) {
  std::vector<AnnounceRequest> out = {{"", false}, {"demo", false}, {long_text(3000), false}};
  if (has_hidden_flag(v)) out.push_back({"room/.private", true});
  return out;
}

inline std::vector<AnnounceOk> announce_ok_samples(LiteVersion v) {
  return {{0, 0}, {4660, 1}, {vmax(v), vmax(v)}};
}

inline std::vector<AnnounceMessage> announce_message_samples(LiteVersion v) {
  return {AnnounceStart{"demo", {}, 0, 0},
          AnnounceStart{"demo", {7}, 0, 2},
          AnnounceStart{"", {0, 0, 5, 0}, 1, 1},
          AnnounceStart{long_text(400), full_hops(vmax(v) - kMaxHops), vmax(v), vmax(v)},
          AnnounceEnd{0},
          AnnounceEnd{vmax(v)},
          AnnounceUpdate{0, {}, 5, 5},
          AnnounceUpdate{vmax(v), full_hops(1), 0, vmax(v)}};
}

inline std::vector<Auth> auth_samples(LiteVersion) {
  return {{}, {{1, 2, 3}}, {std::vector<uint8_t>(5000, 0xEE)}};
}

inline std::vector<AuthReply> auth_reply_samples(LiteVersion v) {
  return {AuthOk{{}, {}, 0},
          AuthOk{{"demo/**", "*"}, {""}, 1000},
          AuthOk{{long_text(300)}, {"a", "b", "c"}, vmax(v)},
          AuthError{0x2, "token expired"},
          AuthError{vmax(v), ""},
          AuthError{0x3, std::string(kMaxReasonLength, 'r')}};
}

inline std::vector<GroupHeader> group_samples(LiteVersion v) {
  return {{0, 0, 0}, {0, 5, 0}, {vmax(v), vmax(v), vmax(v)}, {1, 63, 64}};
}

inline std::vector<FrameHeader> frame_samples(LiteVersion) {
  return {{0, 0},
          {1000, 3},
          {-5, 0},
          {kMinTimestampDelta, kMaxMessageLength},
          {kMaxTimestampDelta, 1},
          {-1, 1200}};
}

inline std::vector<DatagramHeader> datagram_samples(LiteVersion v) {
  return {{0, 5, 1000}, {0, 0, 0}, {vmax(v), vmax(v), vmax(v)}};
}

}  // namespace moq::wire::lite::test
