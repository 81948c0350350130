#include "model/wire/lite/version.h"

namespace moq::wire::lite {

std::optional<LiteVersion> version_from_alpn(std::string_view id) {
  if (id == kAlpnLite06) return LiteVersion::Lite06;
  if (id == kAlpnLite07Wip) return LiteVersion::Lite07Wip;
  return std::nullopt;
}

}  // namespace moq::wire::lite
