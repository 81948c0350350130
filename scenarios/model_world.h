// The model bench's world: publisher sessions and viewer sessions connected directly over
// sim/memory, one executor, one virtual clock.
//
// Publisher p (0 <= p < publishers) owns an Origin with one broadcast at "bench/pub<p>" holding one
// track "video". Viewer i (0 <= i < viewers) has its own connection to publisher i mod publishers:
// the server end runs a session serving that publisher's origin, the client end the viewer's
// session. A publisher with no viewer (publishers > viewers) still exists but writes nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/runner/delivery.h"
#include "harness/runner/payloads.h"
#include "harness/runner/scenario.h"
#include "harness/runner/stack_probe.h"
#include "model/data/data.h"
#include "model/session/session.h"
#include "sim/clock.h"
#include "sim/memory/memory_transport.h"

namespace moq::scenarios {

struct ModelWorldConfig {
  session::Version version = session::Version::Lite06;
  uint32_t publishers = 1;
  uint32_t viewers = 1;
  uint32_t cached_groups = 1;  // the publishers' track cache (groups kept)
};

struct ModelPublisher {
  OriginProducer origin;
  BroadcastProducer broadcast;
  TrackProducer track;
  Path path;
  uint32_t viewers = 0;  // viewers connected to it
};

struct ModelViewer {
  uint32_t publisher = 0;  // index of the publisher it is connected to
  sim::memory::ConnectionPair conns;
  std::unique_ptr<session::Session> serving;  // server end: serves the publisher's origin
  std::unique_ptr<session::Session> session;  // client end: the viewer
  harness::DeliveryLog log;                   // what it read this round
};

class ModelWorld {
 public:
  // Builds the topology and runs the executor until the sessions are idle.
  Status build(const ModelWorldConfig& config);

  Executor& executor() { return executor_; }
  std::vector<ModelPublisher>& publishers() { return publishers_; }
  std::vector<ModelViewer>& viewers() { return viewers_; }
  const harness::StackProbe& probe() const { return probe_; }

  // Clears every viewer's delivery log (outside the measured round).
  void clear_logs();
  // Every viewer's delivery, combined in viewer order.
  harness::RoundDelivery delivered() const;

 private:
  // Declared first: destroyed last, after every session and connection that uses them.
  sim::VirtualClock clock_;
  Executor executor_{clock_};
  std::vector<ModelPublisher> publishers_;
  std::vector<ModelViewer> viewers_;
  harness::StackProbe probe_;
};

// Reads every frame a fetch or group consumer has now into log; Error unless the consumer then
// reports End (the whole group arrived and ended).
template <class Consumer>
Status read_to_end(Consumer& consumer, harness::DeliveryLog& log, const char* what) {
  FrameView frame;
  for (;;) {
    switch (consumer.next(frame)) {
      case Next::Ready:
        log.record(frame.chunks);
        continue;
      case Next::End:
        return {};
      case Next::Pending:
        return Error{0, std::string(what) + " has not ended once the executor went idle (" +
                            std::to_string(log.frames()) + " frames read)"};
      case Next::Aborted:
        return Error{0, std::string(what) + " aborted: " + consumer.error().message};
    }
  }
}

// A case's world: its version (an Error unless a session engine implements it) and its
// publishers and viewers axes; cached_groups keeps its default.
Result<ModelWorldConfig> model_world_config(const harness::CaseSpec& spec);

}  // namespace moq::scenarios
