// WireReader: the base Reader (leading-ones varints, sticky NeedMore/Malformed naming the message,
// field and value) plus the session error code a failure maps to. Most malformed input is a
// PROTOCOL_VIOLATION; a known key-value type with a bad value is KEY_VALUE_FORMATTING_ERROR.
// Length-prefixed structures are read by a child WireReader over exactly their bytes, and adopt()
// moves the child's failure into the parent, so an inner field that overruns its Length is
// Malformed, never NeedMore.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "model/base/codec.h"
#include "model/base/result.h"
#include "model/wire/ietf/codes.h"

namespace moq::wire::ietf {

class WireReader : public Reader {
 public:
  WireReader(std::span<const uint8_t> in, const char* message) : Reader(in, kVarint, message) {}

  // Marks the input malformed with a session error code other than PROTOCOL_VIOLATION.
  void fail_code(uint64_t code, const char* field, const std::string& why) {
    if (!ok()) return;
    code_ = code;
    fail(field, why);
  }
  // A child reader over the next n bytes (a length-prefixed region); empty when they are missing
  // (this reader is then NeedMore).
  WireReader child(const char* field, size_t n) {
    auto region = raw(field, n);
    return WireReader(region, message());
  }
  // Takes the child's failure: Malformed keeps its text and code; NeedMore means a field ran past
  // the region's declared length, reported with overrun_code.
  void adopt(const WireReader& child, const char* field,
             uint64_t overrun_code = kProtocolViolation);
  // A region that must be consumed exactly: bytes left over are Malformed.
  void expect_end(const char* field);

  uint64_t error_code() const { return code_; }
  // The failure text: names the message, the field and the value.
  const std::string& error_text() const { return adopted_.empty() ? error() : adopted_; }
  Error to_error() const { return Error{code_, error_text()}; }

 private:
  uint64_t code_ = kProtocolViolation;
  std::string adopted_;
};

// Renders v as decimal and hex for error messages: "300 (0x12c)".
std::string describe_value(uint64_t v);

}  // namespace moq::wire::ietf
