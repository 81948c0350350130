// The session scenarios' world, on the model bench or the relay bench: publisher sessions and
// viewer sessions over the case's transport (scenarios/world_net.h: sim/memory by default, or
// QUIC), one executor, one clock (virtual, except over real UDP).
//
// Publisher p (0 <= p < publishers) owns an Origin with one broadcast at "bench/pub<p>" holding one
// track "video". Viewer i (0 <= i < viewers) watches publisher i mod publishers. A publisher with
// no viewer (publishers > viewers) still exists but writes nothing.
//  - Model bench (relays = 0): viewer i has its own connection to its publisher: the server end
//    runs a session serving the publisher's origin, the client end the viewer's session.
//  - Relay bench (relays = R >= 1): R relays (model/relay) in a full mesh, one connection per
//    pair peered at both ends. Publisher p connects to relay p mod R and announces its broadcast;
//    viewer i connects to relay (i + 1) mod R, so with more than one relay a viewer never sits on
//    its publisher's relay and its data crosses one peer hop (the Rust session bench's shape).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/runner/delivery.h"
#include "harness/runner/payloads.h"
#include "harness/runner/scenario.h"
#include "harness/runner/stack_probe.h"
#include "model/data/data.h"
#include "model/relay/relay.h"
#include "model/session/session.h"
#include "scenarios/world_net.h"
#include "sim/memory/memory_transport.h"

namespace moq::scenarios {

struct ModelWorldConfig {
  session::Version version = session::Version::Lite06;
  uint32_t publishers = 1;
  uint32_t viewers = 1;
  // The publishers' and relays' track caches (groups kept); the viewers' keep at least as many.
  uint32_t cached_groups = 1;
  uint32_t relays = 0;  // 0: the model bench; R: the relay bench with R relays
  Transport transport = Transport::Memory;
  sim::net::LinkConfig link;  // the network model between every two endpoints (ideal: none)
  // Concurrent bidi streams each endpoint of every connection may open (a moq-lite subscription
  // and a moq-transport-22 request hold one each): sim/memory's default unless a scenario holds
  // more requests than that at once.
  uint32_t max_bidi = sim::memory::PairConfig{}.max_bidi;
  uint64_t conn_window = LinkLimits{}.conn_window;  // per endpoint of every connection
};

struct ModelPublisher {
  OriginProducer origin;
  BroadcastProducer broadcast;
  TrackProducer track;
  Path path;
  uint32_t viewers = 0;  // viewers watching it
  // Relay bench: its connection to its relay and its session (serving its origin).
  Link uplink;
  std::unique_ptr<session::Session> session;
};

// A further broadcast of a publisher (ModelWorld::add_rooms): "room/<index>" with one track.
struct ModelRoom {
  BroadcastProducer broadcast;
  TrackProducer track;
  Path path;
};

struct ModelViewer {
  uint32_t publisher = 0;  // index of the publisher it watches
  uint32_t relay = 0;      // relay bench: the relay it is connected to
  Link conns;
  // Model bench: the server end, serving the publisher's origin. Relay bench: the relay runs the
  // server end (relay_side).
  std::unique_ptr<session::Session> serving;
  session::Session* relay_side = nullptr;
  std::unique_ptr<session::Session> session;  // client end: the viewer
  harness::DeliveryLog log;                   // what it read this round
};

class ModelWorld {
 public:
  // Builds the topology and runs the executor until the sessions are idle.
  Status build(const ModelWorldConfig& config);

  Executor& executor() { return *executor_; }
  // f() as code of `role` (Executor::run_as): a scenario's calls into a viewer's session are
  // the viewer's work, not the harness's.
  template <class F>
  auto as(Role role, F&& f) {
    return executor_->run_as(role, std::forward<F>(f));
  }
  // Runs the executor until the world is quiet (world_net.h: on QUIC, until the network is too).
  Status settle(const char* what);
  std::vector<ModelPublisher>& publishers() { return publishers_; }
  std::vector<ModelViewer>& viewers() { return viewers_; }
  const harness::StackProbe& probe() const { return probe_; }
  bool relayed() const { return !relays_.empty(); }

  // Relay bench: every viewer subscribes to its track once and leaves, so that each relay holds
  // one upstream subscription per track its viewers watch, lingering (RelayConfig::linger_ns; the
  // virtual clock stands still between rounds). A FETCH through a relay is then served from the
  // relay's copy, as on a relay that live viewers keep subscribed.
  Status hold_upstream_subscriptions();
  // Publishes `count` more broadcasts of `publisher`, each with a track "video" that caches
  // ModelWorldConfig::cached_groups groups, and runs the executor until they are announced.
  // Rooms are numbered across publishers in the order they were added: "room/<index>".
  Status add_rooms(uint32_t publisher, uint32_t count);
  std::vector<ModelRoom>& rooms() { return rooms_; }
  const std::vector<ModelRoom>& rooms() const { return rooms_; }
  // Moves virtual time on by ns, firing the timers due (e.g. lingering upstream subscriptions
  // running out), and runs the executor until idle.
  Status pass_time(uint64_t ns);
  // Relay bench: lets virtual time pass beyond the relays' linger twice over, so that a track
  // nobody watches any more is let go by the viewer's relay and then by the publisher's relay,
  // whose last consumer that was (data crosses at most two relays). Nothing on the model bench.
  Status let_relays_go();

  // A viewer connected after build (to its relay on the relay bench), watching `publisher`; it
  // is not counted in the upstream subscriptions a relay is expected to hold.
  Result<ModelViewer*> add_viewer(uint32_t publisher);
  // Takes the last viewer away: the relay's session for it, its sessions and its connection.
  void remove_last_viewer();

  // Relay bench: publisher p's session goes, closing its connection to its relay, which lets its
  // side go (a publisher vanishing); reconnect_publisher() connects it again and announces.
  Status drop_publisher(uint32_t p);
  Status reconnect_publisher(uint32_t p);
  // Ends every session (relays, viewers, publishers), settles, and names what is still alive
  // with only the connections left: streams on a connection, tasks beyond the network's own.
  // Empty: nothing. The world is only good for destruction afterwards.
  std::string teardown_leftovers();

  // Relay bench: from now on each relay must hold the upstream subscriptions it holds now, no
  // more (check_upstream_subscriptions): for a case whose rounds must be served from the relays'
  // copies.
  void expect_current_upstream();
  // Relay bench: empty unless a relay holds other than one upstream subscription per track it
  // copies (checked every round: a duplicate, or one that was dropped and made again, breaks it).
  std::string check_upstream_subscriptions() const;

  // Clears every viewer's delivery log (outside the measured round).
  void clear_logs();
  // Every viewer's delivery, combined in viewer order.
  harness::RoundDelivery delivered() const;

 private:
  // Declared first: destroyed last, after every session and connection that uses them. Made
  // again by build() for a transport with another clock.
  std::unique_ptr<Clock> clock_ = make_world_clock(Transport::Memory);
  std::unique_ptr<Executor> executor_ = std::make_unique<Executor>(*clock_);
  std::unique_ptr<WorldNet> net_;
  std::vector<ModelPublisher> publishers_;
  std::vector<ModelViewer> viewers_;
  std::vector<ModelRoom> rooms_;
  std::vector<Link> mesh_;                   // relay bench: one per pair of relays
  std::vector<uint64_t> expected_upstream_;  // per relay: the tracks it copies
  harness::StackProbe probe_;
  // Last: destroyed first, with the sessions they run over the connections above.
  std::vector<std::unique_ptr<relay::Relay>> relays_;

  ModelWorldConfig config_;

  Status connect_direct(const ModelWorldConfig& config);
  Status connect_relays(const ModelWorldConfig& config);
  // Connects publisher p to relay p mod R and starts its session serving its origin.
  Status connect_publisher(uint32_t p);
  // Connects viewer i: to its publisher (model bench) or to relay (i + 1) mod R.
  Status connect_viewer(size_t i);
  Result<Link> connect();  // a pair over the world's network, speaking its version
  // A session of the world's version on conn, created as code of `role` (its tasks are the
  // role's: model/async/role.h).
  Result<std::unique_ptr<session::Session>> start_session(Role role, Connection& conn,
                                                          const session::SessionConfig& config);
};

// Reads every frame a fetch or group consumer has now into log; Error unless the consumer then
// reports End (the whole group arrived and ended).
template <class Consumer>
Status read_to_end(Consumer& consumer, harness::DeliveryLog& log, const char* what) {
  FrameView frame;
  for (;;) {
    switch (consumer.next(frame)) {
      case Next::Ready:
        log.record(frame.chunks);
        continue;
      case Next::End:
        return {};
      case Next::Pending:
        return Error{0, std::string(what) + " has not ended once the executor went idle (" +
                            std::to_string(log.frames()) + " frames read)"};
      case Next::Aborted:
        return Error{0, std::string(what) + " aborted: " + consumer.error().message};
    }
  }
}

// The session engine of a case's version; an Error unless one implements it.
Result<session::Version> case_version(const std::string& name);

// A case's world: its version (an Error unless a session engine implements it), its publishers
// and viewers axes, and on the relay bench its relays axis; cached_groups keeps its default.
Result<ModelWorldConfig> model_world_config(const harness::CaseSpec& spec);
// model_world_config's rules alone (the transport against the build and the link model), for
// ScenarioDef::check_axes.
Status check_world_axes(const harness::CaseSpec& spec);

}  // namespace moq::scenarios
