// A connection that loses data on purpose, for tests of what a loss does to the ones measuring
// it (`moqbench relay --test-drop-every N`, hidden). It forwards every call to the connection it
// wraps, except that it stops every Nth stream the peer opens one way (STOP_SENDING) and never
// hands it on. The peer's first such stream is its session's setup or control stream in every
// version and always passes; after it, each stream is a group (moq-lite) or a subgroup
// (moq-transport), so a relay that takes its publishers' connections through this loses one group
// in N, whole, the way a relay that sheds load would.
#pragma once

#include <cstdint>

#include "model/transport.h"

namespace moq::cli {

class DroppingConnection final : public Connection {
 public:
  DroppingConnection(Connection& inner, uint64_t every) : inner_(&inner), every_(every) {}

  Executor& executor() override { return inner_->executor(); }
  std::string_view alpn() const override { return inner_->alpn(); }
  bool is_client() const override { return inner_->is_client(); }
  Result<SendStreamPtr> open_uni() override { return inner_->open_uni(); }
  Result<BidiStream> open_bidi() override { return inner_->open_bidi(); }
  WaitList& can_open() override { return inner_->can_open(); }
  Result<RecvStreamPtr> accept_uni() override;
  Result<BidiStream> accept_bidi() override { return inner_->accept_bidi(); }
  WaitList& incoming() override { return inner_->incoming(); }
  Status send_datagram(Bytes payload) override { return inner_->send_datagram(std::move(payload)); }
  std::optional<Bytes> recv_datagram() override { return inner_->recv_datagram(); }
  WaitList& datagrams() override { return inner_->datagrams(); }
  void close(uint64_t code, std::string_view reason) override { inner_->close(code, reason); }
  const std::optional<Error>& close_error() const override { return inner_->close_error(); }
  WaitList& closed() override { return inner_->closed(); }
  const ConnectionStats& stats() const override { return inner_->stats(); }
  const WireStats* wire_stats() const override { return inner_->wire_stats(); }

  uint64_t dropped() const { return dropped_; }

 private:
  Connection* inner_;
  uint64_t every_;         // at least 1
  uint64_t accepted_ = 0;  // uni streams the peer opened so far, dropped ones included
  uint64_t dropped_ = 0;
};

}  // namespace moq::cli
