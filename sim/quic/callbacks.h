// The ngtcp2_callbacks of a connection (callbacks.cpp). Internal to sim/quic.
#pragma once

#include <ngtcp2/ngtcp2.h>

namespace moq::sim::quic {

ngtcp2_callbacks make_callbacks(bool client);

}  // namespace moq::sim::quic
