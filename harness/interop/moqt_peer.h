// A moq-transport endpoint that speaks the wire itself (model/wire/ietf) over one connection to
// the relay, so that a test case sees each message the relay sends as it was sent: the control
// stream's SETUP both ways, request streams it opens or accepts, and the objects of the subgroup
// streams the relay opens. The interop cases (cases_moqt.cpp) are written against it. It answers
// by itself only what a relay may ask of any publisher at any time: SUBSCRIBE_NAMESPACE with
// REQUEST_OK, and, for a peer that serves tracks (serve_track), a SUBSCRIBE of one of them with
// SUBSCRIBE_OK and any other request with REQUEST_ERROR DOES_NOT_EXIST. A peer that serves no
// track leaves other requests open and unanswered.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/interop/dialer.h"
#include "model/wire/ietf/control.h"
#include "model/wire/ietf/data.h"

namespace moq::interop {

namespace w = wire::ietf;

// The bytes of one stream the peer sends on, kept until decoded.
class StreamIn {
 public:
  explicit StreamIn(RecvStreamPtr stream) : stream_(std::move(stream)) {}
  // Takes in what has arrived; false once the stream ended (FIN, reset or connection closed).
  bool pull();
  std::span<const uint8_t> bytes() const { return {data_.data() + head_, data_.size() - head_}; }
  void consume(size_t n) { head_ += n; }
  bool finished() const { return fin_; }  // FIN seen (bytes may remain)
  // Why the stream ended other than by FIN: "reset with code N" or the connection's error.
  const std::optional<std::string>& broken() const { return broken_; }
  RecvStream& stream() { return *stream_; }

 private:
  RecvStreamPtr stream_;
  std::vector<uint8_t> data_;
  size_t head_ = 0;
  bool fin_ = false;
  std::optional<std::string> broken_;
};

class MoqtPeer;

// One request stream, opened by either side.
class MoqtRequest {
 public:
  MoqtRequest(MoqtPeer& peer, BidiStream stream)
      : peer_(&peer), send_(std::move(stream.send)), in_(std::move(stream.recv)) {}
  Status send(const w::ControlMessage& m);
  // The next message; an error when the deadline passes, the stream ends before one (FIN:
  // "finished", or reset), the bytes are malformed, or the connection closes.
  Result<w::ControlMessage> next(uint64_t deadline_ns, const std::string& what);
  Status finish() { return send_->finish(); }
  // The relay's side ended with FIN (after every message in it was read).
  bool finished() const { return in_.finished() && in_.bytes().empty(); }
  // Abandons the request both ways (RESET_STREAM and STOP_SENDING with code).
  void cancel(uint64_t code);
  // The first message of a request the peer opened.
  w::ControlMessage first;

 private:
  // Writes m without waiting (pump() answers inside a wait): a small message fits the credit
  // every new stream has.
  Status send_now(const w::ControlMessage& m);
  // A whole message decoded from what has arrived, or nullopt (more needed); an Error when the
  // bytes are malformed.
  Result<std::optional<w::ControlMessage>> try_decode();
  friend class MoqtPeer;
  MoqtPeer* peer_;
  SendStreamPtr send_;
  StreamIn in_;
};

// One subgroup stream the relay opened: its header and the objects read so far.
struct SubgroupIn {
  explicit SubgroupIn(StreamIn s) : in(std::move(s)) {}
  StreamIn in;
  std::optional<w::SubgroupHeader> header;
  w::SubgroupStreamState state;
  struct Object {
    uint64_t id = 0;
    std::string payload;
  };
  std::vector<Object> objects;
};

class MoqtPeer {
 public:
  MoqtPeer(Dialer& dialer, std::unique_ptr<sim::quic::QuicConnection> conn, std::string who);
  // Closes the connection cleanly (code 0) unless it is closed already.
  ~MoqtPeer();
  MoqtPeer(const MoqtPeer&) = delete;
  MoqtPeer& operator=(const MoqtPeer&) = delete;

  w::IetfVersion version() const { return v_; }
  const std::string& who() const { return who_; }

  // Opens the control stream with SETUP (PATH and AUTHORITY from the relay URL) and waits for
  // the relay's SETUP.
  Status setup(uint64_t deadline_ns);
  const std::optional<w::Setup>& peer_setup() const { return peer_setup_; }

  // The next Request ID of this client (0, 2, 4, ...).
  uint64_t next_request_id();
  // From now on, a SUBSCRIBE of this track is answered SUBSCRIBE_OK (a track with no objects yet).
  void serve_track(w::TrackNamespace ns, std::string name);
  // SUBSCRIBEs answered so far, and the alias the last one was given.
  uint64_t subscribes_answered() const { return subscribes_answered_; }

  // Opens a request stream and sends its first message.
  Result<std::unique_ptr<MoqtRequest>> request(const w::ControlMessage& first);
  // The next subgroup stream the relay opened, read to its end (FIN or reset).
  Result<std::unique_ptr<SubgroupIn>> subgroup(uint64_t deadline_ns, const std::string& what);
  // A subgroup stream of our own: SUBGROUP_HEADER, the objects, FIN.
  Status send_subgroup(const w::SubgroupHeader& header,
                       const std::vector<std::string>& object_payloads);

  // Why the connection closed, when it did ("closed by the relay: code N (reason)").
  std::optional<std::string> closed_why() const;

  // Takes in what the relay opened; every wait of the dialer calls it. An Error when the relay
  // broke the protocol (a malformed control stream or request).
  Status pump();

 private:
  // Answers a request the relay opened as serve_track() says (see the top of this file).
  void answer(MoqtRequest& r);
  friend class MoqtRequest;
  template <class Pred>
  Status wait(Pred&& done, uint64_t deadline_ns, const std::string& what);
  // A new uni stream, waiting for stream credit.
  Result<SendStreamPtr> open_uni(uint64_t deadline_ns, const std::string& what);
  // Writes all of data, waiting for flow-control credit as needed.
  Status write_all(SendStream& s, std::span<const uint8_t> data, uint64_t deadline_ns,
                   const std::string& what);

  Dialer* dialer_;
  std::unique_ptr<sim::quic::QuicConnection> conn_;
  std::string who_;
  w::IetfVersion v_;
  uint64_t next_request_id_ = 0;
  SendStreamPtr control_;
  std::unique_ptr<StreamIn> peer_control_;
  std::optional<w::Setup> peer_setup_;
  std::vector<std::unique_ptr<StreamIn>> unclassified_;     // uni streams, type not read yet
  std::vector<std::unique_ptr<SubgroupIn>> subgroups_;      // being read
  std::deque<std::unique_ptr<SubgroupIn>> done_subgroups_;  // read to their end
  std::vector<std::unique_ptr<MoqtRequest>> opening_;       // bidi, first message not read yet
  std::vector<std::unique_ptr<MoqtRequest>> held_;  // answered or left unanswered, kept open
  std::optional<std::string> broken_;               // the relay broke the protocol
  std::vector<std::pair<w::TrackNamespace, std::string>> served_;
  uint64_t subscribes_answered_ = 0;
  uint64_t next_alias_ = 1;
  uint64_t poller_;
};

template <class Pred>
Status MoqtPeer::wait(Pred&& done, uint64_t deadline_ns, const std::string& what) {
  bool met = false;  // done() is asked until it holds, never after (it may act)
  Status st = dialer_->wait_until(
      [&] {
        if (!met) met = done();
        return met || conn_->close_error().has_value();
      },
      deadline_ns, who_ + ": " + what);
  if (!st) return st;
  if (!met) return Error{0, who_ + ": " + what + ": " + *closed_why()};
  return {};
}

}  // namespace moq::interop
