// A Connection that records what the code above it does to the connection below, as the
// operations of a session fuzz script (tests/fuzz/peer_script.h): run a real session over it on
// the peer's end, and the script it writes makes the hostile peer of the fuzz target behave, at
// first, exactly as that session did. The seed corpus of the session target is recorded this way
// (tests/fuzz/record_session_seeds.cpp).
//
// Recorded: streams opened and accepted (each gets the next slot, as the interpreter numbers
// them), the bytes each write took, finish, reset, stop, each read that returned something,
// dropped handles, datagrams sent and close. Not recorded: send order (it changes only how the
// peer schedules its own bytes) and datagrams received (the hostile peer does not read them).
#pragma once

#include <string_view>

#include "model/transport.h"
#include "tests/fuzz/peer_script.h"

namespace moq::fuzz {

class RecordingConnection final : public Connection {
 public:
  RecordingConnection(Connection& inner, ScriptWriter& out) : inner_(&inner), out_(&out) {}

  Executor& executor() override { return inner_->executor(); }
  std::string_view alpn() const override { return inner_->alpn(); }
  bool is_client() const override { return inner_->is_client(); }

  Result<SendStreamPtr> open_uni() override;
  Result<BidiStream> open_bidi() override;
  WaitList& can_open() override { return inner_->can_open(); }

  Result<RecvStreamPtr> accept_uni() override;
  Result<BidiStream> accept_bidi() override;
  WaitList& incoming() override { return inner_->incoming(); }

  Status send_datagram(Bytes payload) override;
  std::optional<Bytes> recv_datagram() override { return inner_->recv_datagram(); }
  WaitList& datagrams() override { return inner_->datagrams(); }

  void close(uint64_t code, std::string_view reason) override;
  const std::optional<Error>& close_error() const override { return inner_->close_error(); }
  WaitList& closed() override { return inner_->closed(); }

  const ConnectionStats& stats() const override { return inner_->stats(); }

 private:
  SendStreamPtr wrap(SendStreamPtr s);
  RecvStreamPtr wrap(RecvStreamPtr r);

  Connection* inner_;
  ScriptWriter* out_;
  size_t send_slots_ = 0;
  size_t recv_slots_ = 0;
};

}  // namespace moq::fuzz
