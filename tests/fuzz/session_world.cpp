#include "tests/fuzz/session_world.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "model/session/create_session.h"

namespace moq::fuzz {
namespace {

// A settle that has not gone idle after this many polls is a livelock: the sessions' own work
// per operation is a few thousand polls at most.
constexpr uint64_t kStepBudget = 200'000;
// Consumers the world keeps reading; further groups are read once and dropped.
constexpr size_t kMaxConsumers = 256;
// Arrivals one settle may move time to: a script's own traffic arrives in far fewer.
constexpr uint64_t kMaxArrivals = 100'000;
// Longest jump of virtual time one operation makes.
constexpr uint64_t kMaxAdvanceMs = 120'000;

struct Name {
  const char* broadcast;
  const char* track;
};
// What the API operations ask for: the served track, a track it does not have, a broadcast
// nobody serves (but the relay's cluster peer may), and the root.
constexpr Name kNames[] = {{"demo", "video"}, {"demo", "audio"}, {"live/demo", "video"}, {"", ""}};
const Name& name(ScriptReader& in) {
  return kNames[in.byte() % std::size(kNames)];
}

const char* role_name(Role r) {
  switch (r) {
    case Role::kEndpoint:
      return "endpoint";
    case Role::kViewer:
      return "viewer";
    case Role::kRelay:
      return "relay";
  }
  return "?";
}

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// A slot byte chooses among n slots; the byte is read even when there are none.
template <class Ptr>
auto* slot(ScriptReader& in, std::vector<Ptr>& slots) {
  const uint8_t b = in.byte();
  return slots.empty() ? nullptr : slots[b % slots.size()].get();
}

}  // namespace

SessionWorld::SessionWorld(uint8_t version_byte, uint8_t setup_byte,
                           std::optional<sim::net::LinkConfig> link) {
  const std::span<const session::Version> versions = session::implemented_versions();
  version_ = versions[version_byte % versions.size()];
  role_ = setup_role(setup_byte);
  client_ = (setup_byte & 1) != 0;
  if (link) network_ = std::make_unique<sim::net::Network>(executor_, std::move(*link));

  broadcast_ = BroadcastProducer::create(clock_);
  track_ = must(broadcast_.create_track("video"), "create_track");
  if (!origin_.publish(Path("demo"), broadcast_.consume()).ok()) fail("publishing the broadcast");

  // Small windows and stream limits, so that flow control and the limits are within a script's
  // reach.
  sim::memory::PairConfig config;
  config.alpn = std::string(session::version_alpn(version_));
  config.stream_window = 16 << 10;
  config.conn_window = 64 << 10;
  config.max_uni = 64;
  config.max_bidi = 16;
  config.network = network_.get();
  const size_t pair_count = role_ == Role::kRelay ? 3 : 1;
  for (size_t i = 0; i < pair_count; ++i)
    pairs_.push_back(must(sim::memory::make_pair(executor_, config), "make_pair"));
  sim::memory::ConnectionPair& hostile = pairs_[0];

  if (role_ != Role::kRelay) {
    session::SessionConfig cfg;
    if (role_ == Role::kEndpoint) cfg.publish = origin_.consume();
    cfg.hop_id = 0x5eed;
    Connection& under = client_ ? *hostile.client : *hostile.server;
    peer_conn_ = client_ ? hostile.server.get() : hostile.client.get();
    sessions_.push_back(must(session::create_session(under, version_, cfg), "create_session"));
    under_test_ = sessions_.back().get();
    api_session_ = under_test_;
    return;
  }
  // The relay: the hostile peer is a client (or, with the client bit, a cluster peer the relay
  // dialled); a real publisher serves the broadcast, and a real viewer makes the API calls.
  relay_ = std::make_unique<relay::Relay>(executor_);
  under_test_ = client_ ? must(relay_->add_peer(*hostile.client), "relay add_peer")
                        : must(relay_->add(*hostile.server), "relay add");
  peer_conn_ = client_ ? hostile.server.get() : hostile.client.get();
  session::SessionConfig pub;
  pub.publish = origin_.consume();
  pub.hop_id = 0x9b;
  sessions_.push_back(must(session::create_session(*pairs_[1].client, version_, pub), "publisher"));
  must(relay_->add(*pairs_[1].server), "relay add publisher");
  session::SessionConfig view;
  view.hop_id = 0x7e;
  sessions_.push_back(must(session::create_session(*pairs_[2].client, version_, view), "viewer"));
  must(relay_->add(*pairs_[2].server), "relay add viewer");
  api_session_ = sessions_.back().get();
}

SessionWorld::~SessionWorld() = default;

void SessionWorld::fail(const std::string& what) const {
  std::fprintf(stderr, "session fuzz (%s, %s, session under test is the %s): %s\n",
               std::string(session::version_name(version_)).c_str(), role_name(role_),
               client_ ? "client" : "server", what.c_str());
  std::abort();
}

void SessionWorld::play(ScriptReader& in) {
  while (!in.done())
    step(in);
}

void SessionWorld::step(ScriptReader& in, bool peer_ops) {
  const Op op = static_cast<Op>(in.byte() % kOpCount);
  if (op < Op::kAdvance) {
    if (!peer_ops) fail("a peer operation in a script played beside a real peer");
    play_peer_op(op, in);
  } else if (op == Op::kAdvance) {
    const uint64_t ms = in.number() % (kMaxAdvanceMs + 1);
    const RunReport r = executor_.advance_to(clock_.now_ns() + ms * 1'000'000, kStepBudget);
    if (r.budget_exhausted) fail("livelock while time advanced: " + r.detail);
  } else if (op < Op::kNewGroup) {
    play_api_op(op, in);
  } else {
    play_track_op(op, in);
  }
  settle();
}

void SessionWorld::keep(Result<BidiStream> b) {
  if (!b.ok() || !b.value()) return;
  sends_.push_back(std::move(b.value().send));
  recvs_.push_back(std::move(b.value().recv));
}

void SessionWorld::play_peer_op(Op op, ScriptReader& in) {
  Connection& c = *peer_conn_;
  switch (op) {
    case Op::kOpenUni:
      if (Result<SendStreamPtr> s = c.open_uni(); s.ok() && s.value())
        sends_.push_back(std::move(s.value()));
      break;
    case Op::kOpenBidi:
      keep(c.open_bidi());
      break;
    case Op::kAcceptUni:
      if (Result<RecvStreamPtr> s = c.accept_uni(); s.ok() && s.value())
        recvs_.push_back(std::move(s.value()));
      break;
    case Op::kAcceptBidi:
      keep(c.accept_bidi());
      break;
    case Op::kWrite: {
      SendStream* s = slot(in, sends_);
      const std::span<const uint8_t> bytes = in.payload();
      if (s) {
        BufChain chain;
        chain.push(Bytes::copy(bytes));
        (void)s->write(chain);
      }
      break;
    }
    case Op::kFinish:
      if (SendStream* s = slot(in, sends_)) (void)s->finish();
      break;
    case Op::kReset: {
      SendStream* s = slot(in, sends_);
      const uint64_t code = in.number();
      if (s) (void)s->reset(code);
      break;
    }
    case Op::kStop: {
      RecvStream* r = slot(in, recvs_);
      const uint64_t code = in.number();
      if (r) r->stop(code);
      break;
    }
    case Op::kRead: {
      RecvStream* r = slot(in, recvs_);
      const uint64_t max = in.number();
      Bytes chunk;
      if (r) (void)r->read(chunk, max == 0 ? SIZE_MAX : static_cast<size_t>(max));
      break;
    }
    case Op::kDropSend: {
      const uint8_t b = in.byte();
      if (!sends_.empty()) sends_[b % sends_.size()].reset();
      break;
    }
    case Op::kDropRecv: {
      const uint8_t b = in.byte();
      if (!recvs_.empty()) recvs_[b % recvs_.size()].reset();
      break;
    }
    case Op::kDatagram:
      (void)c.send_datagram(Bytes::copy(in.payload()));
      break;
    case Op::kClose:
      c.close(in.number(), "hostile peer closed");
      break;
    default:
      fail("not a peer operation");
  }
}

template <class T>
void SessionWorld::hold(Result<T> made) {
  if (made.ok() && consumers_.size() < kMaxConsumers)
    consumers_.emplace_back(std::move(made.value()));
}

void SessionWorld::play_api_op(Op op, ScriptReader& in) {
  session::Session& s = *api_session_;
  switch (op) {
    case Op::kSubscribe: {
      const Name& n = name(in);
      hold(s.subscribe(Path(n.broadcast), n.track));
      break;
    }
    case Op::kFetch: {
      const Name& n = name(in);
      const uint64_t group = in.number();
      session::FetchOptions options;
      options.frame_start = in.number();
      hold(s.fetch(Path(n.broadcast), n.track, group, options));
      break;
    }
    case Op::kAnnounced:
      hold(s.announced(Path(name(in).broadcast)));
      break;
    case Op::kTrackInfo: {
      const Name& n = name(in);
      hold(s.track_info(Path(n.broadcast), n.track));
      break;
    }
    case Op::kGoaway:
      (void)s.goaway("");
      break;
    case Op::kAuthenticate:
      hold(s.authenticate(in.payload()));
      break;
    case Op::kSessionClose:
      s.close(in.number(), "closed by the script");
      break;
    case Op::kDropConsumer: {
      const uint8_t b = in.byte();
      if (!consumers_.empty()) consumers_.erase(consumers_.begin() + b % consumers_.size());
      break;
    }
    default:
      fail("not an API operation");
  }
}

void SessionWorld::play_track_op(Op op, ScriptReader& in) {
  switch (op) {
    case Op::kNewGroup:
      if (Result<GroupProducer> g = track_.create_group(next_group_++); g.ok())
        group_ = std::move(g.value());
      break;
    case Op::kWriteFrame: {
      const std::span<const uint8_t> bytes = in.payload();
      if (group_) (void)group_.write_frame(next_timestamp_++, Bytes::copy(bytes));
      break;
    }
    case Op::kFinishGroup:
      if (group_) (void)group_.finish();
      break;
    case Op::kEndTrack:
      (void)track_.finish();
      break;
    default:
      fail("not a track operation");
  }
}

bool SessionWorld::drain(size_t index) {
  std::vector<GroupConsumer> groups;
  const bool ended = std::visit(Overloaded{
                                    [&](TrackConsumer& t) {
                                      GroupConsumer g;
                                      Next n;
                                      while ((n = t.next(g)) == Next::Ready)
                                        groups.push_back(std::move(g));
                                      return n != Next::Pending;
                                    },
                                    [](GroupConsumer& g) {
                                      FrameView f;
                                      Next n;
                                      while ((n = g.next(f)) == Next::Ready) {
                                      }
                                      return n != Next::Pending;
                                    },
                                    [](session::FetchConsumer& c) {
                                      FrameView f;
                                      Next n;
                                      while ((n = c.next(f)) == Next::Ready) {
                                      }
                                      return n != Next::Pending;
                                    },
                                    [](AnnounceConsumer& a) {
                                      AnnounceEvent e;
                                      Next n;
                                      while ((n = a.next(e)) == Next::Ready) {
                                      }
                                      return n != Next::Pending;
                                    },
                                    [](const auto& reply) { return reply.done(); },
                                },
                                consumers_[index]);
  for (GroupConsumer& g : groups) {
    consumers_.emplace_back(std::move(g));
    if (consumers_.size() > kMaxConsumers) {
      drain(consumers_.size() - 1);
      consumers_.pop_back();
    }
  }
  return ended;
}

void SessionWorld::run_and_read() {
  const RunReport r = executor_.run_until_idle(kStepBudget);
  if (r.budget_exhausted) fail("livelock: still runnable after the step budget: " + r.detail);
  for (size_t i = 0; i < consumers_.size(); ++i)
    drain(i);
}

void SessionWorld::settle() {
  // Reading a consumer can wake the session (credit, cursors), so run once more after reading.
  run_and_read();
  run_and_read();
  // On a shaped network, time then moves to each arrival until nothing is on the way.
  for (uint64_t arrivals = 0; network_ && network_->in_flight() > 0; ++arrivals) {
    if (arrivals == kMaxArrivals)
      fail("livelock: still sending after " + std::to_string(arrivals) + " arrivals");
    const RunReport moved = executor_.advance_to(network_->next_due(), kStepBudget);
    if (moved.budget_exhausted) fail("livelock at an arrival: " + moved.detail);
    run_and_read();
  }
}

session::SessionCounters SessionWorld::finish() {
  if (!peer_conn_->close_error()) peer_conn_->close(0, "the script ended");
  settle();
  const session::SessionCounters counters = under_test_->counters();
  // The relay's viewer keeps its requests open while the relay runs: the relay goes first.
  if (relay_) {
    relay_.reset();
    settle();
  }
  std::string waiting;
  for (size_t i = 0; i < consumers_.size(); ++i)
    if (!drain(i))
      waiting += " #" + std::to_string(i) + " (kind " + std::to_string(consumers_[i].index()) + ")";
  if (!waiting.empty()) fail("consumers still waiting after the session closed:" + waiting);

  consumers_.clear();
  sends_.clear();
  recvs_.clear();
  group_ = GroupProducer();
  track_ = TrackProducer();
  broadcast_ = BroadcastProducer();
  sessions_.clear();
  settle();
  // The network's delivery task lives as long as the network.
  const size_t network_tasks = network_ ? 1 : 0;
  if (executor_.live_tasks() != network_tasks)
    fail(std::to_string(executor_.live_tasks()) + " tasks left after teardown (" +
         std::to_string(network_tasks) + " expected: the network's):\n" +
         executor_.describe_parked());
  for (const sim::memory::ConnectionPair& p : pairs_)
    if (p.client->live_streams() != 0)
      fail(std::to_string(p.client->live_streams()) + " streams left after teardown");
  return counters;
}

sim::net::LinkConfig shaped_link(ScriptReader& in) {
  sim::net::LinkConfig link;
  link.latency_ns = uint64_t{in.byte() % 51u} * 1'000'000;
  link.jitter_ns = uint64_t{in.byte() % 21u} * 1'000'000;
  link.bandwidth_bps = uint64_t{in.byte()} * 100'000;
  link.loss = static_cast<double>(in.byte() % 50) / 100;
  link.seed = in.byte();
  return link;
}

session::SessionCounters play_script(std::span<const uint8_t> script) {
  ScriptReader in(script);
  const uint8_t version = in.byte();
  const uint8_t setup = in.byte();
  std::optional<sim::net::LinkConfig> link;
  if (setup & kSetupShaped) link = shaped_link(in);
  SessionWorld world(version, setup, std::move(link));
  world.settle();
  world.play(in);
  return world.finish();
}

}  // namespace moq::fuzz
