#include "tests/wire_ietf/decoder_checks.h"

#include <cstdlib>

namespace moq::wire::ietf::test {

namespace {

// A data-plane error starts with the message's name and names the field.
template <class T>
bool names_message(const Decoded<T>& d, std::string_view message) {
  return d.error.message.rfind(message, 0) == 0 &&
         d.error.message.find(": field '") != std::string::npos;
}

}  // namespace

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
      if (n == 0) std::abort();  // a seed the codec refuses: a bug in this list
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

}  // namespace moq::wire::ietf::test
