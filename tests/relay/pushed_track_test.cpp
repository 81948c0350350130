// A moq-transport publisher that pushes its track (PUBLISH) without announcing a namespace: the
// relay routes it while it is pushed, and a viewer of every version watches it through the relay
// with no SUBSCRIBE going back to the publisher; PUBLISH_DONE ends the track for the viewer too.
#include <gtest/gtest.h>

#include "tests/relay/relay_world.h"
#include "tests/session_ietf/raw_peer.h"

namespace moq::test {
namespace {

namespace w = ::moq::wire::ietf;
using session::testing::RawPeer;
using session::testing::RawRequest;
using session::testing::send_message;

class PushedTrack : public ::testing::TestWithParam<std::tuple<Version, Version>> {};

TEST_P(PushedTrack, ReachesAViewerOfAnyVersionAndEndsWithPublishDone) {
  const auto [publisher_version, viewer_version] = GetParam();
  const w::IetfVersion v = *w::ietf_version(publisher_version);
  RelayWorld world;
  RawPeer publisher(*world.connect_raw(publisher_version).conns.client, v);
  publisher.setup();
  RawRequest push = publisher.open_request();
  w::Publish pub;
  pub.request_id = 0;
  pub.track_namespace.fields = {"push", "cam"};
  pub.track_name = "video";
  pub.track_alias = 7;
  send_message(*push.stream.send, pub, v);
  world.settle();
  auto ok = push.in.next(v);
  ASSERT_TRUE(ok && std::holds_alternative<w::RequestOk>(*ok));

  Client& viewer = world.connect(viewer_version, /*publishes=*/false);
  world.settle();
  Result<TrackConsumer> track = viewer.session->subscribe(Path("push/cam"), "video");
  ASSERT_TRUE(track) << track.error().message;
  world.settle();
  EXPECT_EQ(track->status(), TrackStatus::Active);
  // Nothing asks the publisher for the track: the relay has it from the push.
  while (std::optional<RawRequest> r = publisher.accept_request()) {
    auto first = r->in.next(v);
    EXPECT_FALSE(first && std::holds_alternative<w::Subscribe>(*first));
  }
  SendStreamPtr data = publisher.subgroup(7, 0, 3, true);
  world.settle();
  GroupConsumer group;
  ASSERT_EQ(track->next(group), Next::Ready);
  EXPECT_EQ(group.sequence(), 0u);
  Drained d = drain_frames(group);
  EXPECT_EQ(d.last, Next::End);
  EXPECT_EQ(d.frames.size(), 3u);

  w::PublishDone done;
  done.status_code = uint64_t(w::PublishDoneStatus::TrackEnded);
  done.stream_count = 1;
  send_message(*push.stream.send, done, v);
  ASSERT_TRUE(push.stream.send->finish());
  world.settle();
  EXPECT_EQ(track->next(group), Next::End);
  EXPECT_FALSE(viewer.session->is_closed());
}

std::string pair_label(const ::testing::TestParamInfo<std::tuple<Version, Version>>& info) {
  std::string s = std::string(session::version_alpn(std::get<0>(info.param))) + "_to_" +
                  std::string(session::version_alpn(std::get<1>(info.param)));
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(
    Versions, PushedTrack,
    ::testing::Combine(::testing::Values(Version::Transport18, Version::Transport22),
                       ::testing::ValuesIn(session::implemented_versions().begin(),
                                           session::implemented_versions().end())),
    pair_label);

}  // namespace
}  // namespace moq::test
