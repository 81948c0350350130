// The network under a scenario's world, chosen by the `transport` axis:
//  - memory:   sim/memory pairs on the virtual clock (the default; no wire at all);
//  - quic-sim: real QUIC (sim/quic on ngtcp2 + GnuTLS) over simulated links (sim/quic/memnet.h)
//              on the virtual clock, every random choice seeded: the same build and arguments
//              give the same packets and the same counts;
//  - quic:     real QUIC over UDP sockets on 127.0.0.1, both endpoints in this process, one event
//              loop, the real clock;
//  - qmux:     QUIC's stream frames without QUIC: QMux-00 (sim/qmux) on a deterministic in-memory
//              byte pipe, on the virtual clock, so that the cost of framing alone can be compared.
// A world asks it for connected pairs and for quiet (settle): what "nothing more will happen
// now" means differs: an idle executor in memory; on QUIC, also no packet on the way and no
// stream data left to send (on real UDP: none left unacknowledged either, as packets in the
// kernel cannot be seen).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/runner/scenario.h"
#include "model/async/clock.h"
#include "model/async/executor.h"
#include "model/base/result.h"
#include "model/transport.h"
#include "sim/net/link.h"

namespace moq::scenarios {

enum class Transport : uint8_t { Memory, QuicSim, Quic, Qmux };

// A world scenario's axes: its own, then those of the network under the world: `transport`, then
// the link model (sim/net/link.h)
// between every two endpoints: `latency_ms` one way, `bandwidth_kbps` each way (0: unlimited),
// `loss_pct` (datagrams on memory, packets on quic-sim) and the `seed` of its random draws. Each
// is named in a case id only when not its default (memory, an ideal link), so the ids of the
// cases measured before they existed stay as they were.
std::vector<harness::AxisSpec> with_network_axes(std::vector<harness::AxisSpec> axes);
// The case's transport; memory for a scenario without the axis.
Result<Transport> transport_of(const harness::CaseSpec& spec);
// The case's link model (ideal for a scenario without the axes). quic-sim's links add 0.5 ms of
// their own to latency_ms; real QUIC and qmux have no model and refuse one.
Result<sim::net::LinkConfig> link_of(const harness::CaseSpec& spec, Transport transport);

struct Link {
  std::unique_ptr<Connection> client;
  std::unique_ptr<Connection> server;
};

struct LinkLimits {
  uint32_t max_bidi = 128;  // concurrent bidi streams each endpoint may open
  // Bytes each endpoint may have unread over all its streams (connection flow control). A small
  // window keeps what waits for the link at the sender, where send order still applies.
  uint64_t conn_window = 16 << 20;
};

class WorldNet {
 public:
  explicit WorldNet(Executor& executor) : executor_(&executor) {}
  virtual ~WorldNet() = default;
  Executor& executor() const { return *executor_; }
  // A connected pair speaking alpn, established (handshake done on QUIC).
  virtual Result<Link> connect(const std::string& alpn, LinkLimits limits) = 0;
  // Runs the executor (and the network) until quiet; step_budget bounds each executor run.
  virtual Status settle(const char* what, uint64_t step_budget) = 0;
  // Lets ns of the world's time pass, firing the timers due on the way: a jump of the virtual
  // clock, or a real wait over UDP.
  virtual Status pass_time(uint64_t ns, uint64_t step_budget);
  // Tasks of the network itself, alive as long as it is (what is left once every session and
  // connection is gone): on memory, the sim/net delivery task of a shaped network.
  virtual size_t own_tasks() const { return 0; }

 protected:
  Executor* executor_;
};

// The clock a transport's world runs on: virtual, or the monotonic clock for quic.
std::unique_ptr<Clock> make_world_clock(Transport transport);
// The network, on an executor running on make_world_clock's clock, with link between every two
// endpoints (sim/memory and quic-sim). Destroy it before the executor, and after every connection
// it made.
std::unique_ptr<WorldNet> make_world_net(Transport transport, Executor& executor,
                                         const sim::net::LinkConfig& link = {});

}  // namespace moq::scenarios
