#include "model/session/lite/message_reader.h"

namespace moq::session::lite {

void MessageReader::consume(size_t n) {
  if (buf_.empty()) {
    chunk_.advance(n);
    return;
  }
  head_ += n;
  if (head_ == buf_.size()) {
    buf_.clear();  // keeps capacity
    head_ = 0;
  }
}

Bytes MessageReader::take_rest() {
  Bytes out;
  if (buf_.empty()) {
    out = std::move(chunk_);
    chunk_.reset();
  } else {
    out = Bytes::copy(data());
    buf_.clear();
    head_ = 0;
  }
  return out;
}

ReadResult MessageReader::read_more(RecvStream& stream) {
  Bytes next;
  const ReadResult r = stream.read(next);
  if (r.status != ReadStatus::Data) return r;
  if (empty()) {
    buf_.clear();
    head_ = 0;
    chunk_ = std::move(next);  // no copy: decode straight from the chunk
    return r;
  }
  // A message continues into this chunk: gather the bytes.
  if (buf_.empty()) {
    buf_.assign(chunk_.data(), chunk_.data() + chunk_.size());
    chunk_.reset();
  }
  buf_.insert(buf_.end(), next.data(), next.data() + next.size());
  return r;
}

}  // namespace moq::session::lite
