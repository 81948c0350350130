// The qmux world's carrier: two QmuxConnections joined by a deterministic in-memory byte pipe.
// One task per direction waits on the sending end's output_ready(), takes every byte it has
// (by reference: header slices and payload slices, no copy) and hands them to the receiving end
// as the next bytes of its byte stream. Nothing reads a clock and nothing is random, so the same
// build and arguments give the same frames and the same counts.
//
// Each end is a QmuxConnection; destroying one closes it with code 0 ("connection dropped"),
// delivers that close to the peer at once, and unplugs the pipe.
#pragma once

#include <memory>

#include "model/async/executor.h"
#include "model/base/result.h"
#include "sim/qmux/qmux_connection.h"

namespace moq::sim::qmux {

struct QmuxPair {
  std::unique_ptr<QmuxConnection> client;
  std::unique_ptr<QmuxConnection> server;
};

// Two ends speaking settings.alpn with settings' windows and limits (settings.client and
// settings.framing are set per end: a byte stream). The transport parameters are exchanged
// before it returns, so both ends can open streams at once. Fails, naming the field, on a zero
// window or stream limits above what QUIC can express.
Result<QmuxPair> make_pipe_pair(Executor& executor, QmuxSettings settings);

}  // namespace moq::sim::qmux
