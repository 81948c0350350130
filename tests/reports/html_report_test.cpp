// The HTML report, rendered by headless Chromium: the page loads from a file with no network,
// every chart <svg> is in the rendered DOM, each plotted point carries the exact median of its
// case in its file, and the screenshot is a real picture. Also the Markdown summary.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "reports/commands.h"
#include "tests/reports/synthetic.h"

namespace moq::reports {
namespace {

using results::CaseResult;
using results::CounterBackend;
using results::Metric;
using results::ResultsFile;
using results::testing::kCommitA;
using results::testing::kCommitB;
using results::testing::read_text;
using results::testing::synthetic_case;
using results::testing::synthetic_meta;
using results::testing::TempDir;
using results::testing::write_synthetic;

constexpr const char* kChromium = "/usr/bin/chromium";

// Values differ per file, version and size, so a point plotted from the wrong case or file shows.
uint64_t instructions_for(size_t file, int version, int64_t x) {
  return 5000 + static_cast<uint64_t>(x) * (900 + 100 * static_cast<uint64_t>(version)) + 37 * file;
}

ResultsFile make_file(size_t index, const std::string& commit) {
  ResultsFile file;
  file.meta = synthetic_meta(CounterBackend::kCallgrind, commit);
  const char* versions[] = {"moq-lite-06", "moq-transport-18"};
  for (int v = 0; v < 2; ++v) {
    for (int64_t frames : {1, 16, 256}) {
      file.cases.push_back(synthetic_case(
          "fetch_frames", versions[v], {{"publishers", 1}, {"viewers", 1}, {"frames", frames}},
          instructions_for(index, v, frames), static_cast<uint64_t>(2 + frames / 16 + index)));
    }
  }
  for (int64_t viewers : {1, 10, 100}) {
    file.cases.push_back(synthetic_case("fanout", "moq-lite-06", {{"viewers", viewers}},
                                        instructions_for(index, 5, viewers),
                                        static_cast<uint64_t>(viewers + index)));
  }
  // No integer axis varies here: one chart with the files along x.
  file.cases.push_back(synthetic_case("setup", "moq-lite-06", {{"mode", std::string("paced")}},
                                      7000 + 11 * index, 40 + index));
  return file;
}

// "<tag a="1" b="x">" -> {a: 1, b: x}. Values are entity-free in this test's pages.
std::map<std::string, std::string> attributes(std::string_view tag) {
  std::map<std::string, std::string> out;
  size_t pos = tag.find_first_of(" \t\n");
  while (pos != std::string_view::npos && pos < tag.size()) {
    const size_t name_start = tag.find_first_not_of(" \t\n", pos);
    if (name_start == std::string_view::npos) break;
    const size_t eq = tag.find('=', name_start);
    if (eq == std::string_view::npos || tag[eq + 1] != '"') break;
    const size_t value_end = tag.find('"', eq + 2);
    if (value_end == std::string_view::npos) break;
    out[std::string(tag.substr(name_start, eq - name_start))] =
        std::string(tag.substr(eq + 2, value_end - eq - 2));
    pos = value_end + 1;
  }
  return out;
}

struct RenderedChart {
  std::map<std::string, std::string> attrs;
  std::vector<std::map<std::string, std::string>> points;
};

// The <svg class="chart"> elements of a serialized DOM with their <circle class="point">s.
std::vector<RenderedChart> charts_in(const std::string& dom) {
  std::vector<RenderedChart> charts;
  size_t pos = 0;
  while ((pos = dom.find("<svg", pos)) != std::string::npos) {
    const size_t tag_end = dom.find('>', pos);
    const size_t close = dom.find("</svg>", pos);
    RenderedChart chart;
    chart.attrs = attributes(std::string_view(dom).substr(pos, tag_end - pos));
    if (chart.attrs["class"] == "chart") {
      size_t c = tag_end;
      while ((c = dom.find("<circle", c)) != std::string::npos && c < close) {
        const size_t c_end = dom.find('>', c);
        auto attrs = attributes(std::string_view(dom).substr(c, c_end - c));
        if (attrs["class"] == "point") chart.points.push_back(attrs);
        c = c_end;
      }
      charts.push_back(std::move(chart));
    }
    pos = close;
  }
  return charts;
}

// Runs headless Chromium on a local file with networking features off. Returns the exit status.
int chromium(const std::string& profile_dir, const std::string& action, const std::string& page,
             const std::string& stdout_file) {
  const std::string command =
      "timeout 120 " + std::string(kChromium) +
      " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
      " --disable-background-networking --disable-component-update --disable-sync"
      " --disable-dev-shm-usage --hide-scrollbars --user-data-dir=" +
      profile_dir + " --window-size=1200,2000 " + action + " file://" + page + " >" + stdout_file +
      " 2>" + stdout_file + ".err";
  return std::system(command.c_str());
}

uint32_t be32(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i)
    v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

class HtmlReport : public ::testing::Test {
 protected:
  void SetUp() override {
    files_ = {make_file(0, kCommitA), make_file(1, kCommitA), make_file(2, kCommitB)};
    // A failed case is listed but not plotted.
    CaseResult& failed = files_[2].cases[5];  // moq-transport-18 frames=256
    failed.flags.failed = true;
    failed.flags.reason = "deadlock";
    const char* names[] = {"base.json", "rerun.json", "head.json"};
    for (size_t i = 0; i < files_.size(); ++i) {
      paths_.push_back(write_synthetic(dir_, names[i], files_[i]));
    }
  }

  TempDir dir_;
  std::vector<ResultsFile> files_;
  std::vector<std::string> paths_;
};

TEST_F(HtmlReport, ChromiumRendersEveryChartWithTheInputValues) {
  const std::string page = dir_.file("report.html");
  std::ostringstream out, err;
  ASSERT_EQ(run_report({paths_, page, false}, out, err), 0) << err.str();
  const std::string html = read_text(page);
  ASSERT_FALSE(html.empty());
  // Self-contained: one inline script (the case filter, html_summary_test.cpp), no stylesheet
  // link, nothing fetched.
  const size_t script = html.find("<script>");
  EXPECT_NE(script, std::string::npos);
  EXPECT_EQ(html.find("<script", script + 1), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);

  ASSERT_EQ(access(kChromium, X_OK), 0)
      << kChromium << " is not installed: the HTML report test renders the page in headless "
      << "Chromium. Install it with tools/deps --with-chromium (tools/test does this), or "
      << "apt-get install chromium.";

  const std::string dom_file = dir_.file("dom.html");
  ASSERT_EQ(chromium(dir_.file("profile1"), "--dump-dom", page, dom_file), 0)
      << read_text(dom_file + ".err");
  const std::string dom = read_text(dom_file);
  ASSERT_NE(dom.find("moqbench report"), std::string::npos) << dom.substr(0, 500);

  const std::vector<RenderedChart> charts = charts_in(dom);
  // fetch_frames x 2 versions, fanout, setup; each with an instructions and an allocations chart.
  ASSERT_EQ(charts.size(), 8u);

  std::set<std::tuple<std::string, size_t, std::string>> plotted;  // metric, file, case
  for (const RenderedChart& chart : charts) {
    const std::string metric = chart.attrs.at("data-metric");
    ASSERT_TRUE(metric == "instructions" || metric == "allocations") << metric;
    EXPECT_EQ(chart.attrs.at("data-points"), std::to_string(chart.points.size()));
    const std::string group = chart.attrs.at("data-group");
    const std::string x_axis = chart.attrs.at("data-x-axis");
    EXPECT_EQ(x_axis, group == "model/fanout/moq-lite-06"  ? "viewers"
                      : group == "model/setup/moq-lite-06" ? "file"
                                                           : "frames")
        << group;
    std::set<std::string> series;
    for (const auto& point : chart.points) {
      const size_t file = std::stoul(point.at("data-file"));
      ASSERT_LT(file, files_.size());
      const CaseResult* c = files_[file].find_case(point.at("data-case"));
      ASSERT_NE(c, nullptr) << point.at("data-case");
      EXPECT_FALSE(c->flags.failed) << "failed cases are not plotted";
      const Metric m = metric == "instructions" ? Metric::kInstructions : Metric::kAllocations;
      EXPECT_EQ(point.at("data-y"), std::to_string(c->metrics.get(m)->median)) << c->id;
      const std::string expected_x = x_axis == "file"
                                         ? std::vector<std::string>{"base", "rerun", "head"}[file]
                                         : results::param_value_text(c->find_param(x_axis)->value);
      EXPECT_EQ(point.at("data-x"), expected_x);
      EXPECT_TRUE(plotted.emplace(metric, file, c->id).second) << "plotted twice: " << c->id;
      series.insert(point.at("data-series"));
    }
    EXPECT_EQ(chart.attrs.at("data-series"), std::to_string(series.size()));
  }
  // Every non-failed case of every file appears once per metric.
  size_t expected = 0;
  for (const ResultsFile& f : files_) {
    for (const CaseResult& c : f.cases)
      expected += c.flags.failed ? 0 : 2;
  }
  EXPECT_EQ(plotted.size(), expected);

  // The screenshot: a PNG of the window size, much more than an empty page's.
  const std::string png = dir_.file("report.png");
  ASSERT_EQ(chromium(dir_.file("profile2"), "--screenshot=" + png, page, dir_.file("shot.out")), 0)
      << read_text(dir_.file("shot.out.err"));
  const std::string blank_page = dir_.file("blank.html");
  results::testing::write_text(blank_page, "<!DOCTYPE html><html><body></body></html>");
  const std::string blank_png = dir_.file("blank.png");
  ASSERT_EQ(chromium(dir_.file("profile3"), "--screenshot=" + blank_png, blank_page,
                     dir_.file("blank.out")),
            0);
  const std::string image = read_text(png);
  const std::string blank = read_text(blank_png);
  ASSERT_GT(image.size(), 24u) << "no screenshot at " << png;
  EXPECT_EQ(image.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(be32(image, 16), 1200u);
  EXPECT_EQ(be32(image, 20), 2000u);
  EXPECT_GT(image.size(), 4 * blank.size())
      << "the report screenshot (" << image.size() << " bytes) is barely more than a blank page ("
      << blank.size() << " bytes)";
}

TEST_F(HtmlReport, MarkdownSummaryHasTheChartData) {
  std::ostringstream out, err;
  ASSERT_EQ(run_report({paths_, "", true}, out, err), 0) << err.str();
  const std::string md = out.str();
  EXPECT_NE(md.find("#### instructions: model/fetch_frames/moq-lite-06 (publishers=1/viewers=1), "
                    "by frames\n\n| frames | base | rerun | head |"),
            std::string::npos)
      << md;
  // Counts are grouped with commas in Markdown.
  EXPECT_NE(md.find("| 16 | 19,400 | 19,437 | 19,474 |"), std::string::npos) << md;
  EXPECT_EQ(instructions_for(0, 0, 16), 19400u);
  EXPECT_EQ(instructions_for(0, 1, 256), 261000u);
  EXPECT_NE(md.find("| 256 | 261,000 | 261,037 | - |"), std::string::npos)
      << "the failed case has no value:\n"
      << md;
  EXPECT_NE(md.find("by file\n\n| file | mode=paced |"), std::string::npos) << md;
  EXPECT_NE(md.find("| head | model/fetch_frames/moq-transport-18/publishers=1/viewers=1/"
                    "frames=256 | deadlock |"),
            std::string::npos);
  EXPECT_NE(md.find("noise: base = rerun come from one build (rerun noise"), std::string::npos);
}

TEST_F(HtmlReport, RefusesMixedBackendsAndUnwritableOutput) {
  ResultsFile perf = make_file(0, kCommitA);
  perf.meta = synthetic_meta(CounterBackend::kPerf, kCommitA);
  const std::string perf_path = write_synthetic(dir_, "perf.json", perf);
  std::ostringstream out, err;
  EXPECT_EQ(run_report({{paths_[0], perf_path}, dir_.file("mixed.html"), false}, out, err),
            kExitBadInput);
  EXPECT_NE(err.str().find("never compared"), std::string::npos) << err.str();

  // A path whose folder is missing is bad input, told before the page is rendered.
  std::ostringstream out2, err2;
  EXPECT_EQ(run_report({{paths_[0]}, dir_.file("no/such/dir/r.html"), false}, out2, err2),
            kExitBadInput);
  EXPECT_NE(err2.str().find("does not exist"), std::string::npos) << err2.str();
}

}  // namespace
}  // namespace moq::reports
