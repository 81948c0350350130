// dispatch(): a message reaches the handler's overload for it; a message with no overload, or one
// the handler declines in its present state, is one error naming the message and the stream.
#include "model/session/core/dispatch.h"

#include <gtest/gtest.h>

#include <variant>

namespace moq::session::core {
namespace {

struct Ok {
  static constexpr const char* kName = "OK";
};
struct End {
  static constexpr const char* kName = "END";
};
struct Drop {
  static constexpr const char* kName = "DROP";
};
using Reply = std::variant<Ok, End, Drop>;

struct Handler {
  bool ended = false;
  int oks = 0;
  bool on(const Ok&) {
    ++oks;
    return true;
  }
  bool on(const End&) {
    if (ended) return false;  // a second END is unexpected
    ended = true;
    return true;
  }
};

const char* name(const auto& m) {
  return std::decay_t<decltype(m)>::kName;
}

TEST(Dispatch, CallsTheOverloadForTheMessage) {
  Handler h;
  EXPECT_TRUE(dispatch(h, Reply(Ok{}), "SUBSCRIBE", [](const auto& m) { return name(m); }));
  EXPECT_TRUE(dispatch(h, Reply(End{}), "SUBSCRIBE", [](const auto& m) { return name(m); }));
  EXPECT_EQ(h.oks, 1);
  EXPECT_TRUE(h.ended);
}

TEST(Dispatch, AMessageWithoutAHandlerOrDeclinedIsUnexpected) {
  Handler h;
  Status no_handler =
      dispatch(h, Reply(Drop{}), "SUBSCRIBE", [](const auto& m) { return name(m); });
  ASSERT_FALSE(no_handler);
  EXPECT_EQ(no_handler.error().code, 0x3u);
  EXPECT_EQ(no_handler.error().message, "DROP is unexpected on a SUBSCRIBE stream");
  ASSERT_TRUE(dispatch(h, Reply(End{}), "SUBSCRIBE", [](const auto& m) { return name(m); }));
  Status twice = dispatch(h, Reply(End{}), "SUBSCRIBE", [](const auto& m) { return name(m); });
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().message, "END is unexpected on a SUBSCRIBE stream");
}

}  // namespace
}  // namespace moq::session::core
