// Teardown in any order: a full tree (origin, broadcasts, served and requested tracks, open and
// finished groups, consumers, reader tasks) is dropped handle by handle in a seeded random
// order. Readers must never hang (once every producer is gone, every reader task is done), and
// nothing may leak (LeakSanitizer checks at exit in the sanitized build; reference cycles would
// show up as leaks).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>

#include "tests/data/test_util.h"

namespace moq {
namespace {

using test::text_bytes;

struct Holder {
  virtual ~Holder() = default;
};
template <class T>
struct Held : Holder {
  explicit Held(T v) : value(std::move(v)) {}
  T value;
};

struct Tree {
  test::World w;
  std::vector<std::unique_ptr<Holder>> producers;  // dropping one ends what it produced
  std::vector<std::unique_ptr<Holder>> others;     // consumers, listeners, origin handles
  std::vector<test::GroupReaderTask*> group_readers;
  std::vector<test::TrackFollowerTask*> followers;

  template <class T>
  void keep_producer(T v) {
    producers.push_back(std::make_unique<Held<T>>(std::move(v)));
  }
  template <class T>
  void keep(T v) {
    others.push_back(std::make_unique<Held<T>>(std::move(v)));
  }

  explicit Tree(std::mt19937_64& rng) {
    OriginProducer origin = OriginProducer::create();
    keep(origin.consume().announced(Path()));
    keep(origin.consume().announced(Path("room/1")));
    for (int bi = 0; bi < 3; ++bi) {
      BroadcastProducer b = BroadcastProducer::create(w.clock);
      b.serve_requests();
      BroadcastConsumer bc = b.consume();
      EXPECT_TRUE(origin.publish(Path("room").join(Path(std::to_string(bi))), bc));
      if (bi == 0) {
        EXPECT_TRUE(origin.publish(Path("alias"), bc));
      }
      for (int ti = 0; ti < 2; ++ti) {
        TrackInfo info;
        info.cache.max_groups = 1 + rng() % 3;
        Result<TrackProducer> t = b.create_track(ti == 0 ? "video" : "audio", info);
        EXPECT_TRUE(t);
        followers.push_back(new test::TrackFollowerTask(w.executor, t->consume()));
        for (int gi = 0; gi < 4; ++gi) {
          Result<GroupProducer> g = t->append_group();
          EXPECT_TRUE(g);
          for (uint64_t fi = 0; fi < rng() % 4; ++fi)
            EXPECT_TRUE(g->write_frame(fi, text_bytes("frame")));
          group_readers.push_back(new test::GroupReaderTask(w.executor, g->consume()));
          if (rng() % 2) keep(g->consume());
          if (rng() % 2) {
            EXPECT_TRUE(g->finish());
          } else {
            keep_producer(std::move(*g));  // left open
          }
        }
        if (rng() % 3 == 0) {
          EXPECT_TRUE(t->finish());
        }
        keep(t->consume());
        keep_producer(std::move(*t));
      }
      // A requested track: one accepted, one left pending in the queue.
      Result<TrackConsumer> asked = bc.subscribe("asked");
      Result<TrackConsumer> waiting = bc.subscribe("waiting");
      EXPECT_TRUE(asked && waiting);
      std::optional<TrackRequest> r = b.next_request();
      EXPECT_TRUE(r);
      Result<TrackProducer> served = r->accept(TrackInfo{});
      EXPECT_TRUE(served);
      followers.push_back(new test::TrackFollowerTask(w.executor, std::move(*asked)));
      followers.push_back(new test::TrackFollowerTask(w.executor, std::move(*waiting)));
      keep_producer(std::move(*served));
      keep(bc);
      keep_producer(std::move(b));
    }
    keep(origin);
    w.executor.run_until_idle();
  }
  ~Tree() {
    for (auto* t : group_readers)
      delete t;
    for (auto* t : followers)
      delete t;
  }
};

void drop_in_random_order(std::vector<std::unique_ptr<Holder>>& v, std::mt19937_64& rng,
                          Executor& ex) {
  std::shuffle(v.begin(), v.end(), rng);
  while (!v.empty()) {
    v.pop_back();
    ex.run_until_idle();
  }
}

TEST(Teardown, ReadersNeverHangWhateverOrderProducersDrop) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    Tree tree(rng);
    drop_in_random_order(tree.producers, rng, tree.w.executor);
    for (auto* r : tree.group_readers)
      EXPECT_TRUE(r->done()) << "seed " << seed << ": a group reader hangs";
    for (auto* f : tree.followers)
      EXPECT_TRUE(f->done()) << "seed " << seed << ": a track follower hangs";
    drop_in_random_order(tree.others, rng, tree.w.executor);
  }
}

TEST(Teardown, AnyOrderOfEverythingIsClean) {
  for (uint64_t seed = 100; seed < 140; ++seed) {
    std::mt19937_64 rng(seed);
    Tree tree(rng);
    std::vector<std::unique_ptr<Holder>> all;
    for (auto& p : tree.producers)
      all.push_back(std::move(p));
    for (auto& o : tree.others)
      all.push_back(std::move(o));
    drop_in_random_order(all, rng, tree.w.executor);
  }
}

}  // namespace
}  // namespace moq
