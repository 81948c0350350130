#include "tests/fuzz/recording_connection.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace moq::fuzz {
namespace {

// A slot is one byte in the script: a recording with more streams cannot be replayed.
uint8_t slot_byte(size_t slot) {
  if (slot > 0xff) {
    std::fprintf(stderr, "recording: more than 256 streams; a script slot is one byte\n");
    std::abort();
  }
  return static_cast<uint8_t>(slot);
}

class RecordingSend final : public SendStream {
 public:
  RecordingSend(SendStreamPtr inner, ScriptWriter& out, size_t slot)
      : inner_(std::move(inner)), out_(&out), slot_(slot_byte(slot)) {}

  uint64_t id() const override { return inner_->id(); }
  Result<size_t> write(BufChain& data) override {
    std::vector<uint8_t> before;
    for (const Bytes& b : data.chunks())
      before.insert(before.end(), b.span().begin(), b.span().end());
    Result<size_t> r = inner_->write(data);
    if (r.ok() && r.value() > 0)
      out_->op(Op::kWrite).byte(slot_).payload(std::span(before).first(r.value()));
    return r;
  }
  Status finish() override {
    out_->op(Op::kFinish).byte(slot_);
    return inner_->finish();
  }
  Status reset(uint64_t code) override {
    out_->op(Op::kReset).byte(slot_).number(code);
    return inner_->reset(code);
  }
  void set_send_order(int64_t order) override { inner_->set_send_order(order); }
  WaitList& writable() override { return inner_->writable(); }
  std::optional<uint64_t> stop_code() const override { return inner_->stop_code(); }
  void release() override {
    out_->op(Op::kDropSend).byte(slot_);
    delete this;
  }

 private:
  SendStreamPtr inner_;
  ScriptWriter* out_;
  uint8_t slot_;
};

class RecordingRecv final : public RecvStream {
 public:
  RecordingRecv(RecvStreamPtr inner, ScriptWriter& out, size_t slot)
      : inner_(std::move(inner)), out_(&out), slot_(slot_byte(slot)) {}

  uint64_t id() const override { return inner_->id(); }
  ReadResult read(Bytes& chunk, size_t max) override {
    const ReadResult r = inner_->read(chunk, max);
    if (r.status != ReadStatus::WouldBlock)
      out_->op(Op::kRead).byte(slot_).number(max == SIZE_MAX ? 0 : max);
    return r;
  }
  void stop(uint64_t code) override {
    out_->op(Op::kStop).byte(slot_).number(code);
    inner_->stop(code);
  }
  WaitList& readable() override { return inner_->readable(); }
  void release() override {
    out_->op(Op::kDropRecv).byte(slot_);
    delete this;
  }

 private:
  RecvStreamPtr inner_;
  ScriptWriter* out_;
  uint8_t slot_;
};

}  // namespace

SendStreamPtr RecordingConnection::wrap(SendStreamPtr s) {
  return SendStreamPtr(new RecordingSend(std::move(s), *out_, send_slots_++));
}

RecvStreamPtr RecordingConnection::wrap(RecvStreamPtr r) {
  return RecvStreamPtr(new RecordingRecv(std::move(r), *out_, recv_slots_++));
}

Result<SendStreamPtr> RecordingConnection::open_uni() {
  Result<SendStreamPtr> s = inner_->open_uni();
  if (!s.ok() || !s.value()) return s;
  out_->op(Op::kOpenUni);
  return wrap(std::move(s.value()));
}

Result<BidiStream> RecordingConnection::open_bidi() {
  Result<BidiStream> b = inner_->open_bidi();
  if (!b.ok() || !b.value()) return b;
  out_->op(Op::kOpenBidi);
  return BidiStream{wrap(std::move(b.value().send)), wrap(std::move(b.value().recv))};
}

Result<RecvStreamPtr> RecordingConnection::accept_uni() {
  Result<RecvStreamPtr> r = inner_->accept_uni();
  if (!r.ok() || !r.value()) return r;
  out_->op(Op::kAcceptUni);
  return wrap(std::move(r.value()));
}

Result<BidiStream> RecordingConnection::accept_bidi() {
  Result<BidiStream> b = inner_->accept_bidi();
  if (!b.ok() || !b.value()) return b;
  out_->op(Op::kAcceptBidi);
  return BidiStream{wrap(std::move(b.value().send)), wrap(std::move(b.value().recv))};
}

Status RecordingConnection::send_datagram(Bytes payload) {
  Status s = inner_->send_datagram(payload);
  if (s.ok()) out_->op(Op::kDatagram).payload(payload.span());
  return s;
}

void RecordingConnection::close(uint64_t code, std::string_view reason) {
  if (!inner_->close_error()) out_->op(Op::kClose).number(code);
  inner_->close(code, reason);
}

}  // namespace moq::fuzz
