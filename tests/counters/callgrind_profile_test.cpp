// Callgrind profiles read per function (harness/counters/callgrind_profile.h): name compression,
// relative positions, inlined files, calls= lines counted as inclusive cost only, and clear
// errors for what is not a profile.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/counters/callgrind_profile.h"

namespace moq::counters {
namespace {

using ::testing::HasSubstr;

constexpr const char* kProfile = R"(# callgrind format
version: 1
creator: callgrind-3.19.0
cmd:  ./moqbench measure-case
desc: Trigger: Client Request: moq-region-2

positions: line
events: Ir
summary: 130


ob=(1) /bin/moqbench
fl=(1) src/a.cpp
fn=(1) outer()
10 5
+2 3
cfn=(2) inner()
calls=2 40
* 100
fi=(2) src/inline.h
-1 4
fe=(1)
fn=(2)
40 15
fl=(3) ???
fn=(3) libc_thing
0 3
)";

const FunctionCost* find(const CallgrindProfile& p, const std::string& name) {
  for (const FunctionCost& f : p.functions)
    if (f.name == name) return &f;
  return nullptr;
}

TEST(CallgrindProfile, SelfAndInclusiveCostsPerFunction) {
  Result<CallgrindProfile> p = parse_callgrind_profile(kProfile, "test");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->total, 130u);
  ASSERT_EQ(p->functions.size(), 3u);
  const FunctionCost* outer = find(*p, "outer()");
  ASSERT_TRUE(outer);
  EXPECT_EQ(outer->self, 5u + 3u + 4u);  // the call's 100 is not its own
  EXPECT_EQ(outer->inclusive, 5u + 3u + 100u + 4u);
  EXPECT_EQ(outer->file, "src/a.cpp");
  EXPECT_EQ(outer->line, 10u);
  const FunctionCost* inner = find(*p, "inner()");  // named by cfn=, defined there
  ASSERT_TRUE(inner);
  EXPECT_EQ(inner->self, 15u);
  EXPECT_EQ(inner->line, 40u);
  EXPECT_EQ(inner->calls, 2u);  // calls=2: called twice
  EXPECT_EQ(outer->calls, 0u);
  const FunctionCost* libc = find(*p, "libc_thing");
  ASSERT_TRUE(libc);
  EXPECT_EQ(libc->file, "???");
  EXPECT_EQ(libc->self, 3u);
}

TEST(CallgrindProfile, WhatIsNotAProfileIsRefusedNamingTheLine) {
  Result<CallgrindProfile> p = parse_callgrind_profile("{\"schema\": 1}\n", "x.json");
  ASSERT_FALSE(p);
  EXPECT_THAT(p.error().message, HasSubstr("x.json"));
  p = parse_callgrind_profile("events: Ir\nfn=(7)\n1 2\n", "bad.cg");
  ASSERT_FALSE(p);
  EXPECT_THAT(p.error().message, HasSubstr("bad.cg:2"));
  EXPECT_THAT(p.error().message, HasSubstr("(7) used before it was defined"));
  p = parse_callgrind_profile("events: Ir\nfn=f\nx 2\n", "bad.cg");
  ASSERT_FALSE(p);
  EXPECT_THAT(p.error().message, HasSubstr("bad.cg:3: a bad position 'x'"));
}

}  // namespace
}  // namespace moq::counters
