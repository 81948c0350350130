// TRACK (bidi stream 0x6, draft-lcurley-moq-lite-06), both roles: the publisher answers with
// TRACK_INFO (or a reset when the track is unknown); the viewer reads it, either for track_info()
// or as the first step of every subscription (the mirror track becomes Active with the publisher's
// real info).
#pragma once

#include <cstdint>
#include <string>

#include "model/data/data.h"
#include "model/session/lite/task.h"
#include "model/session/session.h"
#include "model/wire/lite/messages.h"

namespace moq::session::lite {

// The data model's TrackInfo from TRACK_INFO (Publisher Max Age "no limit" is
// CacheLimits::max_age_ns == UINT64_MAX), and back.
TrackInfo track_info_of(const wire::lite::TrackInfo& info);
wire::lite::TrackInfo track_info_message(const TrackInfo& info);

// Publisher: TRACK_INFO then FIN.
class TrackServeTask final : public BidiTask {
 public:
  TrackServeTask(LiteSession& s, TaskPoolBase& p) : BidiTask(s, p, "lite track serve") {}
  void start(SendStreamPtr send, core::StreamInput& input);

 protected:
  Poll step() override;
  void clear() override;

 private:
  enum class State : uint8_t { Request, Resolve, Answer };
  State state_ = State::Request;
  TrackConsumer track_;
  Waiter track_waiter_{*this};
};

// The viewer's side of the exchange, shared by the tasks that need a track's description.
class TrackAsker : public BidiTask {
 protected:
  using BidiTask::BidiTask;
  enum class Answer : uint8_t {
    Ready,    // info is set; our half of the Track stream is FINed (paired close)
    Pending,  // waiters armed
    Failed,   // error says why (the stream failed, the peer refused or broke a rule)
    Closing,  // the answer was malformed: the session is closing with the violation
  };
  // Opens a Track stream for request (the encoded TRACK) when none is open yet, sends it and reads
  // TRACK_INFO.
  Answer ask_track(Bytes& request, TrackInfo& info, Error& error);
  // Names the request in errors; called only when one is made, so a request that succeeds never
  // builds the text.
  virtual std::string describe() const = 0;
};

// Viewer: TRACK sent on its own; the answer resolves a Reply<TrackInfo>.
class TrackInfoRequestTask final : public TrackAsker {
 public:
  TrackInfoRequestTask(LiteSession& s, TaskPoolBase& p)
      : TrackAsker(s, p, "lite track info request") {}
  void start(Bytes request, ReplyProducer<TrackInfo> reply, std::string what);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;
  std::string describe() const override { return what_; }

 private:
  Bytes request_;
  bool answered_ = false;
  ReplyProducer<TrackInfo> reply_;
  std::string what_;
};

}  // namespace moq::session::lite
