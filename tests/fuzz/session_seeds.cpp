#include "tests/fuzz/session_seeds.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <utility>

#include "model/session/create_session.h"
#include "tests/fuzz/recording_connection.h"
#include "tests/fuzz/session_world.h"

namespace moq::fuzz {
namespace {

std::span<const uint8_t> text(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// A world whose peer is a real session over a RecordingConnection. The world's own operations
// (API calls, the served track's writes) are written into the script and played through the
// interpreter, so that a replay makes the same calls.
class Recording {
 public:
  Recording(uint8_t version_index, Role role, bool client)
      : script_(version_index, setup_byte(role, client)),
        world_(version_index, setup_byte(role, client)),
        conn_(world_.peer_connection(), script_) {}

  // The peer as a publisher of its own broadcast.
  session::Session& start_publishing_peer(const OriginProducer& origin) {
    session::SessionConfig config;
    config.publish = origin.consume();
    return start_peer(std::move(config));
  }
  session::Session& start_peer(session::SessionConfig config = {}) {
    config.hop_id = 0xbee;
    peer_ = must(session::create_session(conn_, world_.version(), std::move(config)), "peer");
    world_.settle();
    return *peer_;
  }
  // Plays ops one at a time, each written into the script before what the peer did in
  // response (the peer's operations are recorded while the world settles after the op).
  void ops(const ScriptWriter& ops) {
    ScriptReader in(ops.bytes());
    while (!in.done()) {
      const size_t at = script_.bytes().size();
      const size_t before = in.remaining();
      world_.step(in, /*peer_ops=*/false);
      const size_t offset = ops.bytes().size() - before;
      script_.insert(at, std::span(ops.bytes()).subspan(offset, before - in.remaining()));
    }
  }
  void settle() { world_.settle(); }
  Clock& clock() { return world_.executor().clock(); }
  std::string_view version_name() const { return session::version_name(world_.version()); }

  // The real peer goes (dropping its streams and closing: recorded), then the world's checks.
  SessionSeed finish(std::string_view scenario) {
    peer_.reset();
    world_.settle();
    SessionSeed seed;
    seed.name = std::string(version_name()) + "-" + std::string(scenario);
    seed.recorded = world_.finish();
    seed.script = script_.bytes();
    return seed;
  }

 private:
  ScriptWriter script_;
  SessionWorld world_;
  RecordingConnection conn_;
  std::unique_ptr<session::Session> peer_;
};

// A group of the served track: frames "g<group>f<i>".
ScriptWriter served_group(uint64_t group, int frames) {
  ScriptWriter w;
  w.op(Op::kNewGroup);
  for (int f = 0; f < frames; ++f)
    w.op(Op::kWriteFrame).payload(text("g" + std::to_string(group) + "f" + std::to_string(f)));
  w.op(Op::kFinishGroup);
  return w;
}

// The peer's own broadcast, for the scenarios where the peer publishes.
struct PeerBroadcast {
  PeerBroadcast(Clock& clock, const char* path) {
    broadcast = BroadcastProducer::create(clock);
    track = must(broadcast.create_track("video"), "peer track");
    (void)origin.publish(Path(path), broadcast.consume());
  }
  void write_group(uint64_t g, int frames) {
    GroupProducer group = must(track.create_group(g), "peer group");
    for (int f = 0; f < frames; ++f)
      (void)group.write_frame(f, Bytes::copy("p" + std::to_string(g) + "." + std::to_string(f)));
    (void)group.finish();
  }
  OriginProducer origin = OriginProducer::create();
  BroadcastProducer broadcast;
  TrackProducer track;
};

// The session under test serves the broadcast; the peer views it every way it can.
SessionSeed endpoint_serves_a_viewer(uint8_t v, bool client) {
  Recording r(v, Role::kEndpoint, client);
  session::Session& peer = r.start_peer();
  r.ops(served_group(0, 3));
  {
    auto track = peer.subscribe(Path("demo"), "video");
    auto fetched = peer.fetch(Path("demo"), "video", 0);
    auto announced = peer.announced(Path(""));
    auto info = peer.track_info(Path("demo"), "video");
    r.settle();
    r.ops(served_group(1, 2));
    r.ops(ScriptWriter().op(Op::kEndTrack));
  }
  return r.finish(client ? "endpoint-client" : "endpoint-server");
}

// The session under test views the peer's broadcast through every API call.
SessionSeed viewer_of_a_publisher(uint8_t v) {
  Recording r(v, Role::kViewer, /*client=*/true);
  PeerBroadcast peer_broadcast(r.clock(), "demo");
  r.start_publishing_peer(peer_broadcast.origin);
  peer_broadcast.write_group(0, 3);
  r.settle();
  r.ops(ScriptWriter()
            .op(Op::kSubscribe)
            .byte(0)
            .op(Op::kTrackInfo)
            .byte(0)
            .op(Op::kAnnounced)
            .byte(0)
            .op(Op::kFetch)
            .byte(0)
            .number(0)
            .number(1)
            .op(Op::kAuthenticate)
            .payload(text("token")));
  peer_broadcast.write_group(1, 2);
  r.settle();
  (void)peer_broadcast.track.finish();
  r.settle();
  r.ops(ScriptWriter().op(Op::kDropConsumer).byte(0));
  return r.finish("viewer-client");
}

// A subscription the session under test ends with GOAWAY and then a close of its own.
SessionSeed goaway_then_close(uint8_t v) {
  Recording r(v, Role::kEndpoint, /*client=*/false);
  session::Session& peer = r.start_peer();
  {
    auto track = peer.subscribe(Path("demo"), "video");
    r.settle();
    r.ops(served_group(0, 2));
    r.ops(ScriptWriter().op(Op::kAdvance).number(5).op(Op::kGoaway));
    r.ops(ScriptWriter().op(Op::kSessionClose).number(0));
  }
  return r.finish("goaway-close");
}

// The relay serves its publisher's broadcast to the peer, beside its own real viewer.
SessionSeed relay_serves_a_viewer(uint8_t v) {
  Recording r(v, Role::kRelay, /*client=*/false);
  session::Session& peer = r.start_peer();
  r.ops(served_group(0, 2));
  {
    auto track = peer.subscribe(Path("demo"), "video");
    auto fetched = peer.fetch(Path("demo"), "video", 0);
    r.ops(ScriptWriter().op(Op::kSubscribe).byte(0));
    r.ops(served_group(1, 3));
    r.ops(ScriptWriter().op(Op::kEndTrack));
  }
  return r.finish("relay-client");
}

// The relay dialled the peer as a cluster peer; the peer publishes, the relay's viewer watches.
SessionSeed relay_dials_a_publisher(uint8_t v) {
  Recording r(v, Role::kRelay, /*client=*/true);
  PeerBroadcast peer_broadcast(r.clock(), "live/demo");
  r.start_publishing_peer(peer_broadcast.origin);
  r.ops(ScriptWriter().op(Op::kSubscribe).byte(2));
  peer_broadcast.write_group(0, 3);
  r.settle();
  peer_broadcast.write_group(1, 1);
  r.settle();
  return r.finish("relay-cluster-peer");
}

}  // namespace

std::vector<SessionSeed> record_session_seeds() {
  std::vector<SessionSeed> seeds;
  const size_t versions = session::implemented_versions().size();
  for (size_t i = 0; i < versions; ++i) {
    const uint8_t v = static_cast<uint8_t>(i);
    seeds.push_back(endpoint_serves_a_viewer(v, /*client=*/false));
    seeds.push_back(endpoint_serves_a_viewer(v, /*client=*/true));
    seeds.push_back(viewer_of_a_publisher(v));
    seeds.push_back(goaway_then_close(v));
    seeds.push_back(relay_serves_a_viewer(v));
    seeds.push_back(relay_dials_a_publisher(v));
  }
  return seeds;
}

}  // namespace moq::fuzz
