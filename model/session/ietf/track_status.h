// TRACK_STATUS (draft-ietf-moq-transport), both roles: the publisher answers with REQUEST_OK
// carrying LARGEST_OBJECT and the Track Properties (or REQUEST_ERROR); the viewer resolves a
// Reply<TrackInfo> with it.
#pragma once

#include <optional>
#include <string>

#include "model/data/data.h"
#include "model/session/ietf/request.h"
#include "model/session/session.h"

namespace moq::session::ietf {

// Publisher.
class TrackStatusServeTask final : public RequestTask {
 public:
  TrackStatusServeTask(IetfSession& s, TaskPoolBase& p)
      : RequestTask(s, p, "ietf track status serve") {}
  void start(SendStreamPtr send, core::StreamInput& input, w::ControlMessage& request);

 protected:
  Poll step() override;
  void clear() override;

 private:
  w::ControlMessage request_;  // a TrackStatus
  std::optional<TrackConsumer> track_;
  bool answered_ = false;
  Waiter track_waiter_{*this};
};

// Viewer.
class TrackStatusRequestTask final : public RequestTask {
 public:
  TrackStatusRequestTask(IetfSession& s, TaskPoolBase& p)
      : RequestTask(s, p, "ietf track status request") {}
  void start(const Path& broadcast, std::string_view track, ReplyProducer<TrackInfo> reply);

  bool on(const w::RequestOk& ok);
  bool on(const w::RequestError& error);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  w::TrackStatus request_;  // kept: its strings keep their capacity
  ReplyProducer<TrackInfo> reply_;
  bool sent_ = false;
};

}  // namespace moq::session::ietf
