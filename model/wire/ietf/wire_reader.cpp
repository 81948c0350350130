#include "model/wire/ietf/wire_reader.h"

#include <cstdio>

namespace moq::wire::ietf {

void WireReader::adopt(const WireReader& child, const char* field, uint64_t overrun_code) {
  if (!ok() || child.ok()) return;
  if (child.status() == DecodeStatus::NeedMore) {
    fail_code(overrun_code, field,
              "contents run past the declared length of " +
                  std::to_string(child.consumed() + child.remaining()) + " bytes (" +
                  child.error_text() + ")");
    return;
  }
  code_ = child.code_;
  adopted_ = child.error_text();
  fail(field, adopted_);
}

void WireReader::expect_end(const char* field) {
  if (ok() && !at_end())
    fail(field, std::to_string(remaining()) + " bytes left over after the last field");
}

std::string describe_value(uint64_t v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%llu (0x%llx)", static_cast<unsigned long long>(v),
                static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace moq::wire::ietf
