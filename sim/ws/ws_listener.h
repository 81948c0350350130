// The server side of the ws world: a TCP listener whose accepted connections become WsCarriers
// (ws_carrier.h), handed out once their WebSocket is open. A refused or failed upgrade is
// reported through the log callback with its reason and the connection dropped; a connection
// whose user is done with it is retired here until its close handshake and TCP close finish.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "sim/quic/udp.h"
#include "sim/ws/tcp.h"
#include "sim/ws/ws_carrier.h"

namespace moq::sim::ws {

class WsListener {
 public:
  // Listens on at ("HOST:0" picks a free port). An error names the address and why.
  static Result<std::unique_ptr<WsListener>> listen(Executor& executor, quic::UdpLoop& loop,
                                                    const Address& at, WsCarrierSettings settings,
                                                    std::function<void(const std::string&)> log);
  ~WsListener();
  WsListener(const WsListener&) = delete;
  WsListener& operator=(const WsListener&) = delete;

  const Address& address() const { return tcp_->local_address(); }
  // The next connection whose WebSocket opened (connection() is set), or null.
  std::unique_ptr<WsCarrier> accept();
  // Keeps a carrier until it finished (its close sent and TCP closed).
  void retire(std::unique_ptr<WsCarrier> carrier);
  // Connections accepted over TCP and not yet open, and those retired but not finished.
  size_t handshaking() const { return pending_.size(); }
  size_t lingering() const;

 private:
  class Acceptor;
  WsListener(Executor& executor, quic::UdpLoop& loop, std::unique_ptr<TcpListener> tcp,
             WsCarrierSettings settings, std::function<void(const std::string&)> log);
  Poll accept_step();
  void sweep();

  Executor* executor_;
  quic::UdpLoop* loop_;
  std::unique_ptr<TcpListener> tcp_;
  WsCarrierSettings settings_;
  std::function<void(const std::string&)> log_;
  std::unique_ptr<Acceptor> acceptor_;
  std::vector<std::unique_ptr<WsCarrier>> pending_;  // upgrade not done
  std::vector<std::unique_ptr<WsCarrier>> open_;     // open, not yet taken by accept()
  std::vector<std::unique_ptr<WsCarrier>> retired_;
};

}  // namespace moq::sim::ws
