// Group: frames appended by one producer, read by many consumers; wake rules; finish/abort;
// producer teardown.
#include <gtest/gtest.h>

#include "tests/data/test_util.h"

namespace moq {
namespace {

using test::text;
using test::text_bytes;

TEST(Group, SeveralConsumersReadAllFramesWithTheirOwnIndex) {
  GroupProducer g = GroupProducer::create(7);
  GroupConsumer early = g.consume();
  ASSERT_TRUE(g.write_frame(10, text_bytes("a")));
  ASSERT_TRUE(g.write_frame(Frame{20, text_bytes("bb")}));
  GroupConsumer late = g.consume();
  ASSERT_TRUE(g.write_frame(30, text_bytes("ccc")));

  FrameView f;
  ASSERT_EQ(early.next(f), Next::Ready);
  EXPECT_EQ(text(f), "a");
  EXPECT_EQ(f.timestamp, 10u);
  GroupConsumer copy = early;  // a copy continues from the same index, independently
  ASSERT_EQ(early.next(f), Next::Ready);
  EXPECT_EQ(text(f), "bb");
  EXPECT_EQ(f.timestamp, 20u);
  EXPECT_EQ(copy.index(), 1u);

  std::vector<std::string> seen;
  while (late.next(f) == Next::Ready)
    seen.push_back(text(f));
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "bb", "ccc"}));
  EXPECT_EQ(late.next(f), Next::Pending);
  EXPECT_EQ(late.sequence(), 7u);
  EXPECT_EQ(late.frame_count(), 3u);
  EXPECT_EQ(late.bytes(), 6u);

  // Batch access: everything from the index is readable at once.
  ASSERT_EQ(copy.frame_count() - copy.index(), 2u);
  EXPECT_EQ(text(copy.frame(1)), "bb");
  EXPECT_EQ(text(copy.frame(2)), "ccc");
  copy.seek(3);
  EXPECT_EQ(copy.next(f), Next::Pending);

  ASSERT_TRUE(g.finish());
  EXPECT_EQ(late.next(f), Next::End);
  EXPECT_EQ(early.next(f), Next::Ready);
  EXPECT_EQ(text(f), "ccc");
  EXPECT_EQ(early.next(f), Next::End);
}

TEST(Group, PayloadIsSharedNotCopied) {
  GroupProducer g = GroupProducer::create(0);
  Bytes payload = text_bytes("shared");
  ASSERT_TRUE(g.write_frame(0, payload));
  GroupConsumer c = g.consume();
  FrameView f;
  ASSERT_EQ(c.next(f), Next::Ready);
  EXPECT_EQ(f.payload().data(), payload.data());
  EXPECT_EQ(payload.share_count(), 2u);  // ours and the group's
}

TEST(Group, MultiChunkAndEmptyFrames) {
  GroupProducer g = GroupProducer::create(1);
  BufChain chain;
  Bytes whole = text_bytes("hello world");
  chain.push(whole.slice(0, 5));
  chain.push(whole.slice(5));
  ASSERT_TRUE(g.write_frame(1, chain));
  EXPECT_TRUE(chain.empty());
  std::vector<Bytes> parts{text_bytes("x"), Bytes(), text_bytes("yz")};
  ASSERT_TRUE(g.write_frame(2, std::span<const Bytes>(parts)));
  ASSERT_TRUE(g.write_frame(3, Bytes()));

  GroupConsumer c = g.consume();
  FrameView f;
  ASSERT_EQ(c.next(f), Next::Ready);
  EXPECT_EQ(f.chunks.size(), 2u);
  EXPECT_FALSE(f.contiguous());
  EXPECT_EQ(f.size, 11u);
  EXPECT_EQ(text(f), "hello world");
  EXPECT_EQ(f.chunks[0].data(), whole.data());  // zero copy
  BufChain out;
  f.append_to(out);
  EXPECT_EQ(out.size(), 11u);

  ASSERT_EQ(c.next(f), Next::Ready);
  EXPECT_EQ(f.chunks.size(), 2u);  // the empty part is not stored
  EXPECT_EQ(f.size, 3u);
  EXPECT_EQ(text(f), "xyz");

  ASSERT_EQ(c.next(f), Next::Ready);
  EXPECT_EQ(f.size, 0u);
  EXPECT_TRUE(f.chunks.empty());
  EXPECT_TRUE(f.payload().empty());
  EXPECT_EQ(f.timestamp, 3u);
}

TEST(Group, WaitingReaderIsWokenExactlyWhenAFrameArrives) {
  test::World w;
  GroupProducer g = GroupProducer::create(0);
  test::GroupReaderTask reader(w.executor, g.consume());
  w.executor.run_until_idle();
  EXPECT_EQ(reader.polls, 1);  // first poll: nothing yet, parked
  EXPECT_EQ(reader.frames.size(), 0u);

  w.executor.run_until_idle();
  EXPECT_EQ(reader.polls, 1);  // nothing happened: not polled

  ASSERT_TRUE(g.write_frame(0, text_bytes("one")));
  EXPECT_TRUE(reader.queued());
  w.executor.run_until_idle();
  EXPECT_EQ(reader.polls, 2);
  EXPECT_EQ(reader.frames, (std::vector<std::string>{"one"}));

  // Three frames in one step: one wake, one poll drains them all.
  ASSERT_TRUE(g.write_frame(1, text_bytes("two")));
  ASSERT_TRUE(g.write_frame(2, text_bytes("three")));
  ASSERT_TRUE(g.write_frame(3, text_bytes("four")));
  w.executor.run_until_idle();
  EXPECT_EQ(reader.polls, 3);
  EXPECT_EQ(reader.frames.size(), 4u);

  ASSERT_TRUE(g.finish());
  w.executor.run_until_idle();
  EXPECT_EQ(reader.polls, 4);
  EXPECT_TRUE(reader.ended);
  EXPECT_TRUE(reader.done());
}

TEST(Group, WritesDoNotWakeCloseWatchers) {
  test::World w;
  GroupProducer g = GroupProducer::create(0);
  GroupConsumer c = g.consume();
  test::WakeCounterTask watcher(w.executor, c.closed());
  w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 1);
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(g.write_frame(i, text_bytes("f")));
  w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 1);  // frames are not its condition
  ASSERT_TRUE(g.finish());
  w.executor.run_until_idle();
  EXPECT_EQ(watcher.polls, 2);
}

TEST(Group, SeveralWaitingReadersAllSeeEveryFrameAndTheEnd) {
  test::World w;
  GroupProducer g = GroupProducer::create(0);
  test::GroupReaderTask r1(w.executor, g.consume());
  test::GroupReaderTask r2(w.executor, g.consume());
  test::GroupReaderTask r3(w.executor, g.consume());
  w.executor.run_until_idle();
  ASSERT_TRUE(g.write_frame(0, text_bytes("x")));
  w.executor.run_until_idle();
  ASSERT_TRUE(g.write_frame(1, text_bytes("y")));
  ASSERT_TRUE(g.finish());
  w.executor.run_until_idle();
  for (auto* r : {&r1, &r2, &r3}) {
    EXPECT_EQ(r->frames, (std::vector<std::string>{"x", "y"}));
    EXPECT_TRUE(r->ended);
    EXPECT_EQ(r->polls, 3);
  }
}

TEST(Group, AbortReasonReachesWaitingReaders) {
  test::World w;
  GroupProducer g = GroupProducer::create(3);
  test::GroupReaderTask reader(w.executor, g.consume());
  GroupConsumer behind = g.consume();
  ASSERT_TRUE(g.write_frame(0, text_bytes("a")));
  w.executor.run_until_idle();
  g.abort(Error{42, "upstream reset"});
  w.executor.run_until_idle();
  EXPECT_TRUE(reader.aborted);
  EXPECT_EQ(reader.error.code, 42u);
  EXPECT_EQ(reader.error.message, "upstream reset");
  EXPECT_EQ(reader.frames.size(), 1u);

  // A reader still behind sees the abort at once, not the unread frame.
  FrameView f;
  EXPECT_EQ(behind.next(f), Next::Aborted);
  EXPECT_EQ(behind.status(), GroupStatus::Aborted);

  // Writing or finishing an aborted group fails and names the group.
  Status st = g.write_frame(1, text_bytes("b"));
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, data_error::kClosed);
  EXPECT_NE(st.error().message.find("group 3 is aborted"), std::string::npos);
  EXPECT_FALSE(g.finish());
  g.abort(Error{1, "again"});  // no effect
  EXPECT_EQ(behind.error().code, 42u);
}

TEST(Group, ProducerDroppedMidGroupAbortsWithReason) {
  test::World w;
  auto* g = new GroupProducer(GroupProducer::create(9));
  test::GroupReaderTask reader(w.executor, g->consume());
  ASSERT_TRUE(g->write_frame(0, text_bytes("partial")));
  w.executor.run_until_idle();
  delete g;  // never finished
  Status st = w.executor.run_until([&] { return reader.done(); });
  ASSERT_TRUE(st) << st.error().message;
  EXPECT_TRUE(reader.aborted);
  EXPECT_EQ(reader.error.code, data_error::kProducerDropped);
  EXPECT_NE(reader.error.message.find("group 9"), std::string::npos);
  EXPECT_EQ(reader.frames, (std::vector<std::string>{"partial"}));
}

TEST(Group, FinishedProducerDropIsNotAnAbort) {
  GroupConsumer c;
  {
    GroupProducer g = GroupProducer::create(0);
    ASSERT_TRUE(g.write_frame(0, text_bytes("a")));
    ASSERT_TRUE(g.finish());
    c = g.consume();
  }
  FrameView f;
  EXPECT_EQ(c.next(f), Next::Ready);
  EXPECT_EQ(c.next(f), Next::End);
  EXPECT_EQ(c.status(), GroupStatus::Finished);
}

TEST(Group, MovedProducerKeepsTheGroupOpen) {
  GroupProducer a = GroupProducer::create(0);
  GroupConsumer c = a.consume();
  GroupProducer b = std::move(a);
  EXPECT_EQ(c.status(), GroupStatus::Open);
  ASSERT_TRUE(b.write_frame(0, text_bytes("x")));
  GroupProducer other = GroupProducer::create(1);
  GroupConsumer oc = other.consume();
  other = std::move(b);  // the group other held loses its producer: aborted
  EXPECT_EQ(oc.status(), GroupStatus::Aborted);
  EXPECT_EQ(c.status(), GroupStatus::Open);
  ASSERT_TRUE(other.finish());
  EXPECT_EQ(c.status(), GroupStatus::Finished);
}

// A frame of one chunk is stored beside its entry, whichever write made it: from a chain of one
// chunk, from a span whose other parts are empty, or from one Bytes. Frames of several chunks
// keep theirs in the group's chunk list; both kinds read back in order.
TEST(Group, OneChunkFramesFromEveryWriteReadBackBesideSeveralChunkFrames) {
  GroupProducer g = GroupProducer::create(2);
  Bytes whole = text_bytes("abcdef");
  BufChain one;
  one.push(whole.slice(0, 2));
  ASSERT_TRUE(g.write_frame(1, one));
  EXPECT_TRUE(one.empty());
  std::vector<Bytes> padded{Bytes(), whole.slice(2, 1), Bytes()};
  ASSERT_TRUE(g.write_frame(2, std::span<const Bytes>(padded)));
  std::vector<Bytes> three{whole.slice(0, 1), whole.slice(1, 2), whole.slice(3)};
  ASSERT_TRUE(g.write_frame(3, std::span<const Bytes>(three)));
  ASSERT_TRUE(g.write_frame(4, whole.slice(5)));

  GroupConsumer c = g.consume();
  const std::vector<std::pair<size_t, std::string>> expected{
      {1, "ab"}, {1, "c"}, {3, "abcdef"}, {1, "f"}};
  for (size_t i = 0; i < expected.size(); ++i) {
    FrameView f;
    ASSERT_EQ(c.next(f), Next::Ready) << i;
    EXPECT_EQ(f.timestamp, i + 1);
    EXPECT_EQ(f.chunks.size(), expected[i].first) << i;
    EXPECT_EQ(text(f), expected[i].second) << i;
    EXPECT_EQ(f.size, expected[i].second.size()) << i;
  }
  padded.clear();
  three.clear();
  EXPECT_EQ(whole.share_count(), 1u + 1 + 1 + 3 + 1);  // ours and one per stored chunk

  // A refused write of one chunk leaves the chain as it was.
  ASSERT_TRUE(g.finish());
  one.push(whole.slice(0, 1));
  EXPECT_FALSE(g.write_frame(5, one));
  EXPECT_EQ(one.size(), 1u);
}

TEST(Group, FinishTwiceFails) {
  GroupProducer g = GroupProducer::create(0);
  ASSERT_TRUE(g.finish());
  Status st = g.finish();
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, data_error::kClosed);
  EXPECT_NE(st.error().message.find("already finished"), std::string::npos);
}

TEST(Group, WriteBeyondTheGroupLimitFails) {
  GroupProducer g = GroupProducer::create(5);
  // One 1 MiB block shared by every frame: no payload copies.
  std::vector<uint8_t> mib(1 << 20, 0xab);
  Bytes block = Bytes::copy(std::span<const uint8_t>(mib));
  const uint64_t fits = kMaxGroupBytes / block.size();
  for (uint64_t i = 0; i < fits; ++i)
    ASSERT_TRUE(g.write_frame(i, block));
  Status st = g.write_frame(fits, block);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, data_error::kTooLarge);
  EXPECT_NE(st.error().message.find("group 5"), std::string::npos);
  EXPECT_EQ(g.frame_count(), fits);
  ASSERT_TRUE(g.write_frame(fits, Bytes()));  // an empty frame still fits
}

}  // namespace
}  // namespace moq
