// The world of the session fuzz target: a real session of one version in one role
// (tests/fuzz/peer_script.h, Role) over sim/memory, the hostile peer's raw end of its
// connection, the broadcast the world serves, and the consumers the session handed out.
//
// play() runs a script's operations: the peer's on its raw connection, the session's own API
// calls, and the served track's writes, settling the executor after each. finish() then closes
// the peer's connection and checks what a session promises whatever its peer did: nothing spins
// (a step budget per settle), every consumer it handed out has ended, and once everything is
// dropped no task and no stream is left. A broken promise calls fail(), which names it and aborts
// (libFuzzer keeps the input); the sanitizers check the rest.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "model/data/data.h"
#include "model/relay/relay.h"
#include "model/session/session.h"
#include "sim/clock.h"
#include "sim/memory/memory_transport.h"
#include "sim/net/network.h"
#include "tests/fuzz/peer_script.h"

namespace moq::fuzz {

// The value of r, or a message naming what failed and an abort: for the setup steps of the fuzz
// world and its recorder, which never fail on a sound stack.
template <class T>
T must(Result<T> r, const char* what) {
  if (!r.ok()) {
    std::fprintf(stderr, "session fuzz: %s failed: %s\n", what, r.error().message.c_str());
    std::abort();
  }
  return std::move(r.value());
}

class SessionWorld {
 public:
  // The version and setup bytes of a script; with `link`, every connection runs over a network
  // with that link (sim/net), and settling moves the virtual clock to each arrival.
  SessionWorld(uint8_t version_byte, uint8_t setup_byte,
               std::optional<sim::net::LinkConfig> link = std::nullopt);
  ~SessionWorld();
  SessionWorld(const SessionWorld&) = delete;
  SessionWorld& operator=(const SessionWorld&) = delete;

  session::Version version() const { return version_; }
  Role role() const { return role_; }
  Executor& executor() { return executor_; }
  // The hostile peer's end of the connection (the recorder runs a real session over it instead).
  Connection& peer_connection() { return *peer_conn_; }

  // Plays operations until the script ends.
  void play(ScriptReader& script);
  // Plays the next operation and settles. With peer_ops false, the peer's operations are refused
  // (fail()): the recorder plays only the API and track operations it wrote itself.
  void step(ScriptReader& script, bool peer_ops = true);
  // Runs the executor until nothing is runnable, then reads every consumer as far as it goes.
  void settle();
  // The checks at the end of a script, and the teardown. Returns the counters of the session
  // under test once its peer closed (the recorder compares a replay with its recording by them).
  session::SessionCounters finish();

  [[noreturn]] void fail(const std::string& what) const;

 private:
  using Consumer =
      std::variant<TrackConsumer, GroupConsumer, session::FetchConsumer, AnnounceConsumer,
                   session::Reply<TrackInfo>, session::Reply<session::AuthGrant>>;

  void play_peer_op(Op op, ScriptReader& in);
  // A bidi stream the peer opened or accepted: its halves take the next slots.
  void keep(Result<BidiStream> b);
  // Runs the executor until nothing is runnable (a step budget), then reads every consumer.
  void run_and_read();
  void play_api_op(Op op, ScriptReader& in);
  void play_track_op(Op op, ScriptReader& in);
  template <class T>
  void hold(Result<T> made);
  // Reads consumer `index` as far as it goes; false when it still waits for more.
  bool drain(size_t index);

  session::Version version_;
  Role role_;
  bool client_;
  sim::VirtualClock clock_;
  Executor executor_{clock_};
  // The served broadcast: "demo", track "video".
  OriginProducer origin_ = OriginProducer::create();
  BroadcastProducer broadcast_;
  TrackProducer track_;
  GroupProducer group_;
  uint64_t next_group_ = 0;
  uint64_t next_timestamp_ = 0;
  std::unique_ptr<sim::net::Network> network_;  // outlives the pairs that use it
  // Connections: the one under test first; for the relay also its publisher and its viewer.
  std::vector<sim::memory::ConnectionPair> pairs_;
  Connection* peer_conn_ = nullptr;
  std::unique_ptr<relay::Relay> relay_;
  std::vector<std::unique_ptr<session::Session>> sessions_;  // those the world owns
  // The session the hostile peer talks to (the relay's own for the relay role).
  session::Session* under_test_ = nullptr;
  // The session whose API the script calls: the one under test, or the relay's real viewer.
  session::Session* api_session_ = nullptr;
  // The peer's streams, in the order it opened or accepted them (null once dropped).
  std::vector<SendStreamPtr> sends_;
  std::vector<RecvStreamPtr> recvs_;
  std::vector<Consumer> consumers_;
};

// The link a shaped script's five link bytes give (peer_script.h, kSetupShaped): latency up to
// 50 ms, jitter up to 20 ms, bandwidth from 100 kbit/s (a zero byte: unlimited), datagram loss
// up to 49%, and the seed.
sim::net::LinkConfig shaped_link(ScriptReader& in);

// Plays a whole script (a fuzz input) in a fresh world, with the end checks; returns finish()'s
// counters.
session::SessionCounters play_script(std::span<const uint8_t> script);

}  // namespace moq::fuzz
