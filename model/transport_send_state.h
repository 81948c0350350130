// Where a stream's send half stands, for the backends that implement transport.h (sim/memory and
// sim/quic): both keep it per stream and refuse a write, finish or reset by it (the codes of
// transport_error). Sessions never see it; it sits beside transport.h, under both worlds, so that
// the two backends share one definition.
#pragma once

#include <cstdint>

namespace moq {

// Open until finish() (Finished, kStreamFinished on later use) or reset() (Reset, kStreamReset).
enum class SendState : uint8_t { Open, Finished, Reset };

}  // namespace moq
