// The checks the QMux fuzz target runs on one input (tests/fuzz/qmux_fuzz.cpp), in a header so
// that the regular tests replay the committed seeds through them too (tests/qmux). Input: a mode
// byte, then bytes.
//  - mode 4k + 2: the bytes as WebSocket messages (one frame each) cut where the input chooses:
//    an end still open read one frame per message, each output is one whole frame, and a closed
//    end wrote a close frame;
//  - mode 4k: the bytes as one QMux byte stream after the peer's transport parameters, fed to
//    a server end whole and again cut at points the input chooses: both must end the same way
//    (open, or closed with the same reason) with the same streams and bytes, and a closed end
//    must have written a close frame;
//  - mode odd: the frame decoder alone: on a byte stream a frame it decodes fits the input and
//    every shorter prefix of it waits for more; as one message the same bytes are one frame or
//    an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace moq::fuzz {

// Runs the checks; fail(what) is called for a property that does not hold.
void check_qmux_input(std::span<const uint8_t> input,
                      const std::function<void(const std::string&)>& fail);

}  // namespace moq::fuzz
