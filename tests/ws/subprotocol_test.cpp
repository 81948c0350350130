// The server's choice of "qmux-00.<alpn>" subprotocol (sim/ws/subprotocol.h).
#include "sim/ws/subprotocol.h"

#include <gtest/gtest.h>

namespace moq::sim::ws {
namespace {

const std::vector<std::string> kAlpns = {"moq-lite-06", "moqt-18"};

TEST(WsSubprotocol, ChoosesByTheServersPreferenceNotTheClientsOrder) {
  std::string out;
  ASSERT_TRUE(choose_subprotocol(
      {"qmux-00", "webtransport", "qmux-00.moqt-18", "webtransport.moqt-18", "qmux-00.moq-lite-06"},
      kAlpns, out));
  EXPECT_EQ(out, "qmux-00.moq-lite-06");
  ASSERT_TRUE(choose_subprotocol({"qmux-00.moqt-18", "qmux-00.moq-lite-99"}, kAlpns, out));
  EXPECT_EQ(out, "qmux-00.moqt-18");
}

TEST(WsSubprotocol, RefusesBareQmuxWebtransportAndUnknownNamingWhatWasOffered) {
  std::string why;
  ASSERT_FALSE(
      choose_subprotocol({"qmux-00", "webtransport", "webtransport.moqt-18"}, kAlpns, why));
  EXPECT_NE(why.find("offered qmux-00, webtransport, webtransport.moqt-18"), std::string::npos)
      << why;
  EXPECT_NE(why.find("supported qmux-00.moq-lite-06, qmux-00.moqt-18"), std::string::npos) << why;
  EXPECT_NE(why.find("bare qmux-00"), std::string::npos) << why;
  EXPECT_NE(why.find("webtransport framing is not supported"), std::string::npos) << why;
  ASSERT_FALSE(choose_subprotocol({"qmux-00.moqt-17"}, kAlpns, why));
  EXPECT_NE(why.find("offered qmux-00.moqt-17;"), std::string::npos) << why;
  EXPECT_EQ(why.find("bare"), std::string::npos) << why;
  ASSERT_FALSE(choose_subprotocol({}, kAlpns, why));
  EXPECT_NE(why.find("offered none"), std::string::npos) << why;
}

TEST(WsSubprotocol, AlpnOfASubprotocol) {
  EXPECT_EQ(alpn_of_subprotocol("qmux-00.moqt-18"), "moqt-18");
  EXPECT_EQ(alpn_of_subprotocol("qmux-00."), "");
  EXPECT_EQ(alpn_of_subprotocol("qmux-00"), "");
  EXPECT_EQ(alpn_of_subprotocol("webtransport.moqt-18"), "");
  EXPECT_EQ(qmux_subprotocol("moq-lite-06"), "qmux-00.moq-lite-06");
}

}  // namespace
}  // namespace moq::sim::ws
