#include "tests/fuzz/qmux_checks.h"

#include <algorithm>
#include <vector>

#include "sim/clock.h"
#include "sim/qmux/qmux_connection.h"
#include "tests/fuzz/fuzz_input.h"

namespace moq::fuzz {

namespace {

using sim::qmux::FrameDecode;
using sim::qmux::Framing;
using sim::qmux::QmuxConnection;
using sim::qmux::QmuxSettings;

// What a server end made of a byte stream.
struct Outcome {
  std::string closed;  // the close reason; empty while open
  bool closed_locally = false;
  ConnectionStats stats;
  uint64_t frames = 0;
  bool wrote_close = false;
};

// The peer's transport parameters: small windows and limits, so that inputs reach them.
const std::vector<uint8_t> kParams = {0xff, 0x51, 0x53, 0x30, 0x0d, 0x0a, 0x0d, 0x0a,
                                      0x0e, 0x04, 0x02, 0x44, 0x00, 0x06, 0x02, 0x41,
                                      0x00, 0x08, 0x01, 0x04, 0x09, 0x01, 0x04};

// cuts: where to cut the bytes (offsets, ascending); empty: whole.
Outcome feed(std::span<const uint8_t> bytes, const std::vector<size_t>& cuts) {
  sim::VirtualClock clock;
  Executor ex(clock);
  QmuxSettings s;
  s.client = false;
  s.stream_window = 256;
  s.conn_window = 1024;
  s.max_uni = 4;
  s.max_bidi = 4;
  QmuxConnection conn(ex, s);
  BufChain out;
  conn.take_output(out);
  {
    BufChain in;
    in.push(Bytes::copy(kParams));
    conn.receive(in);
  }
  size_t at = 0;
  for (size_t i = 0; i <= cuts.size(); ++i) {
    const size_t end = i < cuts.size() ? cuts[i] : bytes.size();
    if (end <= at) continue;
    BufChain in;
    in.push(Bytes::copy(bytes.subspan(at, end - at)));
    conn.receive(in);
    at = end;
  }
  // Whatever the peer opened is read and dropped, as a session that refuses it would.
  (void)ex.run_until_idle();
  Outcome o;
  if (conn.close_error()) o.closed = conn.close_error()->message;
  o.closed_locally = conn.closed_locally();
  o.stats = conn.stats();
  o.frames = conn.wire().frames_received;
  out.clear();
  conn.take_output(out);
  for (const Bytes& b : out.chunks())
    if (!b.empty() && (b[0] == 0x1c || b[0] == 0x1d)) o.wrote_close = true;
  return o;
}

void check_connection(FuzzInput& in, const std::function<void(const std::string&)>& fail) {
  const std::span<const uint8_t> bytes = in.rest();
  const Outcome whole = feed(bytes, {});
  std::vector<size_t> cuts;
  for (size_t at = 0; at < bytes.size();) {
    at += 1 + in.below(8);
    if (at < bytes.size()) cuts.push_back(at);
  }
  const Outcome cut = feed(bytes, cuts);
  if (whole.closed != cut.closed)
    fail("fed whole it ends \"" + whole.closed + "\", fed in " + std::to_string(cuts.size() + 1) +
         " pieces \"" + cut.closed + "\"");
  if (whole.stats.bytes_received != cut.stats.bytes_received ||
      whole.stats.uni_accepted != cut.stats.uni_accepted ||
      whole.stats.bidi_accepted != cut.stats.bidi_accepted || whole.frames != cut.frames)
    fail("fed whole and in pieces, the same bytes gave other streams, bytes or frames");
  // Told by the connection, not by the reason's text: a peer's own close may say anything.
  if (whole.closed_locally && !whole.wrote_close)
    fail("closed by this end (" + whole.closed + ") without a close frame");
}

// The bytes as WebSocket messages (Framing::Message, the ws world): cut into messages at points
// the input chooses and handed to receive_message() one by one after the peer's transport
// parameters. An end still open took every message as one frame; every output is exactly one
// frame; a closed end wrote a close frame.
void check_messages(FuzzInput& in, const std::function<void(const std::string&)>& fail) {
  const std::span<const uint8_t> bytes = in.rest();
  sim::VirtualClock clock;
  Executor ex(clock);
  QmuxSettings s;
  s.client = false;
  s.framing = Framing::Message;
  s.stream_window = 256;
  s.conn_window = 1024;
  s.max_uni = 4;
  s.max_bidi = 4;
  QmuxConnection conn(ex, s);
  uint64_t messages = 1;
  conn.receive_message(Bytes::copy(kParams));
  for (size_t at = 0; at < bytes.size();) {
    const size_t n = std::min<size_t>(1 + in.below(24), bytes.size() - at);
    conn.receive_message(Bytes::copy(bytes.subspan(at, n)));
    ++messages;
    at += n;
    (void)ex.run_until_idle();
  }
  if (!conn.close_error() && conn.wire().frames_received != messages)
    fail("open after " + std::to_string(messages) + " messages, but " +
         std::to_string(conn.wire().frames_received) + " frames were read");
  bool wrote_close = false;
  BufChain out;
  while (conn.has_output()) {
    out.clear();
    conn.take_output(out);
    std::vector<uint8_t> frame;
    for (const Bytes& b : out.chunks())
      frame.insert(frame.end(), b.data(), b.data() + b.size());
    const FrameDecode d = sim::qmux::decode_frame(frame, Framing::Message);
    if (d.status != DecodeStatus::Ok || d.size != frame.size())
      fail("an output message of " + std::to_string(frame.size()) + " bytes is not one frame");
    if (!frame.empty() && (frame[0] == 0x1c || frame[0] == 0x1d)) wrote_close = true;
  }
  if (conn.closed_locally() && !wrote_close)
    fail("closed by this end in message framing (" + conn.close_error()->message +
         ") without a close frame");
}

void check_decoder(std::span<const uint8_t> bytes,
                   const std::function<void(const std::string&)>& fail) {
  const FrameDecode d = sim::qmux::decode_frame(bytes, Framing::Stream);
  if (d.status == DecodeStatus::Ok) {
    if (d.size == 0 || d.size > bytes.size()) fail("a decoded frame's size is outside its input");
    for (size_t n = 0; n < d.size; ++n) {
      const FrameDecode p = sim::qmux::decode_frame(bytes.first(n), Framing::Stream);
      if (p.status != DecodeStatus::NeedMore)
        fail("a prefix of " + std::to_string(n) + " bytes of a " + std::to_string(d.size) +
             "-byte frame does not wait for more");
    }
  }
  if (d.status == DecodeStatus::Malformed && d.error.empty()) fail("an error without a reason");
  const FrameDecode m = sim::qmux::decode_frame(bytes, Framing::Message);
  if (m.status == DecodeStatus::NeedMore) fail("a message cannot wait for more bytes");
  if (m.status == DecodeStatus::Ok && m.size != bytes.size())
    fail("a message decoded to a frame shorter than the message");
  if (m.status == DecodeStatus::Malformed && m.error.empty()) fail("an error without a reason");
}

}  // namespace

void check_qmux_input(std::span<const uint8_t> input,
                      const std::function<void(const std::string&)>& fail) {
  FuzzInput in(input.data(), input.size());
  const uint8_t mode = in.take_byte();
  if (mode % 2 == 1) {
    check_decoder(in.rest(), fail);
  } else if (mode % 4 == 0) {
    check_connection(in, fail);
  } else {
    check_messages(in, fail);
  }
}

}  // namespace moq::fuzz
