// The generated README figures (reports/figures.h): the marker handling, the lookups that record
// what a spec needed and did not find, and the formats; and that every spec builds its table
// from the committed results files without a missing case (the files' path is the argument).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "reports/figures.h"
#include "reports/schema/results_file.h"

namespace moq::reports {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string g_root;  // the repository, for the test on the committed files

TEST(FigureMarkers, ReplacesOnlyTheContentBetweenItsOwnMarkers) {
  const std::string text =
      "intro\n<!-- figures:a begin -->\nold a\n<!-- figures:a end -->\nmiddle\n"
      "<!-- figures:b begin -->\n<!-- figures:b end -->\ntail\n";
  Result<std::string> a = replace_figure_block(text, "a", "| new |\n");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(*a,
            "intro\n<!-- figures:a begin -->\n| new |\n<!-- figures:a end -->\nmiddle\n"
            "<!-- figures:b begin -->\n<!-- figures:b end -->\ntail\n");
  Result<std::string> b = replace_figure_block(*a, "b", "x\n");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*figure_block_content(*b, "b"), "x\n");
  EXPECT_EQ(*figure_block_content(*b, "a"), "| new |\n");
  EXPECT_THAT(marked_figure_blocks(*b), ElementsAre("a", "a", "b", "b"));
}

TEST(FigureMarkers, RefusesMissingRepeatedAndReversedMarkers) {
  EXPECT_THAT(figure_block_content("<!-- figures:a end -->\n", "a").error().message,
              HasSubstr("no line '<!-- figures:a begin -->'"));
  EXPECT_THAT(figure_block_content("<!-- figures:a begin -->\n", "a").error().message,
              HasSubstr("no line '<!-- figures:a end -->'"));
  EXPECT_THAT(figure_block_content("<!-- figures:a end -->\n<!-- figures:a begin -->\n", "a")
                  .error()
                  .message,
              HasSubstr("end marker comes before"));
  const std::string twice = "<!-- figures:a begin -->\n<!-- figures:a end -->\n";
  EXPECT_THAT(figure_block_content(twice + twice, "a").error().message,
              HasSubstr("marked more than once"));
  // A marker is a whole line: one quoted inside a sentence is not a marker.
  EXPECT_FALSE(
      figure_block_content("see `<!-- figures:a begin -->`\n<!-- figures:a end -->\n", "a").ok());
}

TEST(FigureMarkers, AMalformedMarkerLineIsReportedWhole) {
  EXPECT_THAT(marked_figure_blocks("<!-- figures:a begun -->\n"), ElementsAre("a begun -->"));
  EXPECT_THAT(marked_figure_blocks("no markers\n"), IsEmpty());
}

TEST(FigureData, RecordsEachMissingCaseAndMetricInsteadOfAFigure) {
  results::ResultsFile file;
  results::CaseResult c;
  c.id = "model/x/none";
  c.metrics.instructions = results::compute_stats({10, 30, 20});
  c.metrics.allocations = results::compute_stats({0, 2, 1});
  c.rounds.measured = 3;
  c.delivered.frames = 12;
  file.cases.push_back(c);
  FigureData data({{"baseline", &file}});
  EXPECT_EQ(data.instructions("baseline", "model/x/none"), 20u);
  EXPECT_EQ(data.allocations_max("baseline", "model/x/none"), 2u);
  EXPECT_EQ(data.frames_per_round("baseline", "model/x/none"), 4u);
  EXPECT_THAT(data.missing(), IsEmpty());

  EXPECT_EQ(data.instructions("baseline", "model/y/none"), 0u);
  EXPECT_EQ(data.metric_median("baseline", "model/x/none", results::Metric::kPackets), 0u);
  EXPECT_EQ(data.role_instructions("baseline", "model/x/none", "viewer"), 0u);
  EXPECT_EQ(data.instructions("quic", "model/x/none"), 0u);
  ASSERT_EQ(data.missing().size(), 5u);
  EXPECT_THAT(data.missing()[0], HasSubstr("case model/y/none in tests/gate/baseline.json"));
  EXPECT_THAT(data.missing()[1], HasSubstr("packets of model/x/none"));
  EXPECT_THAT(data.missing()[2], HasSubstr("role viewer"));
  EXPECT_THAT(data.missing()[3], HasSubstr("'quic'"));
  EXPECT_THAT(data.missing()[4], HasSubstr("in tests/gate/figures-quic.json"));
}

TEST(FigureData, AFailedCaseGivesNoFigure) {
  results::ResultsFile file;
  results::CaseResult c;
  c.id = "model/x/none";
  c.metrics.instructions = results::compute_stats({10});
  c.flags.failed = true;
  c.flags.reason = "delivery differs";
  file.cases.push_back(c);
  FigureData data({{"baseline", &file}});
  data.instructions("baseline", "model/x/none");
  ASSERT_EQ(data.missing().size(), 1u);
  EXPECT_THAT(data.missing()[0], HasSubstr("it failed"));
}

TEST(FigureFormats, RatiosRangesAndPerUnitFigures) {
  EXPECT_EQ(format_ratio(1.7549), "1.75");
  EXPECT_EQ(format_ratio_range(1.041, 1.063), "1.04–1.06");
  EXPECT_EQ(format_ratio_range(1.001, 1.004), "1.00");
  EXPECT_EQ(format_per(1000, 3), "333");
  EXPECT_EQ(format_per(1001, 2), "501");
  EXPECT_EQ(format_per(2560000, 2), "1,280,000");
  EXPECT_EQ(format_per(5, 0), "n/a");
  EXPECT_EQ(figure_source_path("baseline"), "tests/gate/baseline.json");
  EXPECT_EQ(figure_source_path("quic"), "tests/gate/figures-quic.json");
}

// Every spec, on the committed files: it finds every case it needs and gives a table with rows.
TEST(FigureTables, EverySpecBuildsFromTheCommittedFiles) {
  ASSERT_FALSE(g_root.empty()) << "usage: figures_test REPOSITORY";
  std::map<std::string, results::ResultsFile> files;
  std::set<std::string> names;
  for (const FigureBlock& block : figure_blocks()) {
    EXPECT_TRUE(names.insert(block.file + ":" + block.name).second)
        << block.name << " is specified twice in " << block.file;
    std::map<std::string, const results::ResultsFile*> sources;
    for (const std::string& source : block.sources) {
      if (files.count(source) == 0) {
        Result<results::ResultsFile> file = results::read_results_file(
            (std::filesystem::path(g_root) / figure_source_path(source)).string());
        ASSERT_TRUE(file.ok()) << file.error().message;
        files.emplace(source, std::move(*file));
      }
      sources[source] = &files.at(source);
    }
    FigureData data(std::move(sources));
    const Table table = block.table(data);
    EXPECT_THAT(data.missing(), IsEmpty()) << block.file << ": " << block.name;
    EXPECT_FALSE(table.rows.empty()) << block.name;
    for (const auto& row : table.rows)
      EXPECT_EQ(row.size(), table.header.size()) << block.name;
  }
}

}  // namespace
}  // namespace moq::reports

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc > 1) moq::reports::g_root = argv[1];
  return RUN_ALL_TESTS();
}
