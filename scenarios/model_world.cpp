#include "scenarios/model_world.h"

#include <algorithm>
#include <set>

#include "model/session/create_session.h"
#include "scenarios/bench_util.h"

namespace moq::scenarios {

Result<session::Version> case_version(const std::string& name) {
  std::optional<session::Version> v = session::parse_version(name);
  if (!v) return Error{0, "version '" + name + "' has no session engine"};
  return *v;
}

Result<ModelWorldConfig> model_world_config(const harness::CaseSpec& spec) {
  Result<session::Version> version = case_version(spec.version());
  if (!version) return version.error();
  ModelWorldConfig config;
  config.version = *version;
  config.publishers = static_cast<uint32_t>(spec.integer("publishers"));
  config.viewers = static_cast<uint32_t>(spec.integer("viewers"));
  if (spec.bench() == "relay") config.relays = static_cast<uint32_t>(spec.integer("relays"));
  Result<Transport> transport = transport_of(spec);
  if (!transport) return transport.error();
  config.transport = *transport;
  Result<sim::net::LinkConfig> link = link_of(spec, *transport);
  if (!link) return link.error();
  config.link = std::move(*link);
  return config;
}

Status check_world_axes(const harness::CaseSpec& spec) {
  Result<ModelWorldConfig> config = model_world_config(spec);
  if (!config) return config.error();
  return {};
}

Status ModelWorld::build(const ModelWorldConfig& config) {
  if (config.transport != Transport::Memory) {
    executor_.reset();
    clock_ = make_world_clock(config.transport);
    executor_ = std::make_unique<Executor>(*clock_);
  }
  // The network's own tasks (quic-sim's links) work for the transport role.
  net_ = executor_->run_as(
      Role::kTransport, [&] { return make_world_net(config.transport, *executor_, config.link); });
  probe_.set_executor(executor_.get());
  publishers_.resize(config.publishers);
  for (uint32_t p = 0; p < config.publishers; ++p) {
    ModelPublisher& pub = publishers_[p];
    pub.origin = OriginProducer::create();
    pub.broadcast = BroadcastProducer::create(*clock_);
    TrackInfo info;
    info.cache.max_groups = config.cached_groups;
    Result<TrackProducer> track = pub.broadcast.create_track("video", info);
    if (!track) return Error{0, "publisher " + std::to_string(p) + ": " + track.error().message};
    pub.track = std::move(*track);
    pub.path = Path("bench/pub" + std::to_string(p));
    if (Status st = pub.origin.publish(pub.path, pub.broadcast.consume()); !st)
      return Error{0, "publisher " + std::to_string(p) + ": " + st.error().message};
  }
  viewers_.resize(config.viewers);
  for (uint32_t i = 0; i < config.viewers; ++i) {
    viewers_[i].publisher = i % config.publishers;
    ++publishers_[viewers_[i].publisher].viewers;
  }
  config_ = config;
  Status st = config.relays == 0 ? connect_direct(config) : connect_relays(config);
  if (!st) return st;
  return settle("connecting the sessions");
}

Status ModelWorld::settle(const char* what) {
  return net_->settle(what, kRoundStepBudget);
}

Result<Link> ModelWorld::connect() {
  // The transport's own tasks (QUIC connections) work for the transport role.
  return executor_->run_as(Role::kTransport, [&] {
    return net_->connect(std::string(session::version_alpn(config_.version)),
                         LinkLimits{config_.max_bidi, config_.conn_window});
  });
}

Result<std::unique_ptr<session::Session>> ModelWorld::start_session(
    Role role, Connection& conn, const session::SessionConfig& config) {
  return executor_->run_as(role,
                           [&] { return session::create_session(conn, config_.version, config); });
}

Status ModelWorld::connect_direct(const ModelWorldConfig& config) {
  for (uint32_t i = 0; i < config.viewers; ++i)
    if (Status st = connect_viewer(i); !st) return st;
  return {};
}

Status ModelWorld::connect_relays(const ModelWorldConfig& config) {
  const uint32_t count = config.relays;
  for (uint32_t r = 0; r < count; ++r) {
    relay::RelayConfig rc;
    rc.hop_id = 0x4e1a + r;
    rc.cache.max_groups = config.cached_groups;
    relays_.push_back(executor_->run_as(
        Role::kRelay, [&] { return std::make_unique<relay::Relay>(*executor_, rc); }));
  }
  // The mesh: relay b dials relay a for every a < b; both ends are peers.
  for (uint32_t b = 0; b < count; ++b) {
    for (uint32_t a = 0; a < b; ++a) {
      const std::string what = "relays " + std::to_string(a) + " and " + std::to_string(b);
      Result<Link> conns = connect();
      if (!conns) return Error{0, what + ": " + conns.error().message};
      mesh_.push_back(std::move(*conns));
      Link& link = mesh_.back();
      if (auto s =
              executor_->run_as(Role::kRelay, [&] { return relays_[a]->add_peer(*link.server); });
          !s)
        return Error{0, what + ": " + s.error().message};
      if (auto s =
              executor_->run_as(Role::kRelay, [&] { return relays_[b]->add_peer(*link.client); });
          !s)
        return Error{0, what + ": " + s.error().message};
      probe_.watch(*link.server);
      probe_.watch(*link.client);
    }
  }
  for (uint32_t p = 0; p < config.publishers; ++p)
    if (Status st = connect_publisher(p); !st) return st;
  // Each relay copies the track of every publisher its viewers watch, and the track of every
  // publisher on it that anyone watches (for its peers, if not its own viewers).
  std::vector<std::set<uint32_t>> copied(count);
  for (uint32_t i = 0; i < config.viewers; ++i) {
    if (Status st = connect_viewer(i); !st) return st;
    copied[viewers_[i].relay].insert(viewers_[i].publisher);
    copied[viewers_[i].publisher % count].insert(viewers_[i].publisher);
  }
  for (const std::set<uint32_t>& tracks : copied)
    expected_upstream_.push_back(tracks.size());
  return {};
}

Status ModelWorld::connect_publisher(uint32_t p) {
  ModelPublisher& pub = publishers_[p];
  const std::string what = "publisher " + std::to_string(p);
  Result<Link> conns = connect();
  if (!conns) return Error{0, what + ": " + conns.error().message};
  pub.uplink = std::move(*conns);
  relay::Relay& relay = *relays_[p % relays_.size()];
  if (auto s = executor_->run_as(Role::kRelay, [&] { return relay.add(*pub.uplink.server); }); !s)
    return Error{0, what + ": " + s.error().message};
  session::SessionConfig serve;
  serve.publish = pub.origin.consume();
  serve.hop_id = 1000 + p;
  Result<std::unique_ptr<session::Session>> s =
      start_session(Role::kPublisher, *pub.uplink.client, serve);
  if (!s) return Error{0, what + ": " + s.error().message};
  pub.session = std::move(*s);
  probe_.watch(*pub.uplink.server);
  probe_.watch(*pub.uplink.client);
  return {};
}

Status ModelWorld::drop_publisher(uint32_t p) {
  ModelPublisher& pub = publishers_[p];
  if (!pub.session) return Error{0, "publisher " + std::to_string(p) + " has no relay session"};
  // Its session goes (closing the connection); the relay ends its side and lets it go by itself.
  executor_->run_as(Role::kPublisher, [&] { pub.session.reset(); });
  if (Status st = settle("dropping a publisher"); !st) return st;
  probe_.unwatch(*pub.uplink.server);
  probe_.unwatch(*pub.uplink.client);
  executor_->run_as(Role::kTransport, [&] { pub.uplink = Link{}; });
  return {};
}

Status ModelWorld::reconnect_publisher(uint32_t p) {
  if (Status st = connect_publisher(p); !st) return st;
  return settle("reconnecting a publisher");
}

std::string ModelWorld::teardown_leftovers() {
  // Every session goes first (relays, then viewers and the sessions serving them, then the
  // publishers'), the connections stay to be asked what they still hold.
  executor_->run_as(Role::kRelay, [&] { relays_.clear(); });
  for (ModelViewer& v : viewers_) {
    executor_->run_as(Role::kViewer, [&] { v.session.reset(); });
    executor_->run_as(Role::kPublisher, [&] { v.serving.reset(); });
  }
  for (ModelPublisher& pub : publishers_)
    executor_->run_as(Role::kPublisher, [&] { pub.session.reset(); });
  if (Status st = settle("tearing down"); !st) return st.error().message;
  std::string left;
  auto count = [&](const std::unique_ptr<Connection>& c) {
    auto* m = dynamic_cast<const sim::memory::MemoryConnection*>(c.get());
    if (m && m->live_streams() != 0)
      left += std::to_string(m->live_streams()) + " streams left on a connection; ";
  };
  auto count_link = [&](const Link& l) {
    count(l.client);
    count(l.server);
  };
  for (const ModelViewer& v : viewers_)
    count_link(v.conns);
  for (const ModelPublisher& pub : publishers_)
    count_link(pub.uplink);
  for (const Link& l : mesh_)
    count_link(l);
  const size_t tasks = executor_->live_tasks();
  if (tasks > net_->own_tasks())
    left +=
        std::to_string(tasks - net_->own_tasks()) + " tasks left: " + executor_->describe_parked();
  return left;
}

Status ModelWorld::connect_viewer(size_t i) {
  ModelViewer& v = viewers_[i];
  const std::string what = "viewer " + std::to_string(i);
  Result<Link> conns = connect();
  if (!conns) return Error{0, what + ": " + conns.error().message};
  v.conns = std::move(*conns);
  if (relays_.empty()) {
    session::SessionConfig serve;
    serve.publish = publishers_[v.publisher].origin.consume();
    serve.hop_id = 1000 + v.publisher;
    Result<std::unique_ptr<session::Session>> s =
        start_session(Role::kPublisher, *v.conns.server, serve);
    if (!s) return Error{0, "publisher session for " + what + ": " + s.error().message};
    v.serving = std::move(*s);
  } else {
    v.relay = static_cast<uint32_t>((i + 1) % relays_.size());
    Result<session::Session*> s =
        executor_->run_as(Role::kRelay, [&] { return relays_[v.relay]->add(*v.conns.server); });
    if (!s) return Error{0, what + ": " + s.error().message};
    v.relay_side = *s;
  }
  session::SessionConfig view;
  view.hop_id = 2000 + i;
  view.peer_track_cache.max_groups =
      std::max(view.peer_track_cache.max_groups, config_.cached_groups);
  Result<std::unique_ptr<session::Session>> s = start_session(Role::kViewer, *v.conns.client, view);
  if (!s) return Error{0, what + " session: " + s.error().message};
  v.session = std::move(*s);
  probe_.watch(*v.conns.server);
  probe_.watch(*v.conns.client);
  return {};
}

Result<ModelViewer*> ModelWorld::add_viewer(uint32_t publisher) {
  viewers_.emplace_back();
  viewers_.back().publisher = publisher;
  if (Status st = connect_viewer(viewers_.size() - 1); !st) {
    viewers_.pop_back();
    return st.error();
  }
  return &viewers_.back();
}

void ModelWorld::remove_last_viewer() {
  ModelViewer& v = viewers_.back();
  probe_.unwatch(*v.conns.server);
  probe_.unwatch(*v.conns.client);
  if (v.relay_side)
    executor_->run_as(Role::kRelay, [&] { relays_[v.relay]->remove(*v.relay_side); });
  // In the order the viewer's members would go, each as work of its role.
  executor_->run_as(Role::kViewer, [&] { v.session.reset(); });
  executor_->run_as(Role::kPublisher, [&] { v.serving.reset(); });
  executor_->run_as(Role::kTransport, [&] {
    v.conns.server.reset();
    v.conns.client.reset();
  });
  viewers_.pop_back();
}

Status ModelWorld::add_rooms(uint32_t publisher, uint32_t count) {
  rooms_.reserve(rooms_.size() + count);
  for (uint32_t b = 0; b < count; ++b) {
    ModelRoom room;
    room.broadcast = BroadcastProducer::create(*clock_);
    TrackInfo info;
    info.cache.max_groups = config_.cached_groups;
    Result<TrackProducer> track = room.broadcast.create_track("video", info);
    if (!track) return track.error();
    room.track = std::move(*track);
    room.path = Path("room/" + std::to_string(rooms_.size()));
    if (Status st = publishers_[publisher].origin.publish(room.path, room.broadcast.consume()); !st)
      return Error{0, room.path.str() + ": " + st.error().message};
    rooms_.push_back(std::move(room));
  }
  return settle("announcing the rooms");
}

Status ModelWorld::pass_time(uint64_t ns) {
  return net_->pass_time(ns, kRoundStepBudget);
}

Status ModelWorld::let_relays_go() {
  if (relays_.empty()) return {};
  // Each hop's cancel reaches the next relay after the linger and, on QUIC, after the packets
  // carrying it arrive (settle), before that relay's linger starts.
  for (int relay_hop = 0; relay_hop < 2; ++relay_hop) {
    if (Status st = pass_time(relay::RelayConfig{}.linger_ns + 1); !st) return st;
    if (Status st = settle("letting the relays go"); !st) return st;
  }
  return {};
}

Status ModelWorld::hold_upstream_subscriptions() {
  std::vector<TrackConsumer> once(viewers_.size());
  for (size_t i = 0; i < viewers_.size(); ++i) {
    Result<TrackConsumer> t =
        viewers_[i].session->subscribe(publishers_[viewers_[i].publisher].path, "video");
    if (!t) return Error{0, "viewer " + std::to_string(i) + ": subscribe: " + t.error().message};
    once[i] = std::move(*t);
  }
  if (Status st = settle("subscribing through the relays"); !st) return st;
  once.clear();
  return settle("leaving the subscriptions");
}

void ModelWorld::expect_current_upstream() {
  for (size_t r = 0; r < relays_.size(); ++r)
    expected_upstream_[r] = relays_[r]->upstream_subscriptions();
}

std::string ModelWorld::check_upstream_subscriptions() const {
  for (size_t r = 0; r < relays_.size(); ++r) {
    const uint64_t held = relays_[r]->upstream_subscriptions();
    if (held != expected_upstream_[r])
      return "relay " + std::to_string(r) + " opened " + std::to_string(held) +
             " upstream subscriptions for the " + std::to_string(expected_upstream_[r]) +
             " tracks it copies (one each, made once)";
  }
  return {};
}

void ModelWorld::clear_logs() {
  for (ModelViewer& v : viewers_)
    v.log.clear();
}

harness::RoundDelivery ModelWorld::delivered() const {
  harness::DeliveryCombiner all;
  for (const ModelViewer& v : viewers_)
    all.add(v.log.delivery());
  return all.result();
}

}  // namespace moq::scenarios
