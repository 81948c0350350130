// A type-erased table of every moq-lite decoder, with its valid seed encodings and a re-encode
// check, so that the strict-length and fuzz tests can treat all messages alike.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tests/wire_lite/samples.h"
#include "tests/wire_lite/test_support.h"

namespace moq::wire::lite::test {

struct Outcome {
  DecodeStatus status;
  size_t consumed;
  size_t needed;
  std::string error;
  uint64_t code;
};

template <class R>
Outcome outcome_of(const R& r) {
  return {r.status, r.consumed, r.needed, r.error.message, r.error.code};
}

enum class Framing {
  Sized,     // Message Length, Body
  Typed,     // Type, Message Length, Body
  Unframed,  // no length of its own (FRAME header, stream type)
  Datagram,  // a whole datagram: never NeedMore
};

struct Codec {
  std::string family;              // fuzzing budget is per family
  std::vector<std::string> names;  // message names an error may start with
  Framing framing;
  std::function<Outcome(std::span<const uint8_t>, LiteVersion)> decode;
  // Run on input that decoded Ok: re-encodes the value and decodes it again. Returns "" when the
  // value survives, else what went wrong.
  std::function<std::string(std::span<const uint8_t>, LiteVersion)> reencode;
  std::function<std::vector<Buf>(LiteVersion)> seeds;
};

template <class M>
std::string reencode_message(std::span<const uint8_t> in, LiteVersion v) {
  const auto first = M::decode(in, v);
  Buf out;
  Writer w(out, varint_form(v));
  const Status s = first.value.encode(w, v);
  if constexpr (requires { first.value.check(); }) {
    // Values that break a rule the session answers with a stream reset decode, but encode
    // refuses them.
    if (!first.value.check().ok()) return s.ok() ? "encode accepted a value check() refuses" : "";
  }
  if (!s.ok()) return "encode failed: " + s.error().message;
  const auto second = M::decode(out, v);
  if (!second.ok()) return "re-decode failed: " + second.error.message;
  if (second.consumed != out.size()) return "re-decode consumed a different size";
  if (!(second.value == first.value)) return "re-decoded value differs";
  return "";
}

template <class M>
Codec message_codec(std::string family, std::vector<M> (*samples)(LiteVersion)) {
  return {std::move(family),
          {M::kName},
          Framing::Sized,
          [](std::span<const uint8_t> in, LiteVersion v) { return outcome_of(M::decode(in, v)); },
          reencode_message<M>,
          [samples](LiteVersion v) {
            std::vector<Buf> out;
            for (const auto& m : samples(v)) {
              Buf b;
              Writer w(b, varint_form(v));
              if (m.encode(w, v).ok()) out.push_back(std::move(b));
            }
            return out;
          }};
}

template <class Variant>
Codec typed_codec(std::string family, std::vector<std::string> names,
                  Decoded<Variant> (*decode)(std::span<const uint8_t>, LiteVersion),
                  Status (*encode)(const Variant&, Writer&, LiteVersion),
                  std::vector<Variant> (*samples)(LiteVersion)) {
  return {
      std::move(family),
      std::move(names),
      Framing::Typed,
      [decode](std::span<const uint8_t> in, LiteVersion v) { return outcome_of(decode(in, v)); },
      [decode, encode](std::span<const uint8_t> in, LiteVersion v) -> std::string {
        const auto first = decode(in, v);
        Buf out;
        Writer w(out, varint_form(v));
        const Status s = encode(first.value, w, v);
        if (!s.ok()) return "encode failed: " + s.error().message;
        const auto second = decode(out, v);
        if (!second.ok()) return "re-decode failed: " + second.error.message;
        if (second.consumed != out.size()) return "re-decode consumed a different size";
        if (!(second.value == first.value)) return "re-decoded value differs";
        return "";
      },
      [encode, samples](LiteVersion v) {
        std::vector<Buf> out;
        for (const auto& m : samples(v)) {
          Buf b;
          Writer w(b, varint_form(v));
          if (encode(m, w, v).ok()) out.push_back(std::move(b));
        }
        return out;
      }};
}

inline Codec group_codec() {
  return {"GROUP",
          {"GROUP"},
          Framing::Sized,
          [](std::span<const uint8_t> in, LiteVersion v) {
            return outcome_of(decode_group_header(in, v));
          },
          [](std::span<const uint8_t> in, LiteVersion v) -> std::string {
            const auto first = decode_group_header(in, v);
            uint8_t buf[kMaxGroupHeaderSize];
            const size_t n = encode_group_header(first.value, v, buf);
            if (n == 0) return "encode refused a decoded GROUP";
            const auto second = decode_group_header({buf, n}, v);
            if (!second.ok() || second.consumed != n || !(second.value == first.value)) {
              return "GROUP does not survive re-encoding";
            }
            return "";
          },
          [](LiteVersion v) {
            std::vector<Buf> out;
            for (const auto& h : group_samples(v)) {
              uint8_t buf[kMaxGroupHeaderSize];
              out.emplace_back(buf, buf + encode_group_header(h, v, buf));
            }
            return out;
          }};
}

inline Codec frame_codec() {
  return {"GROUP",
          {"FRAME"},
          Framing::Unframed,
          [](std::span<const uint8_t> in, LiteVersion v) {
            return outcome_of(decode_frame_header(in, v));
          },
          [](std::span<const uint8_t> in, LiteVersion v) -> std::string {
            const auto first = decode_frame_header(in, v);
            uint8_t buf[kMaxFrameHeaderSize];
            const size_t n =
                encode_frame_header(first.value.timestamp_delta, first.value.payload_size, v, buf);
            if (n == 0) return "encode refused a decoded FRAME header";
            const auto second = decode_frame_header({buf, n}, v);
            if (!second.ok() || second.consumed != n || !(second.value == first.value)) {
              return "FRAME header does not survive re-encoding";
            }
            return "";
          },
          [](LiteVersion v) {
            std::vector<Buf> out;
            for (const auto& f : frame_samples(v)) {
              uint8_t buf[kMaxFrameHeaderSize];
              Buf b(buf, buf + encode_frame_header(f.timestamp_delta, f.payload_size, v, buf));
              b.insert(b.end(), {'a', 'b', 'c'});  // payload bytes after the header
              out.push_back(std::move(b));
            }
            return out;
          }};
}

inline Codec datagram_codec() {
  return {
      "DATAGRAM",
      {"DATAGRAM"},
      Framing::Datagram,
      [](std::span<const uint8_t> in, LiteVersion v) { return outcome_of(decode_datagram(in, v)); },
      [](std::span<const uint8_t> in, LiteVersion v) -> std::string {
        const auto first = decode_datagram(in, v);
        uint8_t buf[kMaxDatagramHeaderSize];
        const size_t payload = in.size() - first.consumed;
        const size_t n = encode_datagram_header(first.value, payload, v, buf);
        if (n == 0) return "encode refused a decoded DATAGRAM";
        Buf d(buf, buf + n);
        d.insert(d.end(), in.begin() + static_cast<std::ptrdiff_t>(first.consumed), in.end());
        const auto second = decode_datagram(d, v);
        if (!second.ok() || second.consumed != n || !(second.value == first.value)) {
          return "DATAGRAM does not survive re-encoding";
        }
        return "";
      },
      [](LiteVersion v) {
        std::vector<Buf> out;
        for (const auto& h : datagram_samples(v)) {
          uint8_t buf[kMaxDatagramHeaderSize];
          Buf b(buf, buf + encode_datagram_header(h, 2, v, buf));
          b.insert(b.end(), {'h', 'i'});
          out.push_back(std::move(b));
        }
        return out;
      }};
}

inline Codec stream_type_codec() {
  return {
      "stream type",
      {"stream type"},
      Framing::Unframed,
      [](std::span<const uint8_t> in, LiteVersion v) {
        const auto r = decode_stream_type(in, v);
        if (r.ok()) {
          // Classifying any value must be total (no crash) and consistent.
          (void)bidi_stream_from_type(r.value, v);
          (void)uni_stream_from_type(r.value, v);
        }
        return outcome_of(r);
      },
      [](std::span<const uint8_t> in, LiteVersion v) -> std::string {
        const auto r = decode_stream_type(in, v);
        const Buf again = varint_bytes(r.value, varint_form(v));
        const auto second = decode_stream_type(again, v);
        return second.ok() && second.value == r.value ? "" : "stream type does not survive";
      },
      [](LiteVersion) { return std::vector<Buf>{{0x00}, {0x01}, {0x02}, {0x06}, {0x07}, {0x3f}}; }};
}

inline std::vector<Codec> all_codecs() {
  return {
      message_codec<SetupMessage>("SETUP", setup_samples),
      message_codec<Subscribe>("SUBSCRIBE", subscribe_samples),
      message_codec<SubscribeUpdate>("SUBSCRIBE", subscribe_update_samples),
      typed_codec<SubscribeReply>(
          "SUBSCRIBE", {"SUBSCRIBE reply", "SUBSCRIBE_OK", "SUBSCRIBE_END", "SUBSCRIBE_DROP"},
          decode_subscribe_reply, encode_subscribe_reply, subscribe_reply_samples),
      message_codec<Track>("TRACK", track_samples),
      message_codec<TrackInfo>("TRACK", track_info_samples),
      message_codec<Fetch>("FETCH", fetch_samples),
      message_codec<Probe>("PROBE", probe_samples),
      message_codec<Goaway>("GOAWAY", goaway_samples),
      message_codec<AnnounceRequest>("ANNOUNCE", announce_request_samples),
      message_codec<AnnounceOk>("ANNOUNCE", announce_ok_samples),
      typed_codec<AnnounceMessage>(
          "ANNOUNCE", {"ANNOUNCE message", "ANNOUNCE_START", "ANNOUNCE_END", "ANNOUNCE_UPDATE"},
          decode_announce_message, encode_announce_message, announce_message_samples),
      message_codec<Auth>("AUTH", auth_samples),
      typed_codec<AuthReply>("AUTH", {"AUTH reply", "AUTH_OK", "AUTH_ERROR"}, decode_auth_reply,
                             encode_auth_reply, auth_reply_samples),
      group_codec(),
      frame_codec(),
      datagram_codec(),
      stream_type_codec(),
  };
}

// Where the Message Length of a valid Sized or Typed encoding starts.
inline size_t length_offset(const Codec& c, const Buf& valid, LiteVersion v) {
  if (c.framing != Framing::Typed) return 0;
  return decode_varint(valid, varint_form(v)).length;
}

}  // namespace moq::wire::lite::test
