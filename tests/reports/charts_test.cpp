// Chart building (which axis, which families, which series) and the SVG of one chart.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reports/charts.h"
#include "tests/reports/synthetic.h"

namespace moq::reports {
namespace {

using results::CounterBackend;
using results::ResultsFile;
using results::testing::synthetic_case;
using results::testing::synthetic_meta;

InputFile input(const std::string& path, ResultsFile file) {
  return {path, "", std::move(file)};
}

ResultsFile grid_file(CounterBackend backend, uint64_t offset) {
  ResultsFile file;
  file.meta = synthetic_meta(backend);
  for (int64_t viewers : {1, 8}) {
    for (int64_t frames : {4, 64}) {
      file.cases.push_back(synthetic_case("fetch_frames", "moq-lite-06",
                                          {{"viewers", viewers}, {"frames", frames}},
                                          1000 * static_cast<uint64_t>(viewers * frames) + offset,
                                          static_cast<uint64_t>(viewers) + offset, backend));
    }
  }
  return file;
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) {
    ++n;
  }
  return n;
}

TEST(Charts, FramesIsTheAxisAndEachOtherParameterValueIsAChart) {
  std::vector<InputFile> inputs = {input("a.json", grid_file(CounterBackend::kCallgrind, 0)),
                                   input("b.json", grid_file(CounterBackend::kCallgrind, 5))};
  assign_labels(inputs);
  const std::vector<Chart> charts = build_charts(inputs);
  ASSERT_EQ(charts.size(), 4u);  // viewers=1 and viewers=8, instructions and allocations each
  EXPECT_EQ(charts[0].x_axis, "frames");
  EXPECT_EQ(charts[0].fixed, "viewers=1");
  EXPECT_EQ(charts[0].metric, "instructions");
  EXPECT_EQ(charts[1].metric, "allocations");
  EXPECT_EQ(charts[2].fixed, "viewers=8");
  ASSERT_EQ(charts[2].series.size(), 2u);
  EXPECT_EQ(charts[2].series[1].name, "b");
  ASSERT_EQ(charts[2].series[1].points.size(), 2u);
  EXPECT_EQ(charts[2].series[1].points[1].x, 64);
  EXPECT_EQ(charts[2].series[1].points[1].y, 8u * 64 * 1000 + 5);
}

TEST(Charts, BackendNoneHasOnlyAllocationCharts) {
  std::vector<InputFile> inputs = {input("a.json", grid_file(CounterBackend::kNone, 0))};
  assign_labels(inputs);
  const std::vector<Chart> charts = build_charts(inputs);
  ASSERT_EQ(charts.size(), 2u);
  for (const Chart& chart : charts)
    EXPECT_EQ(chart.metric, "allocations");
}

TEST(Charts, WithoutAVaryingIntegerParameterTheFilesAreTheAxis) {
  ResultsFile a;
  a.meta = synthetic_meta();
  a.cases = {synthetic_case("setup", "v1", {{"mode", std::string("a<b&c")}}, 100, 1),
             synthetic_case("setup", "v1", {{"mode", std::string("d")}}, 200, 2)};
  ResultsFile b = a;
  b.cases[0].metrics =
      synthetic_case("setup", "v1", {{"mode", std::string("a<b&c")}}, 150, 1).metrics;
  std::vector<InputFile> inputs = {input("x/old.json", a), input("y/new.json", b)};
  assign_labels(inputs);
  const std::vector<Chart> charts = build_charts(inputs);
  ASSERT_EQ(charts.size(), 2u);
  const Chart& chart = charts[0];
  EXPECT_EQ(chart.x_axis, "file");
  ASSERT_EQ(chart.series.size(), 2u);
  EXPECT_EQ(chart.series[0].name, "mode=a<b&c");
  ASSERT_EQ(chart.series[0].points.size(), 2u);
  EXPECT_EQ(chart.series[0].points[0].x_text, "old");
  EXPECT_EQ(chart.series[0].points[1].x_text, "new");
  EXPECT_EQ(chart.series[0].points[1].y, 150u);

  const std::string svg = render_chart_svg(chart);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("class=\"chart\""), std::string::npos);
  EXPECT_NE(svg.find("data-points=\"4\""), std::string::npos);
  EXPECT_EQ(count(svg, "<circle class=\"point\""), 4u);
  EXPECT_NE(svg.find("data-series=\"mode=a&lt;b&amp;c\""), std::string::npos) << svg;
  EXPECT_EQ(svg.find("a<b"), std::string::npos) << "text must be escaped";
}

TEST(Charts, HigherValuesArePlottedHigher) {
  std::vector<InputFile> inputs = {input("a.json", grid_file(CounterBackend::kCallgrind, 0))};
  assign_labels(inputs);
  const std::string svg = render_chart_svg(build_charts(inputs)[2]);  // viewers=8, instructions
  // Points in x order: frames=4 (32,000) then frames=64 (512,000); SVG y grows downwards.
  const size_t first = svg.find("<circle class=\"point\"");
  const size_t second = svg.find("<circle class=\"point\"", first + 1);
  auto cy = [&](size_t at) {
    const size_t start = svg.find("cy=\"", at) + 4;
    return std::stod(svg.substr(start, svg.find('"', start) - start));
  };
  EXPECT_GT(cy(first), cy(second));
  EXPECT_NE(svg.find("frames (log scale)"), std::string::npos);
}

}  // namespace
}  // namespace moq::reports
