#include "model/base/codec.h"

#include <cstring>

namespace moq {

void Reader::fail(const char* field, const std::string& why) {
  if (status_ != DecodeStatus::Ok) return;
  status_ = DecodeStatus::Malformed;
  error_ = std::string(message_) + ": field '" + field + "': " + why;
}

void Reader::fail_code(uint64_t code, const char* field, const std::string& why) {
  if (status_ != DecodeStatus::Ok) return;
  code_ = code;
  fail(field, why);
}

void Reader::check_varint_fits(const char* field) {
  if (!declared_ || !ok() || remaining() == 0) return;
  // The first byte gives the varint's length in both forms.
  const VarintDecode d = decode_varint(rest().first(1), form_);
  if (d.status == DecodeStatus::NeedMore && d.length > declared_left()) {
    fail(field, "a " + std::to_string(d.length) + "-byte varint runs past the end of the body (" +
                    std::to_string(declared_left()) + " bytes left)");
  }
}

uint64_t Reader::varint(const char* field) {
  check_varint_fits(field);
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

std::optional<uint64_t> Reader::opt_plus_one(const char* field) {
  const uint64_t raw = varint(field);
  if (!ok() || raw == 0) return std::nullopt;
  return raw - 1;
}

uint64_t Reader::length(const char* field, uint64_t max_len) {
  const uint64_t len = varint(field);
  if (!ok()) return 0;
  if (len > max_len) {
    fail(field, "length " + std::to_string(len) + " exceeds the limit " + std::to_string(max_len));
    return 0;
  }
  if (len > declared_left()) {
    fail(field, "length " + std::to_string(len) + " runs past the end of the body (" +
                    std::to_string(declared_left()) + " bytes left)");
    return 0;
  }
  return len;
}

uint64_t Reader::count(const char* field, uint64_t max, uint64_t min_entry_size) {
  const uint64_t n = varint(field);
  if (!ok()) return 0;
  if (n > max) {
    fail(field, "count " + std::to_string(n) + " exceeds the limit " + std::to_string(max));
    return 0;
  }
  if (min_entry_size > 0 && n > declared_left() / min_entry_size) {
    fail(field, "count " + std::to_string(n) + " cannot fit in the " +
                    std::to_string(declared_left()) + " bytes left in the body");
    return 0;
  }
  return n;
}

Reader Reader::child(const char* field, size_t n) {
  return Reader(raw(field, n), form_, message_);
}

void Reader::adopt(const Reader& child, const char* field, uint64_t overrun_code) {
  if (!ok() || child.ok()) return;
  if (child.status() == DecodeStatus::NeedMore) {
    fail_code(overrun_code, field,
              "contents run past the declared length of " +
                  std::to_string(child.consumed() + child.remaining()) + " bytes (" +
                  child.error() + ")");
    return;
  }
  // The child's text already names the message and the field.
  status_ = DecodeStatus::Malformed;
  code_ = child.code_;
  error_ = child.error_;
}

void Reader::expect_end(const char* field) {
  if (ok() && !at_end())
    fail(field, std::to_string(remaining()) + " bytes left over after the last field");
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
