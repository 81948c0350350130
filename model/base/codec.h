// Reader and Writer: the primitives every wire codec is built from (moq-lite and moq-transport
// alike; there is no other reader). A Reader keeps a sticky state: the first short read marks it
// NeedMore, the first bad value marks it Malformed with a message that names the message, the
// field and the value, and later reads return zeroes.
//
// A Reader may cover a region whose declared length (a Message Length) is larger than what has
// arrived: then a field that cannot fit in the declared length is Malformed at once, not
// NeedMore forever. Length-prefixed sub-regions are read by a child() Reader over exactly their
// bytes, and adopt() moves the child's failure into the parent, so an inner field that overruns
// its region's length is Malformed, never NeedMore.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/base/result.h"
#include "model/base/varint.h"

namespace moq {

class Reader {
 public:
  // The session code a malformed input closes with unless a decoder names another
  // (fail_code): PROTOCOL_VIOLATION, 0x3 in every MoQ family.
  static constexpr uint64_t kMalformedCode = 0x3;

  // A region that holds all of its bytes.
  Reader(std::span<const uint8_t> in, VarintForm form, const char* message = "message")
      : in_(in), form_(form), message_(message) {}
  // A region of declared_length bytes of which `available` holds the first ones (at most
  // declared_length of them): a body that may still be arriving.
  Reader(std::span<const uint8_t> available, uint64_t declared_length, VarintForm form,
         const char* message)
      : in_(available), form_(form), message_(message), declared_(declared_length) {}

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
  // opt+1: 0 is absent, v+1 is v.
  std::optional<uint64_t> opt_plus_one(const char* field);
  // A length prefix (of a string, byte string or value) of at most max_len that fits in what is
  // left of the declared region.
  uint64_t length(const char* field, uint64_t max_len);
  // A list count of at most max that fits in what is left of the declared region when every
  // entry takes at least min_entry_size bytes.
  uint64_t count(const char* field, uint64_t max, uint64_t min_entry_size);
  // Bytes left in the declared region (what has arrived and what has not).
  uint64_t declared_left() const { return (declared_ ? *declared_ : in_.size()) - pos_; }

  // A child reader over the next n bytes (a length-prefixed region); empty when they are missing
  // (this reader is then NeedMore).
  Reader child(const char* field, size_t n);
  // Takes the child's failure: Malformed keeps its text and code; NeedMore means a field ran past
  // the region's declared length, reported with overrun_code.
  void adopt(const Reader& child, const char* field, uint64_t overrun_code = kMalformedCode);
  // A region that must be consumed exactly: bytes left over are Malformed.
  void expect_end(const char* field);

  // Marks the input malformed (keeps the first error).
  void fail(const char* field, const std::string& why);
  // The same, closing with a session code other than kMalformedCode.
  void fail_code(uint64_t code, const char* field, const std::string& why);

  bool ok() const { return status_ == DecodeStatus::Ok; }
  DecodeStatus status() const { return status_; }
  // The failure text: names the message, the field and the value.
  const std::string& error() const { return error_; }
  uint64_t error_code() const { return code_; }
  Error to_error() const { return Error{code_, error_}; }
  size_t consumed() const { return pos_; }
  size_t remaining() const { return in_.size() - pos_; }
  bool at_end() const { return pos_ == in_.size(); }
  VarintForm form() const { return form_; }
  const char* message() const { return message_; }
  std::span<const uint8_t> rest() const { return in_.subspan(pos_); }

 private:
  // A varint whose length prefix runs past the declared region fails at once.
  void check_varint_fits(const char* field);

  std::span<const uint8_t> in_;
  size_t pos_ = 0;
  VarintForm form_;
  const char* message_;
  std::optional<uint64_t> declared_;  // set when the region may be longer than in_
  DecodeStatus status_ = DecodeStatus::Ok;
  uint64_t code_ = kMalformedCode;
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
