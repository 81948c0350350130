// A publisher session and a viewer session over the in-memory transport, for one version.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/data/data.h"
#include "model/session/create_session.h"
#include "model/session/session.h"
#include "sim/clock.h"
#include "sim/memory/memory_transport.h"
#include "sim/net/network.h"

namespace moq::test {

using session::Version;

inline Bytes text_bytes(std::string_view s) {
  return Bytes::copy(s);
}

inline std::string text(const FrameView& f) {
  std::string out;
  for (const Bytes& c : f.chunks)
    out.append(c.view());
  return out;
}

// The payload of frame f of group g, so receivers can check what arrived.
inline std::string payload(uint64_t g, uint64_t f) {
  return "g" + std::to_string(g) + "f" + std::to_string(f);
}

// The world: clock, executor, a connected pair, the publisher's origin and both sessions. The
// server side publishes, the client side views (both sessions play both roles; the tests use
// one each).
// Runs the executor until nothing is runnable; fails the test when a task spins.
inline void settle_executor(Executor& executor) {
  RunReport r = executor.run_until_idle(1'000'000);
  ASSERT_FALSE(r.budget_exhausted) << r.detail;
}

struct SessionPair {
  // With a link that is not ideal, the pair runs over a sim/net network: its bytes arrive as the
  // virtual clock reaches them (pass()).
  explicit SessionPair(Version v, sim::memory::PairConfig cfg = {},
                       const sim::net::LinkConfig& link = {})
      : version(v) {
    cfg.alpn = std::string(session::version_alpn(v));
    if (!link.ideal()) {
      network = std::make_unique<sim::net::Network>(executor, link);
      cfg.network = network.get();
    }
    auto made = sim::memory::make_pair(executor, cfg);
    EXPECT_TRUE(made.ok());
    conns = std::move(made.value());
    session::SessionConfig pub;
    pub.publish = origin.consume();
    pub.hop_id = 0x5eed;
    auto p = session::create_session(*conns.server, v, pub);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
    publisher = std::move(p.value());
    session::SessionConfig view;
    view.hop_id = 0x7e57;
    auto c = session::create_session(*conns.client, v, view);
    EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
    viewer = std::move(c.value());
  }

  void settle() { settle_executor(executor); }
  // Lets ns of virtual time pass, running what becomes due on the way (arrivals included).
  void pass(uint64_t ns) {
    RunReport r = executor.advance_to(executor.now_ns() + ns, 1'000'000);
    ASSERT_FALSE(r.budget_exhausted) << r.detail;
  }

  // A broadcast published at path with one track.
  struct Published {
    BroadcastProducer broadcast;
    TrackProducer track;
  };
  Published publish(const std::string& path, const std::string& track = "video",
                    TrackInfo info = {}) {
    Published p;
    p.broadcast = BroadcastProducer::create(clock);
    p.track = std::move(p.broadcast.create_track(track, info).value());
    EXPECT_TRUE(origin.publish(Path(path), p.broadcast.consume()).ok());
    return p;
  }

  // Writes frames [0, count) of a new group with sequence g; finishes it when asked.
  static GroupProducer write_group(TrackProducer& track, uint64_t g, uint64_t count,
                                   bool finish = true) {
    GroupProducer group = std::move(track.create_group(g).value());
    for (uint64_t f = 0; f < count; ++f) {
      EXPECT_TRUE(group.write_frame(1000 * g + 33 * f, text_bytes(payload(g, f))).ok());
    }
    if (finish) {
      EXPECT_TRUE(group.finish().ok());
    }
    return group;
  }

  Version version;
  sim::VirtualClock clock;
  Executor executor{clock};
  OriginProducer origin = OriginProducer::create();
  std::unique_ptr<sim::net::Network> network;  // before the connections: outlives them
  sim::memory::ConnectionPair conns;
  std::unique_ptr<session::Session> publisher;
  std::unique_ptr<session::Session> viewer;
};

// Reads every frame available now; returns the payloads and what ended the read.
struct Drained {
  std::vector<std::string> frames;
  std::vector<uint64_t> timestamps;
  Next last = Next::Pending;
};
template <class Consumer>
Drained drain_frames(Consumer& c) {
  Drained d;
  FrameView f;
  for (;;) {
    d.last = c.next(f);
    if (d.last != Next::Ready) return d;
    d.frames.push_back(text(f));
    d.timestamps.push_back(f.timestamp);
  }
}

// Reads an announce consumer until it stops handing out events: "+path" / "-path" each, and
// what ended the read in last.
inline std::vector<std::string> drain_announcements(AnnounceConsumer& a, Next& last) {
  std::vector<std::string> out;
  AnnounceEvent e;
  while ((last = a.next(e)) == Next::Ready)
    out.push_back((e.kind == AnnounceEvent::Kind::Announce ? "+" : "-") + e.path.str());
  return out;
}

inline std::string version_param_name(const ::testing::TestParamInfo<Version>& info) {
  std::string name(session::version_name(info.param));
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

}  // namespace moq::test
