// The world of the relay tests: one relay, or a full mesh of relays (model/relay/relay.h,
// "Clusters"), and clients of any version connected to them over sim::memory.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "model/relay/relay.h"
#include "model/session/create_session.h"
#include "sim/net/network.h"
#include "tests/session_lite/session_fixture.h"

namespace moq::test {

// A client endpoint connected to a relay: its session, and the origin it publishes from.
struct Client {
  sim::memory::ConnectionPair conns;
  OriginProducer origin = OriginProducer::create();
  std::unique_ptr<session::Session> session;
  session::Session* relay_side = nullptr;  // the relay's session for this client
};

class RelayWorld {
 public:
  // One relay.
  explicit RelayWorld(relay::RelayConfig config = {})
      : RelayWorld(1, session::implemented_versions().front(), config) {}
  // relay_count relays peered in a full mesh, each pair over one connection of mesh_version
  // (the server end at the lower index, as scenarios/model_world.cpp builds it). Relay r has
  // Hop ID config.hop_id + r: distinct, as a cluster needs.
  RelayWorld(size_t relay_count, Version mesh_version, relay::RelayConfig config = {})
      : relays(make_relays(executor, relay_count, config)), relay(*relays.front()) {
    for (size_t b = 0; b < relay_count; ++b) {
      for (size_t a = 0; a < b; ++a) {
        sim::memory::ConnectionPair& link = mesh.emplace_back(make_connections(mesh_version));
        auto at_a = relays[a]->add_peer(*link.server);
        EXPECT_TRUE(at_a.ok()) << (at_a.ok() ? "" : at_a.error().message);
        auto at_b = relays[b]->add_peer(*link.client);
        EXPECT_TRUE(at_b.ok()) << (at_b.ok() ? "" : at_b.error().message);
      }
    }
  }
  RelayWorld(const RelayWorld&) = delete;
  RelayWorld& operator=(const RelayWorld&) = delete;

  // A client of `version` on relay `at`: a publisher serves its origin, a viewer serves nothing;
  // announce_hidden asks for hidden broadcasts too (SessionConfig::announce_hidden).
  // With a link that is not ideal, the client's connection runs over a sim/net network of its
  // own: its bytes arrive as the virtual clock reaches them.
  Client& connect(Version version, bool publishes, size_t at = 0, bool announce_hidden = false,
                  const sim::net::LinkConfig& link = {}) {
    auto c = std::make_unique<Client>();
    sim::net::Network* network = nullptr;
    if (!link.ideal())
      network = networks.emplace_back(std::make_unique<sim::net::Network>(executor, link)).get();
    c->conns = make_connections(version, network);
    auto relay_side = relays.at(at)->add(*c->conns.server);
    EXPECT_TRUE(relay_side.ok()) << (relay_side.ok() ? "" : relay_side.error().message);
    c->relay_side = relay_side.ok() ? *relay_side : nullptr;
    session::SessionConfig config;
    if (publishes) config.publish = c->origin.consume();
    config.hop_id = 0x100 + clients.size();
    config.announce_hidden = announce_hidden;
    auto s = session::create_session(*c->conns.client, std::move(config));
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
    c->session = std::move(s.value());
    clients.push_back(std::move(c));
    return *clients.back();
  }

  // A client connection on relay `at` whose end runs no session: the test speaks for it (a raw
  // moq-transport peer, tests/session_ietf/raw_peer.h).
  Client& connect_raw(Version version, size_t at = 0) {
    auto c = std::make_unique<Client>();
    c->conns = make_connections(version);
    auto relay_side = relays.at(at)->add(*c->conns.server);
    EXPECT_TRUE(relay_side.ok()) << (relay_side.ok() ? "" : relay_side.error().message);
    c->relay_side = relay_side.ok() ? *relay_side : nullptr;
    clients.push_back(std::move(c));
    return *clients.back();
  }

  void settle() { settle_executor(executor); }

  struct Published {
    BroadcastProducer broadcast;
    TrackProducer track;
  };
  Published publish(Client& c, const std::string& path) {
    Published p;
    p.broadcast = BroadcastProducer::create(clock);
    p.track = std::move(p.broadcast.create_track("video", TrackInfo{}).value());
    EXPECT_TRUE(c.origin.publish(Path(path), p.broadcast.consume()).ok());
    return p;
  }

  sim::VirtualClock clock;
  Executor executor{clock};
  // Before the connections that run over them: they outlive them.
  std::vector<std::unique_ptr<sim::net::Network>> networks;
  // Before the relays: their sessions run on these connections, so they must outlive them.
  std::vector<std::unique_ptr<Client>> clients;
  std::vector<sim::memory::ConnectionPair> mesh;  // one per pair of relays
  std::vector<std::unique_ptr<relay::Relay>> relays;
  relay::Relay& relay;  // the first (the only one of a one-relay world)

 private:
  sim::memory::ConnectionPair make_connections(Version version,
                                               sim::net::Network* network = nullptr) {
    sim::memory::PairConfig cfg;
    cfg.network = network;
    cfg.alpn = std::string(session::version_alpn(version));
    auto made = sim::memory::make_pair(executor, cfg);
    EXPECT_TRUE(made.ok());
    return made.ok() ? std::move(made.value()) : sim::memory::ConnectionPair{};
  }
  static std::vector<std::unique_ptr<relay::Relay>> make_relays(Executor& executor, size_t count,
                                                                relay::RelayConfig config) {
    std::vector<std::unique_ptr<relay::Relay>> out;
    for (size_t r = 0; r < count; ++r) {
      relay::RelayConfig own = config;
      own.hop_id = config.hop_id + r;
      out.push_back(std::make_unique<relay::Relay>(executor, own));
    }
    return out;
  }
};

// Reads the next group of a subscription whole: its sequence, its frames and its end.
inline void expect_next_group(TrackConsumer& track, uint64_t sequence, uint64_t frames) {
  GroupConsumer group;
  ASSERT_EQ(track.next(group), Next::Ready) << "group " << sequence;
  EXPECT_EQ(group.sequence(), sequence);
  Drained d = drain_frames(group);
  EXPECT_EQ(d.last, Next::End) << "group " << sequence;
  ASSERT_EQ(d.frames.size(), frames) << "group " << sequence;
  for (uint64_t f = 0; f < frames; ++f)
    EXPECT_EQ(d.frames[f], payload(sequence, f));
}

// The groups 0 .. count-1 of a subscription, each read whole.
inline void expect_groups(TrackConsumer& track, uint64_t count, uint64_t frames) {
  for (uint64_t g = 0; g < count; ++g)
    ASSERT_NO_FATAL_FAILURE(expect_next_group(track, g, frames));
}

}  // namespace moq::test
