#include "sim/ws/subprotocol.h"

#include <algorithm>

namespace moq::sim::ws {

namespace {

std::string listed(const std::vector<std::string>& items) {
  if (items.empty()) return "none";
  std::string out;
  for (const std::string& s : items)
    out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::string qmux_subprotocol(const std::string& alpn) {
  return kQmuxPrefix + alpn;
}

std::string alpn_of_subprotocol(const std::string& subprotocol) {
  const std::string prefix = kQmuxPrefix;
  if (subprotocol.size() <= prefix.size() || subprotocol.compare(0, prefix.size(), prefix) != 0)
    return "";
  return subprotocol.substr(prefix.size());
}

bool choose_subprotocol(const std::vector<std::string>& offered,
                        const std::vector<std::string>& alpns, std::string& chosen_or_why) {
  for (const std::string& alpn : alpns) {
    const std::string want = qmux_subprotocol(alpn);
    if (std::find(offered.begin(), offered.end(), want) != offered.end()) {
      chosen_or_why = want;
      return true;
    }
  }
  std::vector<std::string> supported;
  supported.reserve(alpns.size());
  for (const std::string& alpn : alpns)
    supported.push_back(qmux_subprotocol(alpn));
  std::string why = "no supported WebSocket subprotocol: offered " + listed(offered) +
                    "; supported " + listed(supported);
  const bool bare = std::find(offered.begin(), offered.end(), "qmux-00") != offered.end();
  const bool legacy = std::any_of(offered.begin(), offered.end(), [](const std::string& s) {
    return s.compare(0, 12, "webtransport") == 0;
  });
  if (bare) why += "; bare qmux-00 (a MoQ version chosen by an in-band SETUP) is not supported";
  if (legacy) why += "; the webtransport framing is not supported, only qmux-00";
  chosen_or_why = why;
  return false;
}

}  // namespace moq::sim::ws
