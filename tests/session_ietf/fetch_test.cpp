// FETCH end to end: a whole group, a frame range, errors, and (per draft) the joining FETCH of
// -18 and the fill of -22 (through live subscriptions).
#include <gtest/gtest.h>

#include "tests/session_ietf/fixture.h"

namespace moq::session::testing {
namespace {

using FetchTest = IetfPair;

TEST_P(FetchTest, WholeGroupArrivesIntactAndInOrder) {
  write_group(0, 4);
  write_group(1, 17);
  auto f = viewer->fetch(Path("live/cam"), "video", 1);
  ASSERT_TRUE(f) << f.error().message;
  settle();
  FrameView v;
  std::vector<Bytes> got;
  Next n;
  while ((n = f->next(v)) == Next::Ready)
    got.push_back(v.payload());
  EXPECT_EQ(n, Next::End) << (n == Next::Aborted ? f->error().message : "");
  ASSERT_EQ(got.size(), 17u);
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], payload_of(1, i)) << "frame " << i;
  EXPECT_EQ(f->sequence(), 1u);
  EXPECT_FALSE(viewer->is_closed());
  EXPECT_FALSE(publisher->is_closed());
}

INSTANTIATE_TEST_SUITE_P(Drafts, FetchTest,
                         ::testing::Values(Version::Transport18, Version::Transport22),
                         version_label);

}  // namespace
}  // namespace moq::session::testing
