// FETCH (bidi stream 0x3, draft-lcurley-moq-lite-06), both roles: the publisher answers with the
// frames of one group; the viewer writes them into a group it hands out as a FetchConsumer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "model/base/path.h"
#include "model/data/data.h"
#include "model/session/lite/frames.h"
#include "model/session/lite/task.h"
#include "model/wire/lite/messages.h"

namespace moq::session::lite {

// Publisher: the group's frames in one gather write per batch, FIN at the end of the group (or
// of the requested range; a group still being written streams as it grows), then the paired
// close (wait for the peer's FIN).
class FetchServeTask final : public BidiTask {
 public:
  FetchServeTask(LiteSession& s, TaskPoolBase& p) : BidiTask(s, p, "lite fetch serve") {}
  // The accepted stream; input holds what followed the stream type.
  void start(SendStreamPtr send, core::StreamInput& input);

 protected:
  Poll step() override;
  void clear() override;

 private:
  enum class Phase : uint8_t { Request, Send, Drain };
  Poll request();
  Poll send_frames();

  Phase phase_ = Phase::Request;
  wire::lite::Fetch req_;
  GroupConsumer group_;
  size_t end_ = 0;  // exclusive frame index where the answer ends
  FrameEncoder encoder_;
  Waiter group_waiter_{*this};
};

// Viewer: FETCH, then the answer's frames into the group the FetchConsumer reads.
class FetchRequestTask final : public BidiTask {
 public:
  FetchRequestTask(LiteSession& s, TaskPoolBase& p) : BidiTask(s, p, "lite fetch request") {}
  // request: the encoded FETCH; broadcast, track and sequence name it in errors.
  void start(Bytes request, GroupProducer group, const Path& broadcast, std::string_view track,
             uint64_t sequence);

 protected:
  Poll step() override;
  void on_abandon(const Error& reason) override;
  void clear() override;

 private:
  std::string describe() const;

  Bytes request_;
  uint64_t sequence_ = 0;
  GroupProducer group_;
  std::string broadcast_;
  std::string track_;
  FrameParser parser_;
};

}  // namespace moq::session::lite
