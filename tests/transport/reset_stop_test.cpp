// FIN, RESET_STREAM and STOP_SENDING, and the error codes that misuse of a stream carries.
#include <gtest/gtest.h>

#include "tests/transport/transport_fixture.h"

namespace moq::sim::memory::testing {
namespace {

class ResetStopTest : public TransportTest {
 protected:
  ResetStopTest() : TransportTest(small()) {}
  static PairConfig small() {
    PairConfig c;
    c.stream_window = 100;
    c.conn_window = 150;
    return c;
  }
  void open() {
    send = ok(client().open_uni());
    recv = ok(server().accept_uni());
    ASSERT_TRUE(send && recv);
  }
  size_t write(Bytes b) {
    BufChain d = chain_of({std::move(b)});
    return *send->write(d);
  }

  SendStreamPtr send;
  RecvStreamPtr recv;
};

TEST_F(ResetStopTest, MisuseAfterFinishCarriesStreamFinished) {
  open();
  ASSERT_TRUE(send->finish().ok());
  BufChain d = chain_of({pattern(5, 1)});
  Result<size_t> w = send->write(d);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, transport_error::kStreamFinished);
  EXPECT_NE(w.error().message.find("stream 2"), std::string::npos) << w.error().message;
  EXPECT_EQ(d.size(), 5u) << "a failed write consumes nothing";
  Status f = send->finish();
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().code, transport_error::kStreamFinished);
  Status r = send->reset(1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, transport_error::kStreamFinished);
}

TEST_F(ResetStopTest, MisuseAfterResetCarriesStreamReset) {
  open();
  ASSERT_TRUE(send->reset(4).ok());
  BufChain d = chain_of({pattern(5, 1)});
  Result<size_t> w = send->write(d);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, transport_error::kStreamReset);
  Status f = send->finish();
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().code, transport_error::kStreamReset);
  Status r = send->reset(5);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, transport_error::kStreamReset);
  Bytes chunk;
  ReadResult res = recv->read(chunk);
  EXPECT_EQ(res.status, ReadStatus::Reset);
  EXPECT_EQ(res.code, 4u) << "the second reset must not change the code";
}

TEST_F(ResetStopTest, ResetAfterPartialReadShowsTheReadDataThenTheReset) {
  open();
  Bytes a = pattern(30, 1), b = pattern(40, 2);
  ASSERT_EQ(write(a), 30u);
  ASSERT_EQ(write(b), 40u);
  Bytes chunk;
  ASSERT_EQ(recv->read(chunk).status, ReadStatus::Data);
  EXPECT_EQ(chunk, a);
  ASSERT_TRUE(send->reset(0x52).ok());
  // b was queued but unread: the reset overtakes and discards it.
  ReadResult res = recv->read(chunk);
  EXPECT_EQ(res.status, ReadStatus::Reset);
  EXPECT_EQ(res.code, 0x52u);
  EXPECT_EQ(recv->read(chunk).status, ReadStatus::Reset) << "the reset is sticky";
  EXPECT_EQ(client().stats().resets_sent, 1u);
  EXPECT_EQ(server().stats().resets_received, 1u);
}

TEST_F(ResetStopTest, ResetBeforeAnyReadShowsOnlyTheResetAndReturnsCredit) {
  open();
  ASSERT_EQ(write(pattern(100, 1)), 100u);
  ASSERT_TRUE(send->reset(7).ok());
  Bytes chunk;
  ReadResult res = recv->read(chunk);
  EXPECT_EQ(res.status, ReadStatus::Reset);
  EXPECT_EQ(res.code, 7u);
  EXPECT_TRUE(chunk.empty());
  // The discarded 100 bytes no longer count against the connection window (150).
  SendStreamPtr other = ok(client().open_uni());
  BufChain d = chain_of({pattern(100, 2)});
  EXPECT_EQ(*other->write(d), 100u);
}

TEST_F(ResetStopTest, ResetWakesAParkedReader) {
  open();
  ReaderTask reader(ex_, *recv);
  reader.wake();
  settle();
  EXPECT_FALSE(reader.done());
  ASSERT_TRUE(send->reset(11).ok());
  settle();
  ASSERT_TRUE(reader.done());
  EXPECT_EQ(reader.log.end.status, ReadStatus::Reset);
  EXPECT_EQ(reader.log.end.code, 11u);
}

TEST_F(ResetStopTest, StopFailsTheSendersNextWriteWithTheCode) {
  open();
  ASSERT_EQ(write(pattern(60, 1)), 60u);
  recv->stop(0x53);
  EXPECT_EQ(send->stop_code(), std::optional<uint64_t>(0x53));
  BufChain d = chain_of({pattern(5, 2)});
  Result<size_t> w = send->write(d);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, 0x53u);
  Status f = send->finish();
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().code, 0x53u);
  // Answering a stop with a reset is allowed and tells the stopped reader nothing.
  EXPECT_TRUE(send->reset(1).ok());
  EXPECT_EQ(client().stats().resets_sent, 0u);

  Bytes chunk;
  ReadResult res = recv->read(chunk);
  EXPECT_EQ(res.status, ReadStatus::Error);
  EXPECT_EQ(res.code, transport_error::kStreamStopped);
  EXPECT_EQ(server().stats().stops_sent, 1u);
  EXPECT_EQ(client().stats().stops_received, 1u);
}

TEST_F(ResetStopTest, StopWakesAParkedWriterWhichThenFails) {
  open();
  WriterTask w(ex_, "writer", *send, pattern(300, 1), true);
  w.wake();
  settle();
  EXPECT_EQ(w.written, 100u);
  EXPECT_FALSE(w.done());
  recv->stop(9);
  settle();
  ASSERT_TRUE(w.done());
  ASSERT_TRUE(w.error);
  EXPECT_EQ(w.error->code, 9u);
}

TEST_F(ResetStopTest, StopDiscardsUnreadDataAndReturnsConnectionCredit) {
  open();
  ASSERT_EQ(write(pattern(100, 1)), 100u);
  SendStreamPtr other = ok(client().open_uni());
  BufChain d = chain_of({pattern(100, 2)});
  EXPECT_EQ(*other->write(d), 50u);
  recv->stop(1);
  EXPECT_EQ(*other->write(d), 50u);
}

TEST_F(ResetStopTest, StopAfterTheEndWasReadChangesNothing) {
  open();
  ASSERT_EQ(write(pattern(10, 1)), 10u);
  ASSERT_TRUE(send->finish().ok());
  ReadLog log;
  drain(*recv, log);
  ASSERT_EQ(log.end.status, ReadStatus::Fin);
  recv->stop(3);
  EXPECT_EQ(send->stop_code(), std::nullopt);
  EXPECT_EQ(server().stats().stops_sent, 0u);
  Bytes chunk;
  EXPECT_EQ(recv->read(chunk).status, ReadStatus::Fin);
}

TEST_F(ResetStopTest, StopOfAFinishedStreamWithUnreadDataIsSeenBySender) {
  open();
  ASSERT_EQ(write(pattern(10, 1)), 10u);
  ASSERT_TRUE(send->finish().ok());
  recv->stop(6);
  EXPECT_EQ(send->stop_code(), std::optional<uint64_t>(6));
  BufChain d = chain_of({pattern(5, 2)});
  Result<size_t> w = send->write(d);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code, transport_error::kStreamFinished) << "finish() came first";
}

TEST_F(ResetStopTest, StopTwiceKeepsTheFirstCode) {
  open();
  recv->stop(1);
  recv->stop(2);
  EXPECT_EQ(send->stop_code(), std::optional<uint64_t>(1));
  EXPECT_EQ(server().stats().stops_sent, 1u);
}

}  // namespace
}  // namespace moq::sim::memory::testing
