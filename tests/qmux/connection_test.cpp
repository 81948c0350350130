// The QMux connection: transport.h over QMux-00 frames, between two ends of the in-memory byte
// pipe, and against a hand-written peer that sends what it likes (flow control and stream limits
// exceeded, frames in the wrong place, the JS's own bytes).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/clock.h"
#include "sim/qmux/pipe.h"

namespace moq::sim::qmux {
namespace {

using Buf = std::vector<uint8_t>;
using ::testing::HasSubstr;

template <class T>
T ok(Result<T> r) {
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? std::move(*r) : T{};
}

Buf flatten(const BufChain& c) {
  Buf out;
  for (const Bytes& b : c.chunks())
    out.insert(out.end(), b.data(), b.data() + b.size());
  return out;
}

Bytes text(const std::string& s) {
  return Bytes::copy(s);
}

// Every byte a stream holds now, read.
std::string read_text(RecvStream& r) {
  std::string out;
  Bytes chunk;
  while (r.read(chunk).status == ReadStatus::Data)
    out += std::string(chunk.view());
  return out;
}

class QmuxPipe : public ::testing::Test {
 protected:
  void make(QmuxSettings settings = {}) {
    settings.alpn = "moq-test";
    pair_ = ok(make_pipe_pair(ex_, settings));
    ASSERT_TRUE(pair_.client && pair_.server);
  }
  void run() { (void)ex_.run_until_idle(); }
  VirtualClock clock_;
  Executor ex_{clock_};
  QmuxPair pair_;
};

TEST_F(QmuxPipe, BytesCrossAUniAndABidiStreamInOrder) {
  make();
  EXPECT_TRUE(pair_.client->established());
  EXPECT_TRUE(pair_.server->established());
  SendStreamPtr s = ok(pair_.client->open_uni());
  ASSERT_TRUE(s);
  EXPECT_EQ(s->id(), 2u);  // the client's first uni stream
  BufChain chain;
  chain.push(text("hello "));
  chain.push(text("world"));
  EXPECT_EQ(ok(s->write(chain)), 11u);
  ASSERT_TRUE(s->finish().ok());
  run();
  RecvStreamPtr r = ok(pair_.server->accept_uni());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->id(), 2u);
  EXPECT_EQ(read_text(*r), "hello world");
  Bytes none;
  EXPECT_EQ(r->read(none).status, ReadStatus::Fin);

  BidiStream b = ok(pair_.server->open_bidi());
  ASSERT_TRUE(b);
  EXPECT_EQ(b.send->id(), 1u);  // the server's first bidi stream
  chain.push(text("ping"));
  EXPECT_EQ(ok(b.send->write(chain)), 4u);
  run();
  BidiStream a = ok(pair_.client->accept_bidi());
  ASSERT_TRUE(a);
  EXPECT_EQ(read_text(*a.recv), "ping");
  chain.push(text("pong"));
  EXPECT_EQ(ok(a.send->write(chain)), 4u);
  run();
  EXPECT_EQ(read_text(*b.recv), "pong");
}

TEST_F(QmuxPipe, LargeWritesAreCutUnderTheFrameLimitAndPassByReference) {
  make();
  SendStreamPtr s = ok(pair_.client->open_uni());
  const Bytes payload = Bytes::copy(std::string(40000, 'x'));
  BufChain chain;
  chain.push(payload);
  const uint64_t frames = pair_.client->wire().frames_sent;
  EXPECT_EQ(ok(s->write(chain)), 40000u);
  EXPECT_EQ(pair_.client->wire().frames_sent - frames, 3u);  // 16360 + 16360 + 7280
  run();
  RecvStreamPtr r = ok(pair_.server->accept_uni());
  BufChain got;
  ASSERT_EQ(r->read_all(got).status, ReadStatus::Data);
  EXPECT_EQ(got.size(), 40000u);
  ASSERT_EQ(got.chunk_count(), 3u);
  for (const Bytes& b : got.chunks())
    EXPECT_LE(b.size(), kMaxFramePayload);
  EXPECT_EQ(got.chunks()[0].data(), payload.data()) << "the payload was copied";
}

TEST_F(QmuxPipe, TheStreamWindowBlocksAWriterUntilTheReaderReads) {
  QmuxSettings settings;
  settings.stream_window = 100;
  make(settings);
  SendStreamPtr s = ok(pair_.client->open_uni());
  BufChain chain;
  chain.push(Bytes::copy(std::string(300, 'a')));
  EXPECT_EQ(ok(s->write(chain)), 100u);
  EXPECT_EQ(ok(s->write(chain)), 0u);
  SendStreamPtr other = ok(pair_.client->open_uni());
  BufChain one;
  one.push(text("x"));
  EXPECT_EQ(ok(other->write(one)), 1u);  // the connection still has credit
  run();
  RecvStreamPtr r = ok(pair_.server->accept_uni());
  EXPECT_EQ(read_text(*r).size(), 100u);  // half a window read: MAX_STREAM_DATA goes back
  run();
  EXPECT_EQ(ok(s->write(chain)), 100u);
}

TEST_F(QmuxPipe, TheConnectionWindowBlocksEveryStream) {
  QmuxSettings settings;
  settings.conn_window = 600;
  make(settings);
  SendStreamPtr s = ok(pair_.client->open_uni());
  BufChain chain;
  chain.push(Bytes::copy(std::string(1000, 'a')));
  EXPECT_EQ(ok(s->write(chain)), 600u);
  SendStreamPtr other = ok(pair_.client->open_uni());
  BufChain one;
  one.push(text("x"));
  EXPECT_EQ(ok(other->write(one)), 0u);
  run();
  RecvStreamPtr r = ok(pair_.server->accept_uni());
  EXPECT_EQ(read_text(*r).size(), 600u);  // MAX_DATA goes back
  run();
  EXPECT_EQ(ok(s->write(chain)), 400u);
  EXPECT_EQ(ok(other->write(one)), 1u);
}

TEST_F(QmuxPipe, StreamLimitsComeBackAsStreamsEnd) {
  QmuxSettings settings;
  settings.max_uni = 2;
  make(settings);
  SendStreamPtr a = ok(pair_.client->open_uni());
  SendStreamPtr b = ok(pair_.client->open_uni());
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(ok(pair_.client->open_uni()));  // the server allows two at once
  ASSERT_TRUE(a->finish().ok());
  run();
  RecvStreamPtr r = ok(pair_.server->accept_uni());
  Bytes none;
  EXPECT_EQ(r->read(none).status, ReadStatus::Fin);
  run();  // MAX_STREAMS goes back
  EXPECT_TRUE(ok(pair_.client->open_uni()));
}

TEST_F(QmuxPipe, StopSendingIsAnsweredWithResetAndFailsTheWriter) {
  make();
  SendStreamPtr s = ok(pair_.client->open_uni());
  BufChain chain;
  chain.push(text("abc"));
  ASSERT_EQ(ok(s->write(chain)), 3u);
  run();
  RecvStreamPtr r = ok(pair_.server->accept_uni());
  r->stop(42);
  run();
  EXPECT_EQ(s->stop_code(), 42u);
  chain.push(text("more"));
  Result<size_t> w = s->write(chain);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, 42u);
  EXPECT_TRUE(s->reset(7).ok());  // after a stop: succeeds and does nothing
  EXPECT_EQ(pair_.client->stats().stops_received, 1u);
}

TEST_F(QmuxPipe, ResetReachesTheReader) {
  make();
  SendStreamPtr s = ok(pair_.client->open_uni());
  BufChain chain;
  chain.push(text("abc"));
  ASSERT_EQ(ok(s->write(chain)), 3u);
  ASSERT_TRUE(s->reset(9).ok());
  run();
  RecvStreamPtr r = ok(pair_.server->accept_uni());
  Bytes chunk;
  const ReadResult res = r->read(chunk);
  EXPECT_EQ(res.status, ReadStatus::Reset);
  EXPECT_EQ(res.code, 9u);
}

TEST_F(QmuxPipe, CloseReachesThePeerWithItsCodeAndReason) {
  make();
  SendStreamPtr s = ok(pair_.client->open_uni());
  pair_.client->close(0x77, "done here");
  run();
  ASSERT_TRUE(pair_.server->close_error());
  EXPECT_EQ(pair_.server->close_error()->code, 0x77u);
  EXPECT_EQ(pair_.server->close_error()->message, "done here");
  BufChain chain;
  chain.push(text("x"));
  Result<size_t> w = s->write(chain);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, transport_error::kConnectionClosed);
  EXPECT_FALSE(pair_.server->open_uni());
}

TEST_F(QmuxPipe, DroppingAnEndClosesThePeer) {
  make();
  pair_.client.reset();
  ASSERT_TRUE(pair_.server->close_error());
  EXPECT_EQ(pair_.server->close_error()->message, "connection dropped");
}

TEST_F(QmuxPipe, DatagramsCrossAsFrames) {
  make();
  ASSERT_TRUE(pair_.client->send_datagram(text("dg")).ok());
  EXPECT_EQ(pair_.client->send_datagram(Bytes::copy(std::string(1201, 'x'))).error().code,
            transport_error::kDatagramTooLarge);
  run();
  std::optional<Bytes> d = pair_.server->recv_datagram();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->view(), "dg");
}

// A QMux server end fed by hand, one byte at a time or one message at a time.
class QmuxPeer : public ::testing::Test {
 protected:
  QmuxPeer() : conn_(ex_, settings()) {}
  static QmuxSettings settings() {
    QmuxSettings s;
    s.alpn = "moq-test";
    s.client = false;
    s.stream_window = 100;
    s.conn_window = 150;
    s.max_uni = 1;
    s.max_bidi = 1;
    return s;
  }
  // The client's transport parameters (the JS's defaults), then frames.
  void feed(const Buf& bytes, bool byte_at_a_time = false) {
    if (!byte_at_a_time) {
      BufChain c;
      c.push(Bytes::copy(bytes));
      conn_.receive(c);
      return;
    }
    for (uint8_t b : bytes) {
      BufChain c;
      c.push(Bytes::copy(Buf{b}));
      conn_.receive(c);
    }
  }
  void feed_params() {
    feed({0xff, 0x51, 0x53, 0x30, 0x0d, 0x0a, 0x0d, 0x0a, 0x20, 0x04, 0x04, 0x80, 0x10, 0x00,
          0x00, 0x05, 0x04, 0x80, 0x04, 0x00, 0x00, 0x06, 0x04, 0x80, 0x04, 0x00, 0x00, 0x07,
          0x04, 0x80, 0x04, 0x00, 0x00, 0x08, 0x02, 0x40, 0x64, 0x09, 0x02, 0x40, 0x64});
  }
  Buf output() {
    BufChain c;
    conn_.take_output(c);
    return flatten(c);
  }
  // The connection closed with CONNECTION_CLOSE carrying code, and a reason saying `says`.
  void expect_closed(uint64_t code, const std::string& says) {
    ASSERT_TRUE(conn_.close_error());
    EXPECT_EQ(conn_.close_error()->code, transport_error::kQuicError);
    EXPECT_THAT(conn_.close_error()->message, HasSubstr(says));
    const Buf out = output();
    // The last frame out is the close.
    const std::string reason_start = says.substr(0, 8);
    auto at = std::search(out.begin(), out.end(), reason_start.begin(), reason_start.end());
    ASSERT_NE(at, out.end()) << "the reason is not on the wire";
    const Buf head = {0x1c, static_cast<uint8_t>(code)};
    EXPECT_NE(std::search(out.begin(), out.end(), head.begin(), head.end()), out.end());
  }
  VirtualClock clock_;
  Executor ex_{clock_};
  QmuxConnection conn_;
};

TEST_F(QmuxPeer, SendsItsTransportParametersFirst) {
  const Buf out = output();
  const FrameDecode d = decode_frame(out, Framing::Stream);
  ASSERT_EQ(d.status, DecodeStatus::Ok) << d.error;
  EXPECT_EQ(d.frame.kind, FrameKind::TransportParameters);
  Result<TransportParams> p = decode_params(d.frame.data);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->initial_max_data, 150u);
  EXPECT_EQ(p->initial_max_streams_uni, 1u);
  EXPECT_FALSE(conn_.established());
  EXPECT_FALSE(ok(conn_.open_uni()));  // no credit before the peer's parameters
}

TEST_F(QmuxPeer, TheJsProbeStreamArrivesByteByByte) {
  // Example A: the client's parameters, then "0a 00 01 04" (PROBE on bidi 0).
  feed_params();
  feed({0x0a, 0x00, 0x01, 0x04}, true);
  ASSERT_FALSE(conn_.close_error()) << conn_.close_error()->message;
  EXPECT_TRUE(conn_.established());
  BidiStream s = ok(conn_.accept_bidi());
  ASSERT_TRUE(s);
  EXPECT_EQ(s.recv->id(), 0u);
  EXPECT_EQ(read_text(*s.recv), "\x04");
  // The server declines with FIN: "0b 00 00".
  (void)output();
  ASSERT_TRUE(s.send->finish().ok());
  EXPECT_EQ(output(), (Buf{0x0b, 0x00, 0x00}));
}

TEST_F(QmuxPeer, MessagesCarryOneFrameEach) {
  QmuxSettings s = settings();
  s.framing = Framing::Message;
  QmuxConnection ws(ex_, s);
  BufChain first;
  ws.take_output(first);
  const Buf sent = flatten(first);
  const FrameDecode params_out = decode_frame(sent, Framing::Message);  // one whole frame
  ASSERT_EQ(params_out.status, DecodeStatus::Ok) << params_out.error;
  EXPECT_EQ(params_out.frame.kind, FrameKind::TransportParameters);
  const Buf params = {0xff, 0x51, 0x53, 0x30, 0x0d, 0x0a, 0x0d, 0x0a, 0x00};
  ws.receive_message(Bytes::copy(params));
  ws.receive_message(Bytes::copy(Buf{0x0a, 0x02, 0x01, 0x00}));  // uni 2: GROUP type 0
  ws.receive_message(Bytes::copy(Buf{0x0b, 0x02, 0x00}));
  ASSERT_FALSE(ws.close_error()) << ws.close_error()->message;
  RecvStreamPtr r = ok(ws.accept_uni());
  ASSERT_TRUE(r);
  EXPECT_EQ(read_text(*r), std::string(1, '\0'));
  Bytes none;
  EXPECT_EQ(r->read(none).status, ReadStatus::Fin);
  // A message with two frames is an error.
  ws.receive_message(Bytes::copy(Buf{0x01, 0x01}));
  ASSERT_TRUE(ws.close_error());
  EXPECT_THAT(ws.close_error()->message, HasSubstr("one frame per message"));
}

TEST_F(QmuxPeer, APeerPastTheStreamWindowIsClosed) {
  feed_params();
  Buf frame = {0x0a, 0x02, 0x40, 101};  // 101 bytes on uni 2; the window is 100
  frame.resize(frame.size() + 101, 'x');
  feed(frame);
  expect_closed(qmux_error::kFlowControl, "up to byte 101, over its limit of 100");
}

TEST_F(QmuxPeer, APeerPastTheConnectionWindowIsClosed) {
  feed_params();
  Buf frames = {0x0a, 0x02, 0x40, 90};
  frames.resize(frames.size() + 90, 'x');
  const Buf second = {0x0a, 0x00, 0x40, 70};
  frames.insert(frames.end(), second.begin(), second.end());
  frames.resize(frames.size() + 70, 'y');
  feed(frames);
  expect_closed(qmux_error::kFlowControl, "160 bytes over all streams, over its limit of 150");
}

TEST_F(QmuxPeer, APeerPastItsStreamLimitIsClosed) {
  feed_params();
  feed({0x0b, 0x02, 0x00, 0x0b, 0x06, 0x00});  // uni 2 and uni 6: one is allowed
  expect_closed(qmux_error::kStreamLimit, "uni stream 6 (index 1) at or above the limit of 1");
}

TEST_F(QmuxPeer, FramesBeforeTheParametersAreAViolation) {
  feed({0x0b, 0x02, 0x00});
  expect_closed(qmux_error::kProtocolViolation, "first frame is STREAM");
}

TEST_F(QmuxPeer, DataOnOurOwnUniStreamIsAViolation) {
  feed_params();
  feed({0x0a, 0x03, 0x01, 0x00});  // uni 3 is the server's own
  expect_closed(qmux_error::kStreamState, "uni stream 3, which only this side sends on");
}

TEST_F(QmuxPeer, AnUnknownFrameTypeIsAnError) {
  feed_params();
  feed({0x21, 0x00});
  expect_closed(qmux_error::kFrameEncoding, "unknown QMux frame type 0x21");
}

TEST_F(QmuxPeer, TheJsCloseIsTheApplicationsCode) {
  feed_params();
  feed({0x1d, 0x40, 0x64, 0x00, 0x02, 'o', 'k'});
  ASSERT_TRUE(conn_.close_error());
  EXPECT_EQ(conn_.close_error()->code, 100u);
  EXPECT_EQ(conn_.close_error()->message, "ok");
}

TEST_F(QmuxPeer, StopSendingAfterFinIsTolerated) {
  feed_params();
  SendStreamPtr s = ok(conn_.open_uni());
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->finish().ok());
  feed({0x05, 0x03, 0x00});  // STOP_SENDING(0) on uni 3, as the JS sends after reading the FIN
  EXPECT_FALSE(conn_.close_error());
}

}  // namespace
}  // namespace moq::sim::qmux
