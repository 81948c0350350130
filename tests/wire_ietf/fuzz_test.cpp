// Random and mutated bytes into every decoder: at least 100,000 inputs per message family (each
// control message type, subgroup streams, fetch streams, datagrams), from a fixed-seed
// std::mt19937_64. Mutations: bit flips, truncation, insertion, deletion, length corruption,
// chunk duplication, byte overwrites and pure random bytes. For every input:
//   Ok        -> the message re-encodes (its check() passes) and decodes to the same value;
//   NeedMore  -> the input really is incomplete (control: shorter than its own frame);
//   Malformed -> the error text names the message (and the code is a session error code).
// ASan/UBSan catch crashes and leaks; every loop is bounded.
#include <gtest/gtest.h>

#include <random>

#include "tests/wire_ietf/test_util.h"

namespace moq::wire::ietf::test {
namespace {

#ifndef MOQ_IETF_FUZZ_INPUTS
#define MOQ_IETF_FUZZ_INPUTS 100000
#endif
constexpr int kInputsPerFamily = MOQ_IETF_FUZZ_INPUTS;
constexpr int kMaxReportedFailures = 5;

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}
  uint64_t next() { return rng_(); }
  size_t below(size_t n) { return n ? static_cast<size_t>(rng_() % n) : 0; }
  uint8_t byte() {
    // Bias towards bytes that matter to leading-ones varints and small counts.
    static constexpr uint8_t kInteresting[] = {0x00, 0x01, 0x02, 0x3f, 0x7f, 0x80, 0xbf, 0xc0,
                                               0xdf, 0xe0, 0xf0, 0xfe, 0xff, 0x21, 0x23, 0x25};
    return (rng_() & 3) == 0 ? kInteresting[rng_() % sizeof kInteresting]
                             : static_cast<uint8_t>(rng_());
  }

  // out = a mutation of seed. fix_length: the control framing's length is re-synchronised with
  // the mutated body half of the time, so body parsers see the damage.
  void mutate(const std::vector<uint8_t>& seed, std::vector<uint8_t>& out, bool control) {
    out = seed;
    const int op = static_cast<int>(below(9));
    if (op == 8) {
      for (size_t k = 0, n = 2 + below(3); k < n; ++k)
        apply(static_cast<int>(below(4)) * 2 % 8, out);  // stacked: flips, inserts, overwrites
    } else {
      apply(op, out);
    }
    if (control && op != 1 && op != 4 && (rng_() & 1)) fix_length(out);
  }

 private:
  void apply(int op, std::vector<uint8_t>& out) {
    switch (op) {
      case 0:  // bit flips
        for (size_t k = 0, n = 1 + below(3); k < n && !out.empty(); ++k)
          out[below(out.size())] ^= static_cast<uint8_t>(1u << below(8));
        break;
      case 1:  // truncation
        out.resize(below(out.size() + 1));
        break;
      case 2: {  // insertion
        const size_t at = below(out.size() + 1);
        const size_t n = 1 + below(8);
        for (size_t k = 0; k < n; ++k)
          out.insert(out.begin() + static_cast<std::ptrdiff_t>(at), byte());
        break;
      }
      case 3: {  // deletion
        if (out.empty()) break;
        const size_t at = below(out.size());
        const size_t n = 1 + below(std::min<size_t>(8, out.size() - at));
        out.erase(out.begin() + static_cast<std::ptrdiff_t>(at),
                  out.begin() + static_cast<std::ptrdiff_t>(at + n));
        break;
      }
      case 4: {  // length corruption: the control frame length, or a varint prefix made long
        const VarintDecode t = decode_varint(out, kVarint);
        if (t.status == DecodeStatus::Ok && out.size() >= t.length + 2u && (rng_() & 1)) {
          const size_t len = size_t{out[t.length]} << 8 | out[t.length + 1];
          const size_t v = (rng_() & 1) ? len + below(7) - 3 : below(65536);
          out[t.length] = static_cast<uint8_t>(v >> 8);
          out[t.length + 1] = static_cast<uint8_t>(v);
        } else if (!out.empty()) {
          static constexpr uint8_t kLong[] = {0x80, 0xc0, 0xe0, 0xf0, 0xfe, 0xff};
          out[below(out.size())] = kLong[below(sizeof kLong)];
        }
        break;
      }
      case 5:  // byte overwrite
        if (!out.empty()) out[below(out.size())] = byte();
        break;
      case 6: {  // pure random, keeping the type byte half of the time
        const uint8_t first = out.empty() ? 0 : out[0];
        out.resize(below(48));
        for (auto& b : out)
          b = byte();
        if (!out.empty() && (rng_() & 1)) out[0] = first;
        break;
      }
      case 7: {  // duplicate a chunk elsewhere
        if (out.empty()) break;
        const size_t at = below(out.size());
        const size_t n = 1 + below(std::min<size_t>(16, out.size() - at));
        std::vector<uint8_t> chunk(out.begin() + static_cast<std::ptrdiff_t>(at),
                                   out.begin() + static_cast<std::ptrdiff_t>(at + n));
        out.insert(out.begin() + static_cast<std::ptrdiff_t>(below(out.size() + 1)), chunk.begin(),
                   chunk.end());
        break;
      }
    }
  }

  static void fix_length(std::vector<uint8_t>& out) {
    const VarintDecode t = decode_varint(out, kVarint);
    if (t.status != DecodeStatus::Ok || out.size() < t.length + 2u) return;
    const size_t body = std::min<size_t>(out.size() - t.length - 2, 65535);
    out[t.length] = static_cast<uint8_t>(body >> 8);
    out[t.length + 1] = static_cast<uint8_t>(body);
  }

  std::mt19937_64 rng_;
};

// Counts outcomes and reports the first few failures.
struct Tally {
  int inputs = 0, ok = 0, need_more = 0, malformed = 0, failures = 0;
  void fail(const std::string& what, std::span<const uint8_t> in) {
    if (++failures <= kMaxReportedFailures) ADD_FAILURE() << what << "\n  input: " << to_hex(in);
  }
  void report(const char* family) const {
    std::printf("  %-22s %6d inputs: %6d ok, %6d need-more, %6d malformed\n", family, inputs, ok,
                need_more, malformed);
    EXPECT_GE(inputs, kInputsPerFamily);
    EXPECT_EQ(failures, 0);
    EXPECT_GT(malformed, 0);
  }
};

// ---- Control messages ----

void check_control(std::span<const uint8_t> in, IetfVersion v, Tally& t) {
  ++t.inputs;
  Decoded<ControlMessage> d = decode_control(in, v);
  const VarintDecode type = decode_varint(in, kVarint);
  if (d.status == DecodeStatus::Ok) {
    ++t.ok;
    if (d.consumed == 0 || d.consumed > in.size()) return t.fail("bad consumed", in);
    std::vector<uint8_t> re;
    Writer w(re, kVarint);
    Status s = encode_control(w, d.value, v);
    if (!s.ok()) return t.fail("decoded message does not re-encode: " + s.error().message, in);
    Decoded<ControlMessage> d2 = decode_control(re, v);
    if (d2.status != DecodeStatus::Ok || !(d2.value == d.value) || d2.consumed != re.size())
      return t.fail("re-encoded message decodes differently", in);
  } else if (d.status == DecodeStatus::NeedMore) {
    ++t.need_more;
    if (d.needed <= in.size()) return t.fail("NeedMore with the bytes it asked for", in);
    // Incomplete only: the type (if complete) is a message of this draft, and the frame is
    // longer than the input.
    if (type.status == DecodeStatus::Ok) {
      if (!message_type_name(type.value, v)) return t.fail("NeedMore for an unknown type", in);
      if (in.size() >= type.length + 2u) {
        const size_t body = size_t{in[type.length]} << 8 | in[type.length + 1];
        if (in.size() >= type.length + 2 + body) return t.fail("NeedMore on a whole frame", in);
      }
    }
  } else {
    ++t.malformed;
    if (d.error.code != kProtocolViolation && d.error.code != kKeyValueFormattingError)
      return t.fail("unexpected error code", in);
    const char* name = type.status == DecodeStatus::Ok ? message_type_name(type.value, v) : nullptr;
    const std::string want = name ? name : "control message";
    if (d.error.message.rfind(want, 0) != 0)
      return t.fail("error does not name " + want + ": " + d.error.message, in);
    if (d.error.message.find("field '") == std::string::npos)
      return t.fail("error does not name a field: " + d.error.message, in);
  }
}

class IetfFuzzControl : public ::testing::TestWithParam<MessageType> {};

TEST_P(IetfFuzzControl, MutatedMessages) {
  const MessageType type = GetParam();
  Tally tally;
  for (IetfVersion v : kVersions) {
    std::vector<std::vector<uint8_t>> seeds;
    // Seeds come from the draft that has the message (PUBLISH_STATE_NOTIFY also feeds -18, where
    // it must never decode as itself).
    const IetfVersion seed_version =
        type == MessageType::PublishStateNotify ? IetfVersion::Draft22 : v;
    for (const ControlMessage& m : sample_messages(seed_version))
      if (control_type(m) == type) seeds.push_back(encode(m, seed_version));
    if (type == MessageType::RequestOk && accepts_publish_ok_type(v))
      seeds.push_back(hex("1e 00 01 00"));  // the -18 PUBLISH_OK type
    ASSERT_FALSE(seeds.empty());
    Mutator mut(0x5eed0000u + uint64_t(type) * 2 + uint64_t(v));
    std::vector<uint8_t> input;
    for (const auto& s : seeds)
      check_control(s, v, tally);
    for (int i = 0; i < kInputsPerFamily / 2; ++i) {
      mut.mutate(seeds[mut.below(seeds.size())], input, true);
      check_control(input, v, tally);
    }
  }
  tally.report(message_type_name(uint64_t(type), IetfVersion::Draft22));
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, IetfFuzzControl,
    ::testing::Values(MessageType::Setup, MessageType::GoAway, MessageType::Subscribe,
                      MessageType::SubscribeOk, MessageType::RequestUpdate, MessageType::Publish,
                      MessageType::PublishDone, MessageType::PublishStateNotify, MessageType::Fetch,
                      MessageType::FetchOk, MessageType::TrackStatus, MessageType::RequestOk,
                      MessageType::RequestError, MessageType::PublishNamespace,
                      MessageType::Namespace, MessageType::NamespaceDone,
                      MessageType::SubscribeNamespace, MessageType::SubscribeTracks,
                      MessageType::PublishBlocked),
    [](const ::testing::TestParamInfo<MessageType>& info) {
      std::string name = message_type_name(uint64_t(info.param), IetfVersion::Draft18)
                             ? message_type_name(uint64_t(info.param), IetfVersion::Draft18)
                             : message_type_name(uint64_t(info.param), IetfVersion::Draft22);
      std::string out;
      for (char c : name)
        if (c != '_') out += c;
      return out;
    });

// ---- Data plane ----

// A data-plane error starts with the message's name and names the field.
template <class T>
bool names_message(const Decoded<T>& d, std::string_view message) {
  return d.error.message.rfind(message, 0) == 0 &&
         d.error.message.find(": field '") != std::string::npos;
}

void check_subgroup_stream(std::span<const uint8_t> in, Tally& t) {
  ++t.inputs;
  const Decoded<UniStreamKind> c = classify_uni_stream(in);
  if (c.status == DecodeStatus::Malformed && !names_message(c, "unidirectional stream"))
    return t.fail("unnamed stream-type error", in);
  const Decoded<SubgroupHeader> header = decode_subgroup_header(in);
  if (header.status == DecodeStatus::NeedMore) {
    ++t.need_more;
    return;
  }
  if (header.status == DecodeStatus::Malformed) {
    ++t.malformed;
    if (!names_message(header, "SUBGROUP_HEADER")) t.fail("unnamed SUBGROUP_HEADER error", in);
    return;
  }
  if (!c.ok() || c.value != UniStreamKind::Subgroup) return t.fail("header/classify disagree", in);
  const SubgroupHeader& h = header.value;
  uint8_t buf[kMaxSubgroupHeaderSize + 1024];
  const size_t n = encode_subgroup_header(h, buf);
  if (n == 0) return t.fail("SUBGROUP_HEADER does not re-encode", in);
  const Decoded<SubgroupHeader> h2 = decode_subgroup_header({buf, n});
  if (!h2.ok() || !(h2.value == h)) return t.fail("SUBGROUP_HEADER does not round-trip", in);
  size_t pos = header.consumed;
  SubgroupStreamState st, enc, dec;
  while (true) {
    const Decoded<SubgroupObject> d = decode_subgroup_object(in.subspan(pos), h, st);
    if (d.status == DecodeStatus::NeedMore) {
      ++t.need_more;
      return;
    }
    if (d.status == DecodeStatus::Malformed) {
      ++t.malformed;
      if (!names_message(d, "subgroup object")) t.fail("unnamed subgroup object error", in);
      return;
    }
    ++t.ok;
    if (d.consumed == 0) return t.fail("object consumed nothing", in);
    const SubgroupObject& o = d.value;
    if (o.properties.size() > 1024) return;  // the re-encode buffer below is 1 KiB
    const size_t m =
        encode_subgroup_object(enc, h, o.object_id, o.properties, o.payload_length, o.status, buf);
    if (m == 0) return t.fail("subgroup object does not re-encode", in);
    const Decoded<SubgroupObject> o2 = decode_subgroup_object({buf, m}, h, dec);
    if (!o2.ok() || o2.value.object_id != o.object_id ||
        o2.value.payload_length != o.payload_length || o2.value.status != o.status ||
        o2.value.properties.size() != o.properties.size())
      return t.fail("subgroup object does not round-trip", in);
    pos += d.consumed;
    if (o.payload_length > in.size() - pos) return;  // payload still arriving
    pos += o.payload_length;
  }
}

void check_fetch_stream(std::span<const uint8_t> in, IetfVersion v, GroupOrder order, Tally& t) {
  ++t.inputs;
  const Decoded<uint64_t> header = decode_fetch_header(in);
  if (header.status == DecodeStatus::NeedMore) {
    ++t.need_more;
    return;
  }
  if (header.status == DecodeStatus::Malformed) {
    ++t.malformed;
    if (!names_message(header, "FETCH_HEADER")) t.fail("unnamed FETCH_HEADER error", in);
    return;
  }
  size_t pos = header.consumed;
  FetchStreamState st, enc, dec;
  st.group_order = enc.group_order = dec.group_order = order;
  uint8_t buf[kMaxFetchObjectHeaderSize + 1024];
  while (true) {
    const Decoded<FetchObject> d = decode_fetch_object(in.subspan(pos), st, v);
    if (d.status == DecodeStatus::NeedMore) {
      ++t.need_more;
      return;
    }
    if (d.status == DecodeStatus::Malformed) {
      ++t.malformed;
      if (!names_message(d, "fetch object")) t.fail("unnamed fetch object error", in);
      return;
    }
    ++t.ok;
    if (d.consumed == 0) return t.fail("fetch object consumed nothing", in);
    const FetchObject& o = d.value;
    if (o.properties.size() > 1024) return;
    const size_t m = encode_fetch_object(enc, o, v, buf);
    if (m == 0) return t.fail("fetch object does not re-encode", in);
    const Decoded<FetchObject> d2 = decode_fetch_object({buf, m}, dec, v);
    const FetchObject& o2 = d2.value;
    if (!d2.ok() || o2.kind != o.kind || o2.group_id != o.group_id || o2.object_id != o.object_id ||
        o2.datagram != o.datagram || o2.subgroup_id != o.subgroup_id ||
        o2.publisher_priority != o.publisher_priority || o2.payload_length != o.payload_length ||
        o2.properties.size() != o.properties.size())
      return t.fail("fetch object does not round-trip", in);
    pos += d.consumed;
    if (o.payload_length > in.size() - pos) return;
    pos += o.payload_length;
  }
}

void check_datagram(std::span<const uint8_t> in, Tally& t) {
  ++t.inputs;
  const Decoded<ObjectDatagram> r = decode_datagram(in);
  if (r.status == DecodeStatus::NeedMore) return t.fail("a datagram cannot need more", in);
  if (r.status == DecodeStatus::Malformed) {
    ++t.malformed;
    if (!names_message(r, "OBJECT_DATAGRAM")) t.fail("unnamed datagram error", in);
    return;
  }
  ++t.ok;
  const ObjectDatagram& d = r.value;
  if (d.padding) return;
  std::vector<uint8_t> out(kMaxDatagramHeaderSize + d.properties.size());
  const size_t n = encode_datagram_header(d, out.data());
  if (n == 0) return t.fail("decoded datagram does not re-encode", in);
  out.resize(n);
  out.insert(out.end(), d.payload.begin(), d.payload.end());
  const Decoded<ObjectDatagram> r2 = decode_datagram(out);
  const ObjectDatagram& d2 = r2.value;
  if (!r2.ok() || d2.track_alias != d.track_alias || d2.group_id != d.group_id ||
      d2.object_id != d.object_id || d2.default_priority != d.default_priority ||
      d2.publisher_priority != d.publisher_priority || d2.end_of_group != d.end_of_group ||
      d2.has_status != d.has_status || d2.status != d.status ||
      d2.properties.size() != d.properties.size() || d2.payload.size() != d.payload.size())
    t.fail("datagram does not round-trip", in);
}

std::vector<std::vector<uint8_t>> subgroup_seeds() {
  std::vector<std::vector<uint8_t>> seeds;
  const auto props = sample_properties();
  for (uint8_t type : {0x10, 0x14, 0x15, 0x1B, 0x33, 0x3D, 0x50, 0x78, 0x7D}) {
    SubgroupHeader h;
    h.has_properties = type & 0x01;
    h.subgroup_mode = SubgroupIdMode((type & 0x06) >> 1);
    h.end_of_group = type & 0x08;
    h.default_priority = type & 0x20;
    h.first_object = type & 0x40;
    h.track_alias = type;
    h.group_id = 300;
    h.subgroup_id = h.subgroup_mode == SubgroupIdMode::Explicit ? 5 : 0;
    std::vector<uint8_t> s(kMaxSubgroupHeaderSize);
    s.resize(encode_subgroup_header(h, s.data()));
    SubgroupStreamState st;
    const uint64_t ids[] = {0, 1, 5, 6, 130};
    for (size_t k = 0; k < 5; ++k) {
      const bool last = k == 4;
      std::vector<uint8_t> p = h.has_properties && k % 2 ? props : std::vector<uint8_t>{};
      uint8_t buf[kMaxSubgroupObjectHeaderSize + 16];
      const size_t n = encode_subgroup_object(
          st, h, ids[k], p, last ? 0 : k,
          last && type & 8 ? ObjectStatus::EndOfGroup : ObjectStatus::Normal, buf);
      s.insert(s.end(), buf, buf + n);
      s.insert(s.end(), last ? 0 : k, static_cast<uint8_t>('a' + k));
    }
    seeds.push_back(std::move(s));
  }
  return seeds;
}

std::vector<std::vector<uint8_t>> fetch_seeds(IetfVersion v) {
  std::vector<std::vector<uint8_t>> seeds;
  const auto props = sample_properties();
  for (int variant = 0; variant < 4; ++variant) {
    std::vector<uint8_t> s(kMaxFetchHeaderSize);
    s.resize(encode_fetch_header(2 + variant, s.data()));
    FetchStreamState st;
    const uint64_t groups[] = {5, 5, 5, 9, 9, 12};
    const uint64_t objects[] = {0, 1, 4, 0, 1, 3};
    for (size_t k = 0; k < 6; ++k) {
      FetchObject o;
      o.group_id = groups[k];
      o.object_id = objects[k];
      o.subgroup_id = variant == 1 ? k : (variant == 2 ? 7 : 0);
      o.publisher_priority = static_cast<uint8_t>(variant == 3 ? 0x80 + k : 0x80);
      o.datagram = variant == 3 && k == 2;
      if (o.datagram) o.subgroup_id = 0;
      if (k == 1) o.properties = props;
      o.payload_length = k;
      if (variant == 2 && k == 3) {
        o = FetchObject{};
        o.kind = has_timed_out_range_marker(v) ? FetchRecordKind::EndOfTimedOutRange
                                               : FetchRecordKind::EndOfUnknownRange;
        o.group_id = 8;
        o.object_id = 9;
      }
      uint8_t buf[kMaxFetchObjectHeaderSize + 16];
      const size_t n = encode_fetch_object(st, o, v, buf);
      EXPECT_GT(n, 0u);
      s.insert(s.end(), buf, buf + n);
      s.insert(s.end(), o.payload_length, static_cast<uint8_t>('a' + k));
    }
    seeds.push_back(std::move(s));
  }
  return seeds;
}

std::vector<std::vector<uint8_t>> datagram_seeds() {
  std::vector<std::vector<uint8_t>> seeds;
  const auto props = sample_properties();
  for (uint64_t t = 0; t < 0x30; ++t) {
    if (!is_datagram_type(t)) continue;
    ObjectDatagram d;
    d.track_alias = 3;
    d.group_id = 1000;
    d.object_id = (t & 0x04) ? 0 : 17;
    d.default_priority = t & 0x08;
    d.publisher_priority = 9;
    d.end_of_group = t & 0x02;
    if (t & 0x01) d.properties = props;
    d.has_status = t & 0x20;
    d.status = d.has_status && !(t & 0x01) ? ObjectStatus::EndOfGroup : ObjectStatus::Normal;
    std::vector<uint8_t> s(kMaxDatagramHeaderSize + props.size());
    s.resize(encode_datagram_header(d, s.data()));
    if (!d.has_status) s.insert(s.end(), {'d', 'a', 't', 'a'});
    seeds.push_back(std::move(s));
  }
  return seeds;
}

TEST(IetfFuzzData, SubgroupStreams) {
  Tally tally;
  const auto seeds = subgroup_seeds();
  Mutator mut(0x5b9);
  std::vector<uint8_t> input;
  for (const auto& s : seeds)
    check_subgroup_stream(s, tally);
  for (int i = 0; i < kInputsPerFamily; ++i) {
    mut.mutate(seeds[mut.below(seeds.size())], input, false);
    check_subgroup_stream(input, tally);
  }
  tally.report("subgroup streams");
}

TEST(IetfFuzzData, FetchStreams) {
  Tally tally;
  for (IetfVersion v : kVersions) {
    const auto seeds = fetch_seeds(v);
    Mutator mut(0xfe7c + uint64_t(v));
    std::vector<uint8_t> input;
    for (const auto& s : seeds)
      check_fetch_stream(s, v, GroupOrder::Ascending, tally);
    for (int i = 0; i < kInputsPerFamily / 2; ++i) {
      mut.mutate(seeds[mut.below(seeds.size())], input, false);
      check_fetch_stream(input, v, mut.next() & 1 ? GroupOrder::Ascending : GroupOrder::Descending,
                         tally);
    }
  }
  tally.report("fetch streams");
}

TEST(IetfFuzzData, Datagrams) {
  Tally tally;
  const auto seeds = datagram_seeds();
  Mutator mut(0xda7a);
  std::vector<uint8_t> input;
  for (const auto& s : seeds)
    check_datagram(s, tally);
  for (int i = 0; i < kInputsPerFamily; ++i) {
    mut.mutate(seeds[mut.below(seeds.size())], input, false);
    check_datagram(input, tally);
  }
  tally.report("datagrams");
}

}  // namespace
}  // namespace moq::wire::ietf::test
