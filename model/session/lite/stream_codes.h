// What the lite engine's streams share beyond model/session/core: the send-order convention,
// the stream codes data-model errors map onto, and reading FRAMEs into a group.
#pragma once

#include <cstdint>
#include <string>

#include "model/async/executor.h"
#include "model/base/result.h"
#include "model/data/group.h"
#include "model/session/core/stream_input.h"
#include "model/session/lite/frames.h"
#include "model/wire/lite/version.h"

namespace moq::session::lite {

// Send orders (higher first, one convention everywhere): control streams above all data, then
// subscriber priority, then newer groups first.
inline constexpr int64_t kControlSendOrder = INT64_MAX;
inline constexpr int kPrioritySendShift = 48;
constexpr int64_t data_send_order(uint8_t priority, uint64_t sequence) {
  constexpr uint64_t kSeqMask = (uint64_t{1} << kPrioritySendShift) - 1;
  return static_cast<int64_t>((uint64_t{priority} << kPrioritySendShift) |
                              (sequence < kSeqMask ? sequence : kSeqMask));
}

// What receive_frames() found.
enum class FramesEnd : uint8_t {
  Pending,  // waiting for more (waiter armed)
  Fin,      // the stream ended cleanly between frames
  Reset,    // the peer reset the stream: code
  Failed,   // the connection closed or the stream was stopped locally: code
  Bad,      // malformed FRAME bytes, a FIN inside a frame, or a frame the group refused: error
};

struct FramesResult {
  FramesEnd end;
  uint64_t code = 0;
  Error error;
  bool malformed = false;  // Bad because the bytes broke the wire format (a session violation)
};

// Reads every chunk available, appending complete frames to group.
FramesResult receive_frames(core::StreamInput& in, Waiter& waiter, FrameParser& parser,
                            GroupProducer& group, wire::lite::LiteVersion v);

// The stream code to reset with when a data-model object ended with error: data-model codes map
// onto moq-lite stream codes; codes that already are stream codes pass through.
uint64_t reset_code_for(const Error& error);

// "code 0x33 (provisional NotFound)".
std::string describe_code(uint64_t code, wire::lite::LiteVersion v);

}  // namespace moq::session::lite
