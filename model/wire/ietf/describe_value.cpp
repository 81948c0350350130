#include "model/wire/ietf/describe_value.h"

#include <cstdio>

namespace moq::wire::ietf {

std::string describe_value(uint64_t v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%llu (0x%llx)", static_cast<unsigned long long>(v),
                static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace moq::wire::ietf
