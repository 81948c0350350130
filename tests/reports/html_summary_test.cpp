// The HTML report opens with the comparison's summary and its regressed cases highlighted, and
// its case tables filter by id: checked in headless Chromium, with the page's script run (the
// filter driven through the page's "#filter=" address) and without script (charts still there).
#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reports/commands.h"
#include "tests/reports/synthetic.h"

namespace moq::reports {
namespace {

using results::CounterBackend;
using results::ResultsFile;
using results::testing::kCommitA;
using results::testing::kCommitB;
using results::testing::read_text;
using results::testing::synthetic_case;
using results::testing::synthetic_meta;
using results::testing::TempDir;
using results::testing::write_synthetic;

constexpr const char* kChromium = "/usr/bin/chromium";

// The serialized DOM of `url` (a file:// address, maybe with a fragment) after load. Empty on
// failure, with Chromium's stderr in `error`.
std::string dump_dom(const TempDir& dir, const std::string& name, const std::string& url,
                     std::string& error) {
  const std::string out = dir.file(name + ".dom");
  const std::string command =
      "timeout 120 " + std::string(kChromium) +
      " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
      " --disable-background-networking --disable-component-update --disable-sync"
      " --disable-dev-shm-usage --user-data-dir=" +
      dir.file(name + ".profile") + " --dump-dom '" + url + "' >" + out + " 2>" + out + ".err";
  if (std::system(command.c_str()) != 0) {
    error = read_text(out + ".err");
    return "";
  }
  return read_text(out);
}

// The <tr ...> opening tag of the table row whose first cell is `id`, or "".
std::string row_tag(const std::string& dom, const std::string& id) {
  const size_t cell = dom.find("<td>" + id + "</td>");
  if (cell == std::string::npos) return "";
  const size_t open = dom.rfind("<tr", cell);
  return dom.substr(open, dom.find('>', open) + 1 - open);
}

class HtmlSummary : public ::testing::Test {
 protected:
  void SetUp() override {
    ResultsFile base, head;
    base.meta = synthetic_meta(CounterBackend::kCallgrind, kCommitA);
    head.meta = synthetic_meta(CounterBackend::kCallgrind, kCommitB);
    for (int64_t frames : {1, 16, 256}) {
      const uint64_t before = 1000 * static_cast<uint64_t>(frames);
      // frames=16 regresses by 3%, frames=256 improves by 1%, frames=1 stays.
      const uint64_t after = frames == 16    ? before * 103 / 100
                             : frames == 256 ? before * 99 / 100
                                             : before;
      base.cases.push_back(
          synthetic_case("fetch_frames", "moq-lite-06", {{"frames", frames}}, before, 2));
      head.cases.push_back(
          synthetic_case("fetch_frames", "moq-lite-06", {{"frames", frames}}, after, 2));
      ids_.push_back(base.cases.back().id);
    }
    const std::string base_path = write_synthetic(dir_, "base.json", base);
    const std::string head_path = write_synthetic(dir_, "head.json", head);
    page_ = dir_.file("report.html");
    std::ostringstream out, err;
    ASSERT_EQ(run_report({{base_path, head_path}, page_, false}, out, err), 0) << err.str();
    html_ = read_text(page_);
  }

  TempDir dir_;
  std::vector<std::string> ids_;  // frames=1, 16, 256
  std::string page_, html_;
};

TEST_F(HtmlSummary, ThePageOpensWithTheSummaryAndStaysSelfContained) {
  const size_t summary = html_.find("<section id=\"summary\">");
  ASSERT_NE(summary, std::string::npos) << html_;
  EXPECT_LT(summary, html_.find("<h2>Files</h2>")) << "the summary comes first";
  EXPECT_NE(html_.find("summary (head against base, 3 cases): 1 regressed, 1 improved, 0 within "
                       "noise, 1 unchanged"),
            std::string::npos);
  EXPECT_NE(html_.find("<li class=\"regressed\">" + ids_[1] + ": instructions +3.00%</li>"),
            std::string::npos)
      << html_;
  // One inline script, nothing loaded from anywhere.
  const size_t script = html_.find("<script>");
  ASSERT_NE(script, std::string::npos);
  EXPECT_EQ(html_.find("<script", script + 1), std::string::npos);
  for (const char* loads :
       {"<script src", "<link", "src=", "href=", "url(", "fetch(", "XMLHttpRequest", "import("})
    EXPECT_EQ(html_.find(loads), std::string::npos) << loads;
}

TEST_F(HtmlSummary, ASingleFileGetsATableOfItsCasesToFilter) {
  const std::string one = dir_.file("one.html");
  std::ostringstream out, err;
  ASSERT_EQ(run_report({{dir_.file("head.json")}, one, false}, out, err), 0) << err.str();
  const std::string html = read_text(one);
  EXPECT_EQ(html.find("<section id=\"summary\">"), std::string::npos) << "nothing compared";
  const size_t table = html.find("<h2>Cases</h2>");
  ASSERT_NE(table, std::string::npos) << html;
  EXPECT_NE(html.find("<div class=\"wide cases\">", table), std::string::npos);
  // frames=16's median in HEAD is 3% above its 16,000.
  EXPECT_NE(html.find("<td>" + ids_[1] + "</td><td class=\"num\">16,480</td>", table),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<script>"), std::string::npos);
}

TEST_F(HtmlSummary, ChromiumShowsTheRegressionsAndFiltersByCaseId) {
  if (access(kChromium, X_OK) != 0)
    GTEST_SKIP() << kChromium << " is not installed, so the page is not rendered (install it with "
                 << "tools/deps --with-chromium, or apt-get install chromium)";
  std::string error;
  // Opened with a filter in its address: only the matching row shows.
  const std::string filtered =
      dump_dom(dir_, "filtered", "file://" + page_ + "#filter=FRAMES%3D16", error);
  ASSERT_FALSE(filtered.empty()) << error;
  EXPECT_EQ(row_tag(filtered, ids_[1]), "<tr class=\"regressed\">") << filtered;
  EXPECT_EQ(row_tag(filtered, ids_[0]), "<tr class=\"unchanged\" hidden=\"\">");
  EXPECT_EQ(row_tag(filtered, ids_[2]), "<tr class=\"improved\" hidden=\"\">");
  EXPECT_NE(filtered.find("data-shown=\"1\">"), std::string::npos);
  EXPECT_NE(filtered.find(" 1 of 3 rows"), std::string::npos);
  // Every word must match, in any case: "MOQ-LITE frames=1" keeps frames=1 and frames=16.
  const std::string words =
      dump_dom(dir_, "words", "file://" + page_ + "#filter=MOQ-LITE%20frames%3D1", error);
  EXPECT_EQ(row_tag(words, ids_[0]), "<tr class=\"unchanged\">") << words;
  EXPECT_EQ(row_tag(words, ids_[1]), "<tr class=\"regressed\">");
  EXPECT_EQ(row_tag(words, ids_[2]), "<tr class=\"improved\" hidden=\"\">");
  EXPECT_NE(words.find("data-shown=\"2\">"), std::string::npos);

  // Without script the page still has every chart and every row, and no filter box. Chromium's
  // --dump-dom needs script to serialize, so the page is loaded with its script taken out.
  const size_t open = html_.find("<script>");
  const size_t close = html_.find("</script>");
  ASSERT_LT(open, close);
  const std::string bare_page = dir_.file("bare.html");
  results::testing::write_text(bare_page, html_.substr(0, open) + html_.substr(close + 9));
  const std::string bare = dump_dom(dir_, "noscript", "file://" + bare_page, error);
  ASSERT_FALSE(bare.empty()) << error;
  EXPECT_EQ(bare.find("<script"), std::string::npos);
  EXPECT_EQ(bare.find("id=\"case-filter\""), std::string::npos);
  size_t charts = 0;
  for (size_t at = 0; (at = bare.find("class=\"chart\"", at)) != std::string::npos; ++at)
    ++charts;
  EXPECT_EQ(charts, 2u) << "instructions and allocations of fetch_frames";
  // The summary and the highlighted regression are there without script, the regressed row
  // leading the comparison table, every row shown.
  EXPECT_NE(bare.find("<p class=\"summary\">summary (head against base"), std::string::npos);
  EXPECT_EQ(row_tag(bare, ids_[1]), "<tr class=\"regressed\">") << bare;
  EXPECT_EQ(row_tag(bare, ids_[2]), "<tr class=\"improved\">");
  EXPECT_EQ(row_tag(bare, ids_[0]), "<tr class=\"unchanged\">");
  EXPECT_LT(bare.find("<td>" + ids_[1] + "</td>"), bare.find("<td>" + ids_[0] + "</td>"));
  EXPECT_EQ(bare.find(" hidden"), std::string::npos);
}

}  // namespace
}  // namespace moq::reports
