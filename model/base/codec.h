// Reader and Writer: the primitives every wire codec is built from. A Reader keeps a sticky
// state: the first short read marks it NeedMore, the first bad value marks it Malformed with a
// message that names the message, the field and the value, and later reads return zeroes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/base/varint.h"

namespace moq {

class Reader {
 public:
  Reader(std::span<const uint8_t> in, VarintForm form, const char* message = "message")
      : in_(in), form_(form), message_(message) {}

  uint64_t varint(const char* field);
  // A varint that must not exceed max.
  uint64_t varint_max(const char* field, uint64_t max);
  uint8_t u8(const char* field);
  // A boolean byte: 0 or 1, anything else is malformed.
  bool boolean(const char* field);
  // Length-prefixed bytes, at most max_len long; returned as a view into the input.
  std::span<const uint8_t> bytes(const char* field, uint64_t max_len = UINT64_MAX);
  std::string_view string(const char* field, uint64_t max_len = UINT64_MAX);
  // The next n raw bytes.
  std::span<const uint8_t> raw(const char* field, size_t n);

  // Marks the input malformed (keeps the first error).
  void fail(const char* field, const std::string& why);

  bool ok() const { return status_ == DecodeStatus::Ok; }
  DecodeStatus status() const { return status_; }
  const std::string& error() const { return error_; }
  size_t consumed() const { return pos_; }
  size_t remaining() const { return in_.size() - pos_; }
  bool at_end() const { return pos_ == in_.size(); }
  VarintForm form() const { return form_; }
  const char* message() const { return message_; }
  std::span<const uint8_t> rest() const { return in_.subspan(pos_); }

 private:
  std::span<const uint8_t> in_;
  size_t pos_ = 0;
  VarintForm form_;
  const char* message_;
  DecodeStatus status_ = DecodeStatus::Ok;
  std::string error_;
};

// Appends encodings to a byte vector that the caller owns and reuses.
class Writer {
 public:
  Writer(std::vector<uint8_t>& out, VarintForm form) : out_(out), form_(form) {}

  // Values that do not fit the form (Quic above 2^62-1) are clamped to the largest value; codecs
  // check their ranges before encoding.
  void varint(uint64_t v);
  void u8(uint8_t v) { out_.push_back(v); }
  void raw(std::span<const uint8_t> data) { out_.insert(out_.end(), data.begin(), data.end()); }
  void bytes(std::span<const uint8_t> data) {
    varint(data.size());
    raw(data);
  }
  void string(std::string_view s) { bytes({reinterpret_cast<const uint8_t*>(s.data()), s.size()}); }

  // A length-prefixed body: mark = begin_length(); ...body...; end_length(mark). The prefix gets
  // the shortest form.
  size_t begin_length() {
    out_.push_back(0);
    return out_.size();
  }
  void end_length(size_t mark);

  size_t size() const { return out_.size(); }
  VarintForm form() const { return form_; }
  std::vector<uint8_t>& buffer() { return out_; }

 private:
  std::vector<uint8_t>& out_;
  VarintForm form_;
};

}  // namespace moq
