// The WebSocket subprotocols of QMux-00 ("qmux-00.<alpn>") and the server's choice among those a
// client offers. C++17 and the standard library only: websocket_wspp.cpp (C++17) uses it too.
//
// The choice follows the server's preference (the order of alpns), not the client's order: the
// JavaScript peer lists the bare "qmux-00" and "webtransport" first, and either would start its
// legacy path (an in-band SETUP, or a framing without transport parameters) that moqbench does not
// speak. Bare "qmux-00", every "webtransport*" entry and unknown ALPNs are never chosen.
#pragma once

#include <string>
#include <vector>

namespace moq::sim::ws {

inline constexpr const char kQmuxPrefix[] = "qmux-00.";

// "qmux-00." + alpn.
std::string qmux_subprotocol(const std::string& alpn);
// The ALPN of a "qmux-00.<alpn>" subprotocol, or "" for anything else.
std::string alpn_of_subprotocol(const std::string& subprotocol);
// True with the chosen subprotocol in chosen_or_why: the first of alpns (in that order) that
// offered holds as "qmux-00.<alpn>". False with the reason in chosen_or_why: what was offered,
// what is supported, and why bare qmux-00 or webtransport were not taken when offered.
bool choose_subprotocol(const std::vector<std::string>& offered,
                        const std::vector<std::string>& alpns, std::string& chosen_or_why);

}  // namespace moq::sim::ws
