// The objects of subgroup and fetch streams, both directions: push_objects() writes a group's
// frames as object headers (from the codec, into the arena) and payload references;
// ObjectParser reads objects back into the frames of a data-model group.
//
// ObjectParser: the objects of a subgroup or fetch stream into the frames of a data-model group.
// A header is decoded by the codec from the front of the stream's input (one split across chunks
// goes through the input's stash); its payload is sliced out of the chunks by reference: the
// usual chunk that is exactly the payload is handed on whole, a larger one is sliced, and a
// payload split across chunks becomes one frame of several chunks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/base/buf_chain.h"
#include "model/base/bytes.h"
#include "model/base/decoded.h"
#include "model/base/result.h"
#include "model/data/group.h"
#include "model/session/core/stream_input.h"
#include "model/wire/ietf/data.h"

namespace moq::session::ietf {

class ObjectParser {
 public:
  enum class Stop : uint8_t { Blocked, Fin, Reset, Closed, Malformed };

  // What decode reports for one object header: the codec's outcome without its value. Trivially
  // copyable, so the per-object path keeps it in registers (the codec's Decoded<T> holds an
  // Error); outcome() keeps a Malformed one's error for error().
  struct Outcome {
    DecodeStatus status;
    size_t consumed;
  };
  template <class T>
  Outcome outcome(Decoded<T>&& d) {
    if (d.malformed()) error_ = std::move(d.error);
    return {d.status, d.consumed};
  }

  void clear() {
    left_ = 0;
    in_payload_ = false;
    parts_.clear();
    error_ = Error{};
  }
  // Parses objects until the input blocks or ends. decode(span, uint64_t& payload_length,
  // bool& is_frame) -> Outcome reads one object header (a status object or an End-of-Range
  // record carries no frame); emit(Bytes&&) and emit(std::span<const Bytes>) receive each
  // frame's payload, and must consume a Bytes (move it away, or reset it). frames counts emitted
  // frames.
  template <class Decode, class Emit>
  Stop run(core::StreamInput& in, Decode&& decode, Emit&& emit, uint64_t& frames);
  // A FIN now would cut an object short.
  bool mid_object(const core::StreamInput& in) const { return in_payload_ || in.has_partial(); }
  // Why run() stopped with Malformed: the codec's error (names the message and field).
  Error& error() { return error_; }

 private:
  // Payload bytes of the current object from the front of c.
  template <class Emit>
  void payload(Bytes& c, Emit& emit, uint64_t& frames);
  // Every object in c, which a vectored read handed over: Ok once c is consumed, NeedMore (c
  // untouched from the split header on) or Malformed.
  template <class Decode, class Emit>
  DecodeStatus parse_chunk(Bytes& c, Decode& decode, Emit& emit, uint64_t& frames,
                           ReleaseRun& read);
  // Why a read that brought no data stops run().
  static Stop stop_for(ReadStatus r) {
    switch (r) {
      case ReadStatus::WouldBlock:
        return Stop::Blocked;
      case ReadStatus::Fin:
        return Stop::Fin;
      case ReadStatus::Reset:
        return Stop::Reset;
      case ReadStatus::Data:  // not a stop; run() never asks
      case ReadStatus::Error:
        break;
    }
    return Stop::Closed;
  }
  // A decoded object header: a frame of length bytes follows (is_frame), or nothing does.
  template <class Emit>
  void header(uint64_t length, bool is_frame, Emit& emit, uint64_t& frames);

  uint64_t left_ = 0;
  bool in_payload_ = false;
  std::vector<Bytes> parts_;  // a payload split across chunks (rare)
  Error error_;
};

template <class Emit>
[[gnu::always_inline]] inline void ObjectParser::payload(Bytes& c, Emit& emit, uint64_t& frames) {
  if (parts_.empty() && c.size() == left_) {
    emit(std::move(c));  // the common case: the chunk is exactly the payload
  } else if (parts_.empty() && c.size() > left_) {
    emit(c.slice(0, left_));
    c.advance(left_);
  } else {
    const size_t take = c.size() < left_ ? c.size() : static_cast<size_t>(left_);
    parts_.push_back(c.slice(0, take));
    c.advance(take);
    left_ -= take;
    if (left_ > 0) return;
    emit(std::span<const Bytes>(parts_));
    parts_.clear();
  }
  in_payload_ = false;
  ++frames;
}

template <class Emit>
void ObjectParser::header(uint64_t length, bool is_frame, Emit& emit, uint64_t& frames) {
  if (!is_frame) return;
  if (length == 0) {
    emit(Bytes());
    ++frames;
    return;
  }
  left_ = length;
  in_payload_ = true;
}

template <class Decode, class Emit>
ObjectParser::Stop ObjectParser::run(core::StreamInput& in, Decode&& decode, Emit&& emit,
                                     uint64_t& frames) {
  bool split = false;  // a header in the front chunk continues in a later one
  for (;;) {
    if (split || in.decoding_partial()) [[unlikely]] {
      // One chunk at a time, through the input's stash, until the split header is whole.
      split = false;
      if (const ReadStatus r = in.fill(); r != ReadStatus::Data) return stop_for(r);
      Bytes& c = in.current();
      if (in_payload_) {
        payload(c, emit, frames);
        continue;
      }
      uint64_t length = 0;
      bool is_frame = false;
      const Outcome d =
          in.decode([&](std::span<const uint8_t> s) { return decode(s, length, is_frame); });
      if (d.status == DecodeStatus::NeedMore) continue;
      if (d.status == DecodeStatus::Malformed) [[unlikely]]
        return Stop::Malformed;
      header(length, is_frame, emit, frames);
      continue;
    }
    // Every chunk of a vectored read, parsed in place: headers decoded from the chunk itself,
    // payloads moved or sliced out of it.
    BufChain* chunks = nullptr;
    if (const ReadStatus r = in.chunks(chunks); r != ReadStatus::Data) return stop_for(r);
    const std::span<Bytes> cs = chunks->mutable_chunks();
    ReleaseRun read;  // the chunks that held only headers, given back per sender's block
    size_t k = 0;
    for (; k < cs.size(); ++k) {
      const DecodeStatus st = parse_chunk(cs[k], decode, emit, frames, read);
      if (st == DecodeStatus::Ok) [[likely]]
        continue;
      if (st == DecodeStatus::Malformed) {
        chunks->clear();
        return Stop::Malformed;
      }
      break;  // NeedMore: a header split over chunks
    }
    if (k == cs.size()) [[likely]] {
      chunks->clear();
    } else {
      chunks->drop_front_chunks(k);  // that chunk and the rest go one at a time
      split = true;
    }
  }
}

template <class Decode, class Emit>
DecodeStatus ObjectParser::parse_chunk(Bytes& c, Decode& decode, Emit& emit, uint64_t& frames,
                                       ReleaseRun& read) {
  while (!c.empty()) {
    if (in_payload_) {
      payload(c, emit, frames);
      continue;
    }
    uint64_t length = 0;
    bool is_frame = false;
    const Outcome d = decode(c.span(), length, is_frame);
    if (d.status != DecodeStatus::Ok) [[unlikely]]
      return d.status;
    c.advance(d.consumed);
    header(length, is_frame, emit, frames);
    if (c.empty()) read.take(c);
  }
  return DecodeStatus::Ok;
}

// emit() into a data-model group: one object's payload becomes a frame (moq-transport objects
// carry no timestamp). A frame the group refuses (closed, or over its size) is dropped: the
// group already says why it ended.
template <class Payload>
[[gnu::always_inline]] inline void append_object(GroupProducer& g, Payload&& payload) {
  if constexpr (std::is_same_v<Payload&&, Bytes&&>) {
    // Only an rvalue Bytes comes here (the if constexpr), so std::move does what std::forward
    // would; append() leaves a refused payload in place, released here (consumed either way).
    if (!g.append(0, std::move(payload)))  // NOLINT(bugprone-move-forwarding-reference)
      payload.reset();                     // NOLINT(bugprone-use-after-move)
  } else {
    (void)g.write_frame(0, payload);
  }
}

// The objects of a fetch stream that carries one group (a FETCH's, or a live subscription's
// join): emit(payload) per frame. outside becomes non-zero once an object of another group
// arrives (checked branch-free, so that the codec's inline result stays in registers); the
// caller then closes the session.
template <class Emit>
ObjectParser::Stop run_fetch_objects(ObjectParser& parser, core::StreamInput& in,
                                     wire::ietf::FetchStreamState& state, wire::ietf::IetfVersion v,
                                     uint64_t group, uint64_t& outside, Emit&& emit,
                                     uint64_t& frames) {
  return parser.run(
      in,
      [&](std::span<const uint8_t> bytes, uint64_t& length, bool& is_frame) {
        // The usual record: the next object of the state's group (the previous object's, or an
        // End-of-Range marker's), with no FetchObject built.
        if (const size_t n = wire::ietf::decode_next_fetch_object(bytes, state, length))
            [[likely]] {
          is_frame = true;
          outside |= state.group_id ^ group;
          return ObjectParser::Outcome{DecodeStatus::Ok, n};
        }
        Decoded<wire::ietf::FetchObject> d = wire::ietf::decode_fetch_object(bytes, state, v);
        length = d.value.payload_length;
        is_frame = d.value.kind == wire::ietf::FetchRecordKind::Object;  // a marker: no frame
        outside |= (d.value.group_id ^ group) & -uint64_t(d.ok() & is_frame);
        return parser.outcome(std::move(d));
      },
      std::forward<Emit>(emit), frames);
}

}  // namespace moq::session::ietf

namespace moq::session::ietf {

// Object headers written per arena reservation (the codec's longest header each); a run of the
// longest (fetch) headers fits one arena block.
inline constexpr size_t kRunObjects = 64;
inline constexpr size_t kMinRunObjects = 8;  // fewer than this: the run takes a fresh block
static_assert(kRunObjects * wire::ietf::kMaxFetchObjectHeaderSize <= 4096);

// Appends header + payload references for frames [from, to) of g to chain, encoding the headers
// of each run into one arena reservation. encode(i, out) writes frame i's header with the codec
// and returns its size (0: the codec refused it, a bug, not the peer's doing). Returns the
// index reached. Inlined where it is used: a sender wakes for a frame or two at a time, so a
// call per wake-up would cost more than the frames' own encoding.
template <class Encode>
[[gnu::always_inline]] inline size_t push_objects(ByteArena& arena, BufChain& chain,
                                                  const GroupConsumer& g, size_t from, size_t to,
                                                  size_t max_header, Encode&& encode) {
  uint16_t lengths[kRunObjects];
  size_t i = from;
  while (i < to) {
    size_t run = std::min(to - i, kRunObjects);
    // A run sized for the longest headers would leave most of a block behind (real headers are
    // a few bytes): while the current block has room for a run worth writing, fill it first.
    // The blocks a round holds then follow its bytes, not where the arena stood when it began,
    // so a later round does not need one block more than the first ones did.
    if (const size_t fit = arena.room() / max_header; fit >= kMinRunObjects && fit < run) run = fit;
    uint8_t* const base = arena.reserve(run * max_header);
    uint8_t* p = base;
    size_t k = 0;
    for (; k < run; ++k) {
      const size_t n = encode(i + k, p);
      if (n == 0) break;
      p += n;
      lengths[k] = static_cast<uint16_t>(n);
    }
    const Bytes headers = arena.commit(static_cast<size_t>(p - base));
    SliceCutter cut(headers, static_cast<uint32_t>(k));
    for (size_t j = 0; j < k; ++j) {
      chain.push(cut.next(lengths[j]));
      g.frame(i + j).append_to(chain);
    }
    i += k;
    if (k < run) break;
  }
  return i;
}

}  // namespace moq::session::ietf
