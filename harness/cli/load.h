// `moqbench load`: a live load against a relay over real QUIC. Publishers write frames at a frame
// rate, viewers subscribe and read them, and the run reports what arrived in a measured window
// against what should have (loss), how late (write -> read per frame; per group, its latest
// frame), and, for
// the in-process relay (run on its own thread, with its own executor and sockets), the relay's
// allocations per delivered frame. Every frame carries the time it was written and its number,
// so loss and latency are exact; publishers and viewers share one thread and one client socket.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "model/base/result.h"
#include "model/session/session.h"
#include "reports/schema/results.h"
#include "sim/quic/tls.h"

namespace moq::cli {

// Bytes every frame starts with: 0-7 the time it was written, 8-15 its number.
inline constexpr size_t kLoadFrameStamp = 16;

// Exit status of `moqbench load` beyond cli.h's: more frames lost than --max-loss allows.
inline constexpr int kExitLoadLoss = 3;

struct LoadConfig {
  std::string connect;              // HOST:PORT of a relay; empty: start one in this process
  bool tls_disable_verify = false;  // --connect: accept any certificate
  std::string ca_file;              // --connect: trust the certificates of this PEM file only
  double max_loss = 0;              // the fraction of frames that may be lost, 0..1
  session::Version version = session::Version::Lite06;
  uint32_t publishers = 16;
  uint32_t broadcasts = 1;  // per publisher; viewer v watches broadcast v mod (publishers x this)
  uint32_t viewers = 64;
  uint32_t frame_size = 1024;  // bytes per frame, at least the 16-byte stamp
  uint32_t fps = 30;
  uint32_t duration_s = 10;   // the measured window
  uint32_t group_frames = 0;  // frames per group; 0: fps (one group a second)
  uint32_t warmup_ms = 500;   // frames flow this long before the window opens
  uint32_t drain_ms = 1000;   // and this long after it closes, for the last to arrive
};

// The certificates of a PEM file (--ca-file), trusted alone; an Error names the file.
Result<std::shared_ptr<sim::quic::TlsTrust>> trust_of_ca_file(const std::string& path);

// Checks a configuration before anything runs: an Error names the option that is wrong (the
// command's exit 2).
Status check_load_config(const LoadConfig& config);

// The fraction of the expected frames that were lost (0 when none were expected).
double loss_fraction(const results::LoadSummary& load);

// Runs the load and returns its result as a case (bench relay, scenario load; metrics per second
// of the window are the generator's own: its client connections and thread). Progress goes to
// err each second (one redrawn line when err is a terminal). An Error when the run could not
// finish: the relay unreachable, a handshake refused (a certificate not verified says which
// options trust it), or a connection to the relay ended mid-run (naming which, why, and how many
// seconds into the run). A case with flags.failed when nothing arrived or more frames were lost
// than config.max_loss allows. The latency percentiles are absent when no frame (per frame) or
// no whole group (per group) arrived.
Result<results::CaseResult> run_load(const LoadConfig& config, std::ostream& err,
                                     bool err_is_terminal);

}  // namespace moq::cli
