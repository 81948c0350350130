// End-to-end fixture: two moq-transport sessions over sim/memory, one publishing an origin.
// Tests are parameterized over both drafts.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include "model/async/executor.h"
#include "model/data/data.h"
#include "model/session/ietf/ietf_session.h"
#include "model/session/session.h"
#include "sim/clock.h"
#include "sim/memory/memory_transport.h"

namespace moq::session::testing {

inline std::string version_label(const ::testing::TestParamInfo<Version>& info) {
  std::string label;  // "moq-transport-18" -> "moqtransport18": test names take [A-Za-z0-9_]
  for (char c : version_name(info.param))
    if (std::isalnum(static_cast<unsigned char>(c))) label += c;
  return label;
}

// A payload whose bytes depend on (group, frame), so misrouting or reordering shows.
inline Bytes payload_of(uint64_t group, uint64_t frame, size_t size = 64) {
  std::string s(size, '\0');
  for (size_t i = 0; i < size; ++i)
    s[i] = static_cast<char>((group * 131 + frame * 31 + i * 7) & 0xff);
  return Bytes::copy(s);
}

class IetfPair : public ::testing::TestWithParam<Version> {
 protected:
  void SetUp() override { start(); }

  // Builds the executor, the connection pair and both sessions; the server publishes origin.
  void start(bool publisher_is_client = false) {
    sim::memory::PairConfig cfg;
    cfg.alpn = std::string(version_alpn(GetParam()));
    cfg.max_bidi = max_bidi;
    auto pair = sim::memory::make_pair(executor, cfg);
    ASSERT_TRUE(pair) << pair.error().message;
    client_conn = std::move(pair->client);
    server_conn = std::move(pair->server);
    origin = OriginProducer::create();
    broadcast = BroadcastProducer::create(clock);
    ASSERT_TRUE(origin.publish(Path("live/cam"), broadcast.consume()));
    auto track_r = broadcast.create_track("video");
    ASSERT_TRUE(track_r);
    track = std::move(*track_r);

    SessionConfig pub;
    pub.publish = origin.consume();
    SessionConfig view;
    auto c = ietf::create_ietf_session(*client_conn, GetParam(), publisher_is_client ? pub : view);
    auto s = ietf::create_ietf_session(*server_conn, GetParam(), publisher_is_client ? view : pub);
    ASSERT_TRUE(c) << c.error().message;
    ASSERT_TRUE(s) << s.error().message;
    client = std::move(*c);
    server = std::move(*s);
    publisher = publisher_is_client ? client.get() : server.get();
    viewer = publisher_is_client ? server.get() : client.get();
    settle();
  }

  void settle() {
    RunReport r = executor.run_until_idle(1'000'000);
    ASSERT_FALSE(r.budget_exhausted) << r.detail;
  }

  // Writes one group of n frames (finished unless open).
  void write_group(uint64_t seq, size_t n, bool finish = true) {
    auto g = track.create_group(seq);
    ASSERT_TRUE(g) << g.error().message;
    for (size_t i = 0; i < n; ++i)
      ASSERT_TRUE(g->write_frame(i, payload_of(seq, i)));
    if (finish) {
      ASSERT_TRUE(g->finish());
    } else {
      open_groups.push_back(std::move(*g));
    }
  }

 public:
  // Reads every frame available; last says how reading stopped.
  static std::vector<Bytes> read_all(GroupConsumer& g, Next* last = nullptr) {
    std::vector<Bytes> out;
    FrameView f;
    for (;;) {
      Next n = g.next(f);
      if (n != Next::Ready) {
        if (last) *last = n;
        return out;
      }
      if (f.contiguous()) {
        out.push_back(f.payload());
      } else {  // a frame that arrived in several chunks: join them for comparison
        std::string joined;
        for (const Bytes& c : f.chunks)
          joined.append(c.view());
        out.push_back(Bytes::copy(joined));
      }
    }
  }

 protected:
  uint32_t max_bidi = 128;  // request streams each side may have open (start() reads it)
  sim::VirtualClock clock;
  Executor executor{clock};
  std::unique_ptr<sim::memory::MemoryConnection> client_conn, server_conn;
  OriginProducer origin;
  BroadcastProducer broadcast;
  TrackProducer track;
  std::vector<GroupProducer> open_groups;
  std::unique_ptr<Session> client, server;
  Session* publisher = nullptr;
  Session* viewer = nullptr;
};

}  // namespace moq::session::testing
