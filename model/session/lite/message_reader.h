// Reads control messages from a RecvStream. A message that arrives in one chunk (the usual case:
// senders write each message as one Bytes) is decoded straight from that chunk; only a message
// split over chunks is gathered into a small buffer (control plane, may allocate once).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "model/async/executor.h"
#include "model/base/bytes.h"
#include "model/base/result.h"
#include "model/base/varint.h"
#include "model/transport.h"

namespace moq::session::lite {

// What next() found.
enum class Got : uint8_t {
  Message,    // out holds the next message
  Pending,    // nothing complete yet; the waiter is armed on the stream
  Fin,        // the peer finished the stream at a message boundary
  Reset,      // the peer reset the stream: code()
  Failed,     // the connection closed or the stream was stopped locally: code()
  Malformed,  // error() names the message and field (the session closes with 0x3)
};

class MessageReader {
 public:
  void clear() {
    chunk_.reset();
    buf_.clear();
    head_ = 0;
    code_ = 0;
    error_.clear();
  }

  bool empty() const { return buf_.empty() ? chunk_.empty() : head_ == buf_.size(); }
  std::span<const uint8_t> data() const {
    if (buf_.empty()) return chunk_.span();
    return std::span<const uint8_t>(buf_).subspan(head_);
  }
  void consume(size_t n);

  // Reads the next chunk into the reader. WouldBlock arms nothing: the caller waits.
  ReadResult read_more(RecvStream& stream);

  // Decodes the next message with decode(span) -> Decoded<T>, reading chunks as needed.
  // name: the message expected, for the error when the stream ends inside it.
  template <class T, class Decode>
  Got next(RecvStream& stream, Waiter& waiter, const char* name, Decode&& decode, T& out) {
    for (;;) {
      if (!empty()) {
        auto r = decode(data());
        if (r.ok()) {
          out = std::move(r.value);
          consume(r.consumed);
          return Got::Message;
        }
        if (r.malformed()) {
          error_ = std::move(r.error.message);
          return Got::Malformed;
        }
      }
      const ReadResult rr = read_more(stream);
      switch (rr.status) {
        case ReadStatus::Data:
          continue;
        case ReadStatus::WouldBlock:
          waiter.wait(stream.readable());
          return Got::Pending;
        case ReadStatus::Fin:
          if (!empty()) {
            error_ = std::string(name) + ": the stream ended inside the message (" +
                     std::to_string(data().size()) + " bytes left)";
            return Got::Malformed;
          }
          return Got::Fin;
        case ReadStatus::Reset:
          code_ = rr.code;
          return Got::Reset;
        case ReadStatus::Error:
          code_ = rr.code;
          return Got::Failed;
      }
    }
  }

  // Hands out every unread byte as one Bytes (a slice of the last chunk when nothing was
  // gathered, else a copy of the gathered bytes) and empties the reader.
  Bytes take_rest();

  uint64_t code() const { return code_; }
  std::string& error() { return error_; }

 private:
  Bytes chunk_;               // unread bytes while nothing is gathered in buf_
  std::vector<uint8_t> buf_;  // a message split over chunks
  size_t head_ = 0;
  uint64_t code_ = 0;
  std::string error_;
};

}  // namespace moq::session::lite
