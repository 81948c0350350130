#include "model/base/codec.h"

#include <cstring>

namespace moq {

void Reader::fail(const char* field, const std::string& why) {
  if (status_ != DecodeStatus::Ok) return;
  status_ = DecodeStatus::Malformed;
  error_ = std::string(message_) + ": field '" + field + "': " + why;
}

uint64_t Reader::varint(const char* field) {
  if (status_ != DecodeStatus::Ok) return 0;
  VarintDecode d = decode_varint(in_.subspan(pos_), form_);
  if (d.status != DecodeStatus::Ok) {
    status_ = DecodeStatus::NeedMore;
    error_ = std::string(message_) + ": field '" + field + "': need more bytes";
    return 0;
  }
  pos_ += d.length;
  return d.value;
}

uint64_t Reader::varint_max(const char* field, uint64_t max) {
  uint64_t v = varint(field);
  if (ok() && v > max) {
    fail(field, "value " + std::to_string(v) + " exceeds the maximum " + std::to_string(max));
    return 0;
  }
  return v;
}

std::span<const uint8_t> Reader::raw(const char* field, size_t n) {
  if (status_ != DecodeStatus::Ok) return {};
  if (remaining() < n) {
    status_ = DecodeStatus::NeedMore;
    error_ = std::string(message_) + ": field '" + field + "': need more bytes";
    return {};
  }
  auto out = in_.subspan(pos_, n);
  pos_ += n;
  return out;
}

uint8_t Reader::u8(const char* field) {
  auto b = raw(field, 1);
  return b.empty() ? 0 : b[0];
}

bool Reader::boolean(const char* field) {
  uint8_t v = u8(field);
  if (ok() && v > 1) fail(field, "boolean byte is " + std::to_string(v) + ", must be 0 or 1");
  return v == 1;
}

std::span<const uint8_t> Reader::bytes(const char* field, uint64_t max_len) {
  uint64_t len = varint(field);
  if (!ok()) return {};
  if (len > max_len) {
    fail(field,
         "length " + std::to_string(len) + " exceeds the maximum " + std::to_string(max_len));
    return {};
  }
  return raw(field, static_cast<size_t>(len));
}

std::string_view Reader::string(const char* field, uint64_t max_len) {
  auto b = bytes(field, max_len);
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

void Writer::varint(uint64_t v) {
  uint8_t buf[kMaxVarintSize];
  if (v > varint_max(form_)) v = varint_max(form_);
  size_t n = encode_varint(v, form_, buf);
  out_.insert(out_.end(), buf, buf + n);
}

void Writer::end_length(size_t mark) {
  const size_t body = out_.size() - mark;
  uint8_t buf[kMaxVarintSize];
  const size_t n = encode_varint(body, form_, buf);
  if (n > 1) {
    out_.insert(out_.begin() + static_cast<std::ptrdiff_t>(mark), n - 1, 0);
  }
  std::memcpy(out_.data() + mark - 1, buf, n);
}

}  // namespace moq
