// Reading a region's Ir out of a callgrind dump: the happy path as valgrind 3.19 writes it, and
// every way a dump can be wrong.
#include "harness/counters/callgrind_dump.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace moq::counters {
namespace {

using ::testing::HasSubstr;

// The shape of a dump written by CALLGRIND_DUMP_STATS_AT("moq-region-1") (valgrind 3.19).
std::string dump(const std::string& trigger, const std::string& events, const std::string& summary,
                 const std::string& totals) {
  return "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 4242\n"
         "cmd:  ./probe --counter callgrind\npart: 1\n\n\ndesc: I1 cache: \ndesc: D1 cache: \n"
         "desc: LL cache: \n\ndesc: Timerange: Basic block 0 - 1005\n" +
         trigger + "\n\npositions: line\n" + events + "\n" + summary +
         "\n\n\nob=(1) /tmp/probe\nfl=(1) probe.cpp\nfn=(2) spin(unsigned long)\n9 6006\n\n" +
         totals + "\n";
}

const std::string kTrigger = "desc: Trigger: Client Request: moq-region-1";

TEST(CallgrindDump, ReadsIrOfOurRegion) {
  std::string text = dump(kTrigger, "events: Ir", "summary: 6021", "totals: 6021");
  Result<uint64_t> ir = parse_callgrind_dump_ir(text, "moq-region-1", "out.1");
  ASSERT_TRUE(ir.ok()) << ir.error().message;
  EXPECT_EQ(*ir, 6021u);
  EXPECT_EQ(callgrind_dump_label(text), "moq-region-1");
}

TEST(CallgrindDump, FindsIrAmongSeveralEvents) {
  // --cache-sim=yes adds columns; Ir need not be first.
  std::string text = dump(kTrigger, "events: Dr Ir Dw", "summary: 7 6021 9", "totals: 7 6021 9");
  Result<uint64_t> ir = parse_callgrind_dump_ir(text, "moq-region-1", "out.1");
  ASSERT_TRUE(ir.ok()) << ir.error().message;
  EXPECT_EQ(*ir, 6021u);
}

TEST(CallgrindDump, ReadsEveryEventOfTheSimulators) {
  // --cache-sim=yes --branch-sim=yes, as callgrind orders the columns; the last ones omitted
  // (zero) in the summary.
  std::string text = dump(kTrigger, "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim",
                          "summary: 6021 900 800 12 30 40 11 5 6 700 25 10",
                          "totals: 6021 900 800 12 30 40 11 5 6 700 25 10");
  Result<CallgrindDumpTotals> totals = parse_callgrind_dump(text, "moq-region-1", "out.1");
  ASSERT_TRUE(totals.ok()) << totals.error().message;
  EXPECT_EQ(totals->ir, 6021u);
  EXPECT_EQ(totals->events.size(), 13u);
  EXPECT_EQ(totals->event("D1mw"), 40u);
  EXPECT_EQ(totals->event("Bcm"), 25u);
  EXPECT_EQ(totals->event("Bim"), 0u) << "an omitted trailing column is 0";
  EXPECT_EQ(totals->event("Ge"), std::nullopt);
  // Without the simulators there is Ir alone.
  totals = parse_callgrind_dump(dump(kTrigger, "events: Ir", "summary: 6021", "totals: 6021"),
                                "moq-region-1", "out.1");
  ASSERT_TRUE(totals.ok());
  EXPECT_EQ(totals->events.size(), 1u);
  EXPECT_EQ(totals->event("I1mr"), std::nullopt);
}

TEST(CallgrindDump, CacheSimulatedSummaryIsNotTheTotals) {
  // The event lines of a region dump written by valgrind 3.19 with --cache-sim=yes
  // --branch-sim=yes: callgrind's running total (summary) counts the few events around the dump
  // request differently from the costs the dump writes (totals). The totals are read, and their
  // Ir is what the same region counts without the simulators.
  const std::string events = "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim";
  const std::string summary = "summary: 190582 25653 113072 74 1591 1608 74 15 1606 113022 96 19 5";
  const std::string totals = "totals: 190581 25653 113072 75 1591 1607 75 15 1606 113022 96 19 5";
  Result<CallgrindDumpTotals> read =
      parse_callgrind_dump(dump(kTrigger, events, summary, totals), "moq-region-1", "out.1");
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->ir, 190581u);
  EXPECT_EQ(read->event("I1mr"), 75u);
  EXPECT_EQ(read->event("D1mw"), 1607u);
  EXPECT_EQ(read->event("ILmr"), 75u);
  EXPECT_EQ(read->event("Bcm"), 96u);
  // Its summary alone cannot stand for the totals: a dump cut before them is refused.
  read = parse_callgrind_dump(dump(kTrigger, events, summary, ""), "moq-region-1", "out.1");
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.error().message, HasSubstr("no 'totals:' line"));
  // The branch simulator alone leaves the summary exact, so a difference there is still damage.
  read =
      parse_callgrind_dump(dump(kTrigger, "events: Ir Bc Bcm Bi Bim",
                                "summary: 190582 113022 96 19 5", "totals: 190581 113022 96 19 5"),
                           "moq-region-1", "out.1");
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.error().message, HasSubstr("summary Ir 190582 differs from totals Ir 190581"));
}

TEST(CallgrindDump, OmittedTrailingColumnReadsZero) {
  std::string text = dump(kTrigger, "events: Dr Ir", "summary: 7", "totals: 7");
  Result<uint64_t> ir = parse_callgrind_dump_ir(text, "moq-region-1", "out.1");
  ASSERT_TRUE(ir.ok()) << ir.error().message;
  EXPECT_EQ(*ir, 0u);
}

TEST(CallgrindDump, SomeoneElsesDumpIsRefused) {
  std::string text =
      dump("desc: Trigger: Client Request: other", "events: Ir", "summary: 5", "totals: 5");
  Result<uint64_t> ir = parse_callgrind_dump_ir(text, "moq-region-1", "out.3");
  ASSERT_FALSE(ir.ok());
  EXPECT_THAT(ir.error().message, HasSubstr("out.3"));
  EXPECT_THAT(ir.error().message, HasSubstr("triggered by 'other'"));
  EXPECT_THAT(ir.error().message, HasSubstr("'moq-region-1'"));
}

TEST(CallgrindDump, EndOfRunDumpIsRefused) {
  std::string text =
      dump("desc: Trigger: Program termination", "events: Ir", "summary: 5", "totals: 5");
  Result<uint64_t> ir = parse_callgrind_dump_ir(text, "moq-region-1", "out");
  ASSERT_FALSE(ir.ok());
  EXPECT_THAT(ir.error().message, HasSubstr("no 'desc: Trigger: Client Request:' line"));
  EXPECT_EQ(callgrind_dump_label(text), "");
}

TEST(CallgrindDump, MissingIrColumnIsAnError) {
  std::string text = dump(kTrigger, "events: Dr Dw", "summary: 1 2", "totals: 1 2");
  Result<uint64_t> ir = parse_callgrind_dump_ir(text, "moq-region-1", "out.1");
  ASSERT_FALSE(ir.ok());
  EXPECT_THAT(ir.error().message, HasSubstr("'Dr Dw' do not include Ir"));
}

TEST(CallgrindDump, TruncatedFileIsAnError) {
  std::string text = "# callgrind format\nversion: 1\n" + kTrigger + "\nevents: Ir\n";
  Result<uint64_t> ir = parse_callgrind_dump_ir(text, "moq-region-1", "out.1");
  ASSERT_FALSE(ir.ok());
  EXPECT_THAT(ir.error().message, HasSubstr("neither a 'summary:' nor a 'totals:'"));
}

TEST(CallgrindDump, MalformedCountNamesLineAndValue) {
  std::string text = dump(kTrigger, "events: Ir", "summary: 60x1", "totals: 6021");
  Result<uint64_t> ir = parse_callgrind_dump_ir(text, "moq-region-1", "out.1");
  ASSERT_FALSE(ir.ok());
  EXPECT_THAT(ir.error().message, HasSubstr("out.1:18"));
  EXPECT_THAT(ir.error().message, HasSubstr("'60x1' is not a count"));
}

TEST(CallgrindDump, SummaryAndTotalsMustAgree) {
  std::string text = dump(kTrigger, "events: Ir", "summary: 6021", "totals: 6020");
  Result<uint64_t> ir = parse_callgrind_dump_ir(text, "moq-region-1", "out.1");
  ASSERT_FALSE(ir.ok());
  EXPECT_THAT(ir.error().message, HasSubstr("summary Ir 6021 differs from totals Ir 6020"));
}

TEST(CallgrindDump, CombinedDumpsAreRefused) {
  std::string one = dump(kTrigger, "events: Ir", "summary: 1", "totals: 1");
  Result<uint64_t> ir = parse_callgrind_dump_ir(one + one, "moq-region-1", "out");
  ASSERT_FALSE(ir.ok());
  EXPECT_THAT(ir.error().message, HasSubstr("--combine-dumps"));
}

}  // namespace
}  // namespace moq::counters
