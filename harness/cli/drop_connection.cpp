#include "harness/cli/drop_connection.h"

namespace moq::cli {

namespace {
// The code of the STOP_SENDING: the application's own, no protocol's error.
constexpr uint64_t kDroppedCode = 0;
}  // namespace

Result<RecvStreamPtr> DroppingConnection::accept_uni() {
  for (;;) {
    Result<RecvStreamPtr> s = inner_->accept_uni();
    if (!s || !*s) return s;
    const uint64_t index = accepted_++;
    if (index == 0 || index % every_ != 0) return s;
    (*s)->stop(kDroppedCode);
    ++dropped_;
  }
}

}  // namespace moq::cli
