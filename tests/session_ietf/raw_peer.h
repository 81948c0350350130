// A hand-driven moq-transport endpoint for tests: it speaks the wire through the codec
// (model/wire/ietf) over one side of a sim/memory pair, so a test can order, delay, corrupt or
// replay what a session receives (data before SUBSCRIBE_OK, data for a cancelled alias,
// malformed messages).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/base/codec.h"
#include "model/transport.h"
#include "model/wire/ietf/control.h"
#include "model/wire/ietf/data.h"

namespace moq::session::testing {

namespace w = ::moq::wire::ietf;

// Writes bytes to a stream; the test's streams have room (default windows).
inline void write_bytes(SendStream& s, std::span<const uint8_t> bytes) {
  BufChain chain;
  chain.push(Bytes::copy(bytes));
  Result<size_t> r = s.write(chain);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(chain.empty());
}

template <class M>
std::vector<uint8_t> frame_message(const M& m, w::IetfVersion v) {
  std::vector<uint8_t> out;
  Writer wr(out, w::kVarint);
  Status st = w::encode_message(wr, m, v);
  EXPECT_TRUE(st) << st.error().message;
  return out;
}

template <class M>
void send_message(SendStream& s, const M& m, w::IetfVersion v) {
  write_bytes(s, frame_message(m, v));
}

// Accumulates what a stream delivers and decodes whole messages from it.
class MessageStream {
 public:
  MessageStream() = default;
  explicit MessageStream(RecvStream* s) : s_(s) {}
  void reset(RecvStream* s) {
    s_ = s;
    buf_.clear();
    fin_ = false;
  }
  // Reads what is available. Returns the status that stopped reading.
  ReadStatus pump() {
    for (;;) {
      Bytes c;
      ReadResult r = s_->read(c);
      if (r.status == ReadStatus::Data) {
        buf_.insert(buf_.end(), c.data(), c.data() + c.size());
        continue;
      }
      if (r.status == ReadStatus::Fin) fin_ = true;
      return r.status;
    }
  }
  std::optional<w::ControlMessage> next(w::IetfVersion v) {
    pump();
    Decoded<w::ControlMessage> d = w::decode_control(buf_, v);
    if (d.status != DecodeStatus::Ok) return std::nullopt;
    buf_.erase(buf_.begin(), buf_.begin() + static_cast<ptrdiff_t>(d.consumed));
    return std::move(d.value);
  }
  std::vector<uint8_t>& bytes() { return buf_; }
  bool fin() const { return fin_; }

 private:
  RecvStream* s_ = nullptr;
  std::vector<uint8_t> buf_;
  bool fin_ = false;
};

struct RawRequest {
  BidiStream stream;
  MessageStream in;
};

class RawPeer {
 public:
  RawPeer(Connection& conn, w::IetfVersion v) : conn_(conn), v_(v) {}
  w::IetfVersion v() const { return v_; }

  // Opens the control stream and sends SETUP.
  void setup() {
    auto s = conn_.open_uni();
    ASSERT_TRUE(s && *s);
    control_ = std::move(*s);
    send_message(*control_, w::Setup{}, v_);
  }
  SendStream& control() { return *control_; }

  // The next request stream the session opened, with its first message.
  std::optional<RawRequest> accept_request() {
    auto b = conn_.accept_bidi();
    if (!b || !*b) return std::nullopt;
    RawRequest r{std::move(*b), MessageStream()};
    r.in.reset(r.stream.recv.get());
    return r;
  }
  RawRequest open_request() {
    auto b = conn_.open_bidi();
    EXPECT_TRUE(b && *b);
    RawRequest r{std::move(*b), MessageStream()};
    r.in.reset(r.stream.recv.get());
    return r;
  }
  // Every uni stream the session opened so far (its control stream included).
  std::vector<RecvStreamPtr> accept_unis() {
    std::vector<RecvStreamPtr> out;
    for (;;) {
      auto u = conn_.accept_uni();
      if (!u || !*u) return out;
      out.push_back(std::move(*u));
    }
  }

  // A subgroup stream: header (type 0x78 style: subgroup 0, default priority, first object)
  // and n objects with the given payload bytes; FIN when finish.
  SendStreamPtr subgroup(uint64_t alias, uint64_t group, size_t n, bool finish,
                         uint8_t fill = 0x5a) {
    auto s = conn_.open_uni();
    EXPECT_TRUE(s && *s);
    SendStreamPtr out = std::move(*s);
    write_bytes(*out, subgroup_bytes(alias, group, n, fill));
    if (finish) {
      EXPECT_TRUE(out->finish());
    }
    return out;
  }
  static std::vector<uint8_t> subgroup_bytes(uint64_t alias, uint64_t group, size_t n,
                                             uint8_t fill) {
    w::SubgroupHeader h;
    h.track_alias = alias;
    h.group_id = group;
    h.default_priority = true;
    h.end_of_group = true;
    h.first_object = true;
    std::vector<uint8_t> bytes(w::kMaxSubgroupHeaderSize);
    bytes.resize(w::encode_subgroup_header(h, bytes.data()));
    w::SubgroupStreamState st;
    for (size_t i = 0; i < n; ++i) {
      uint8_t hdr[w::kMaxSubgroupObjectHeaderSize];
      const size_t k = w::encode_subgroup_object(st, h, i, {}, 3, w::ObjectStatus::Normal, hdr);
      bytes.insert(bytes.end(), hdr, hdr + k);
      for (int j = 0; j < 3; ++j)
        bytes.push_back(static_cast<uint8_t>(fill + i));
    }
    return bytes;
  }

 private:
  Connection& conn_;
  w::IetfVersion v_;
  SendStreamPtr control_;
};

}  // namespace moq::session::testing
