// A session facing a hand-driven peer (raw_peer.h), for both drafts.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "model/session/ietf/ietf_session.h"
#include "sim/clock.h"
#include "sim/memory/memory_transport.h"
#include "tests/session_ietf/fixture.h"
#include "tests/session_ietf/raw_peer.h"

namespace moq::session::testing {

class RawPair : public ::testing::TestWithParam<Version> {
 protected:
  // The session is the client unless session_is_server; it publishes origin when asked.
  void start(bool publish = false, bool session_is_server = false) {
    sim::memory::PairConfig cfg;
    cfg.alpn = std::string(version_alpn(GetParam()));
    auto pair = sim::memory::make_pair(executor, cfg);
    ASSERT_TRUE(pair) << pair.error().message;
    client_conn = std::move(pair->client);
    server_conn = std::move(pair->server);
    origin = OriginProducer::create();
    broadcast = BroadcastProducer::create(clock);
    ASSERT_TRUE(origin.publish(Path("live/cam"), broadcast.consume()));
    track = std::move(broadcast.create_track("video").value());
    SessionConfig config;
    if (publish) config.publish = origin.consume();
    config.accept_pushed_tracks = accept_pushed_tracks;
    Connection& mine = session_is_server ? *server_conn : *client_conn;
    Connection& theirs = session_is_server ? *client_conn : *server_conn;
    auto s = ietf::create_ietf_session(mine, GetParam(), config);
    ASSERT_TRUE(s) << s.error().message;
    session = std::move(*s);
    peer = std::make_unique<RawPeer>(theirs, v());
    peer->setup();
    settle();
    // The session's control stream (and SETUP) arrived; keep it to read later GOAWAYs.
    auto unis = peer->accept_unis();
    ASSERT_EQ(unis.size(), 1u);
    session_control = std::move(unis[0]);
    control_in.reset(session_control.get());
    auto setup = control_in.next(v());
    ASSERT_TRUE(setup && std::holds_alternative<w::Setup>(*setup));
  }

  w::IetfVersion v() const { return *w::ietf_version(GetParam()); }

  void settle() {
    RunReport r = executor.run_until_idle(1'000'000);
    ASSERT_FALSE(r.budget_exhausted) << r.detail;
  }

  // The next request of the given kind the session sent; requests of other kinds are kept in
  // other_requests.
  template <class M>
  RawRequest take_request(M& out) {
    for (;;) {
      std::optional<RawRequest> r = peer->accept_request();
      EXPECT_TRUE(r) << "no request stream";
      if (!r) return RawRequest{};
      auto m = r->in.next(v());
      EXPECT_TRUE(m) << "no first message";
      if (!m) return RawRequest{};
      if (const M* want = std::get_if<M>(&*m)) {
        out = *want;
        return std::move(*r);
      }
      other_requests.push_back(std::move(*r));
    }
  }
  RawRequest take_subscribe(w::Subscribe& out) { return take_request(out); }

  std::vector<RawRequest> other_requests;
  bool accept_pushed_tracks = false;  // SessionConfig::accept_pushed_tracks, read by start()
  sim::VirtualClock clock;
  Executor executor{clock};
  std::unique_ptr<sim::memory::MemoryConnection> client_conn, server_conn;
  OriginProducer origin;
  BroadcastProducer broadcast;
  TrackProducer track;
  std::unique_ptr<Session> session;
  std::unique_ptr<RawPeer> peer;
  RecvStreamPtr session_control;
  MessageStream control_in;
};

}  // namespace moq::session::testing
