#include "model/base/path.h"

#include <gtest/gtest.h>

namespace moq {
namespace {

TEST(Path, Normalises) {
  EXPECT_EQ(Path("/a//b/").str(), "a/b");
  EXPECT_EQ(Path("///").str(), "");
  EXPECT_EQ(Path("a").segment_count(), 1u);
  EXPECT_EQ(Path("a/b/c").segment_count(), 3u);
  EXPECT_EQ(Path("").segment_count(), 0u);
}

TEST(Path, PrefixMatchesWholeSegments) {
  EXPECT_TRUE(Path("a/b").has_prefix(Path("a/b")));
  EXPECT_TRUE(Path("a/b/c").has_prefix(Path("a/b")));
  EXPECT_FALSE(Path("a/bc").has_prefix(Path("a/b")));
  EXPECT_FALSE(Path("a").has_prefix(Path("a/b")));
  EXPECT_TRUE(Path("a").has_prefix(Path("")));
  EXPECT_TRUE(Path("").has_prefix(Path("")));
}

TEST(Path, StripAndJoin) {
  EXPECT_EQ(Path("a/b/c").strip_prefix(Path("a"))->str(), "b/c");
  EXPECT_EQ(Path("a/b").strip_prefix(Path("a/b"))->str(), "");
  EXPECT_FALSE(Path("a/bc").strip_prefix(Path("a/b")).has_value());
  EXPECT_EQ(Path("a").join(Path("b")).str(), "a/b");
  EXPECT_EQ(Path("").join(Path("b")).str(), "b");
  EXPECT_EQ(Path("a").join(Path("")).str(), "a");
}

}  // namespace
}  // namespace moq
