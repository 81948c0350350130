// TAP version 14 as the interop runners read it.
#include <gtest/gtest.h>

#include <sstream>

#include "harness/interop/tap.h"

namespace moq::interop {
namespace {

TEST(Tap, ResultsCarryNumbersIdsSkipsAndAQuotedYamlBlock) {
  std::ostringstream out;
  TapWriter tap(out);
  tap.comment("Draft: draft-22");
  tap.plan(2);
  TapResult pass;
  pass.ok = true;
  pass.duration_ms = 12;
  pass.details = {{"message", "said \"hi\"\nand\tleft"}};
  tap.result("setup-only", pass);
  TapResult skip;
  skip.ok = true;
  skip.skip = "no PUBLISH";
  tap.result("publish-track-only", skip);
  TapResult fail;
  fail.details = {{"expected", "REQUEST_OK"}, {"received", "REQUEST_ERROR"}};
  tap.result("announce-only", fail);
  tap.bail_out("gone");
  EXPECT_EQ(out.str(),
            "TAP version 14\n"
            "# Draft: draft-22\n"
            "1..2\n"
            "ok 1 - setup-only\n"
            "  ---\n"
            "  duration_ms: 12\n"
            "  message: \"said \\\"hi\\\"\\nand\\x09left\"\n"
            "  ...\n"
            "ok 2 - publish-track-only # SKIP no PUBLISH\n"
            "  ---\n"
            "  duration_ms: 0\n"
            "  ...\n"
            "not ok 3 - announce-only\n"
            "  ---\n"
            "  duration_ms: 0\n"
            "  expected: \"REQUEST_OK\"\n"
            "  received: \"REQUEST_ERROR\"\n"
            "  ...\n"
            "Bail out! gone\n");
}

}  // namespace
}  // namespace moq::interop
