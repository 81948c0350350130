// What `moqbench load` checks of its options before anything runs, and how it reads them: the
// bounds of each option, the --ca-file trust and the loss figure (load.h). Apart from load.cpp,
// which runs the load, so that the command can refuse bad input without starting one.
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "harness/cli/load.h"
#include "sim/quic/datagram.h"

namespace moq::cli {

namespace {

namespace q = sim::quic;

// Bounds of the options: beyond them a run would not fit in memory or in a UDP port's flows.
constexpr uint32_t kMaxFrameSize = 16u << 20;
constexpr uint32_t kMaxDuration_s = 86'400;
constexpr uint32_t kMaxConnections = 10'000;

}  // namespace

Result<std::shared_ptr<q::TlsTrust>> trust_of_ca_file(const std::string& path) {
  // A FIFO or a device would block the read or never end: only a file (or a link to one).
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return Error{0, "--ca-file " + path + ": not a regular file"};
  std::ifstream in(path, std::ios::binary);
  std::ostringstream pem;
  if (in) pem << in.rdbuf();
  if (!in) return Error{0, "--ca-file " + path + ": cannot be read"};
  Result<std::shared_ptr<q::TlsTrust>> t = q::TlsTrust::of_pem(pem.str());
  if (!t) return Error{0, "--ca-file " + path + ": " + t.error().message};
  return t;
}

Status check_load_config(const LoadConfig& config) {
  if (config.frame_size < kLoadFrameStamp)
    return Error{0, "--frame-size must be at least " + std::to_string(kLoadFrameStamp) +
                        " bytes (each frame carries its write time and number)"};
  if (config.frame_size > kMaxFrameSize)
    return Error{0, "--frame-size must be at most " + std::to_string(kMaxFrameSize) + " bytes"};
  if (config.fps == 0 || config.fps > 1000) return Error{0, "--fps must be 1..1000"};
  if (config.duration_s == 0 || config.duration_s > kMaxDuration_s)
    return Error{0, "--duration must be 1.." + std::to_string(kMaxDuration_s) + " seconds"};
  if (config.publishers == 0 || config.broadcasts == 0 || config.viewers == 0)
    return Error{0, "--publishers, --broadcasts and --viewers must be at least 1"};
  if (config.publishers > kMaxConnections || config.viewers > kMaxConnections ||
      uint64_t{config.publishers} * config.broadcasts > kMaxConnections)
    return Error{0, "--publishers, --viewers and publishers x --broadcasts must be at most " +
                        std::to_string(kMaxConnections)};
  if (!(config.max_loss >= 0 && config.max_loss <= 1))  // NaN fails both
    return Error{0, "--max-loss must be a fraction from 0 to 1 (0.01: one frame in a hundred)"};
  if (config.connect.empty()) {
    if (config.tls_disable_verify || !config.ca_file.empty())
      return Error{0,
                   "--tls-disable-verify and --ca-file go with --connect (the in-process "
                   "relay is always trusted)"};
    return {};
  }
  if (Result<q::Address> a = q::Address::parse(config.connect, 4443); !a)
    return Error{0, "--connect: " + a.error().message};
  if (config.tls_disable_verify && !config.ca_file.empty())
    return Error{0, "--tls-disable-verify and --ca-file contradict each other: choose one"};
  if (!config.ca_file.empty()) {
    if (Result<std::shared_ptr<q::TlsTrust>> t = trust_of_ca_file(config.ca_file); !t)
      return t.error();
  }
  return {};
}

double loss_fraction(const results::LoadSummary& load) {
  return load.frames_expected == 0
             ? 0.0
             : static_cast<double>(load.frames_lost) / static_cast<double>(load.frames_expected);
}

}  // namespace moq::cli
