// Small stream helpers shared by the session's tasks.
#pragma once

#include <cstdint>
#include <string>

#include "model/async/executor.h"
#include "model/base/buf_chain.h"
#include "model/base/result.h"
#include "model/data/group.h"
#include "model/session/lite/frames.h"
#include "model/session/lite/message_reader.h"
#include "model/transport.h"
#include "model/wire/lite/version.h"

namespace moq::session::lite {

enum class Flush : uint8_t { Done, Pending, Failed };

// Writes as much of out as the stream takes (one gather write). Pending: the rest waits, and
// waiter is armed on writable(). Failed: the peer stopped the stream or the connection closed
// (error set).
Flush flush(SendStream& stream, BufChain& out, Waiter& waiter, Error* error = nullptr);

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
FramesResult receive_frames(RecvStream& stream, Waiter& waiter, FrameParser& parser,
                            GroupProducer& group, wire::lite::LiteVersion v);

// Reads and discards until the peer ends its half (FIN, reset or connection error): true then;
// false while it has not (waiter armed). Counts a reset in resets_received.
bool drain(RecvStream& stream, MessageReader& reader, Waiter& waiter, uint64_t& resets_received);

// The stream code to reset with when a data-model object ended with error: data-model codes map
// onto moq-lite stream codes; codes that already are stream codes pass through.
uint64_t reset_code_for(const Error& error);

// "code 0x33 (provisional NotFound)".
std::string describe_code(uint64_t code, wire::lite::LiteVersion v);

}  // namespace moq::session::lite
