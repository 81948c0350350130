// Markdown output (compare --format md, gate --format md, report --md) is pasted into PR comments,
// where raw HTML and Markdown syntax are live: text taken from results files (ids, labels, reasons)
// must reach the reader as text, as the HTML report already ensures by escaping.
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "reports/commands.h"
#include "reports/table.h"
#include "tests/reports/synthetic.h"

namespace moq::reports {
namespace {

using results::ResultsFile;
using results::testing::synthetic_case;
using results::testing::synthetic_meta;
using results::testing::TempDir;
using results::testing::write_synthetic;

// The text with every code span (`...`, ``...``) removed: inside one, HTML and Markdown are
// shown literally, so only what is outside them must be escaped.
std::string outside_code_spans(const std::string& md) {
  std::string out;
  size_t i = 0;
  while (i < md.size()) {
    if (md[i] != '`') {
      out += md[i++];
      continue;
    }
    size_t run = 0;
    while (i + run < md.size() && md[i + run] == '`')
      ++run;
    const std::string fence(run, '`');
    const size_t close = md.find(fence, i + run);
    if (close == std::string::npos) {  // an unmatched backtick is literal text
      out += fence;
      i += run;
      continue;
    }
    i = close + run;
  }
  return out;
}

class MarkdownEscape : public ::testing::Test {
 protected:
  void SetUp() override {
    ResultsFile file;
    file.meta = synthetic_meta();
    file.cases.push_back(synthetic_case("<script>alert(1)", "v<b>", {{"n", 1}}, 1000, 2));
    file.cases.push_back(synthetic_case("emph*a*_b_", "[x](javascript:y)", {{"n", 1}}, 1000, 2));
    file.cases[1].flags.failed = true;
    file.cases[1].flags.reason = "<img src=x onerror=alert(2)> | `tick`";
    base_ = write_synthetic(dir_, "base.json", file);
    head_ = write_synthetic(dir_, "head.json", file);
  }

  void expect_escaped(const std::string& md, const std::string& what) {
    const std::string text = outside_code_spans(md);
    EXPECT_EQ(text.find("<script"), std::string::npos) << what << ":\n" << md;
    EXPECT_EQ(text.find("<b>"), std::string::npos) << what << ":\n" << md;
    EXPECT_EQ(text.find("<img"), std::string::npos) << what << ":\n" << md;
    EXPECT_EQ(text.find("[x](javascript"), std::string::npos) << what << ":\n" << md;
    EXPECT_EQ(text.find("emph*a*"), std::string::npos) << what << ":\n" << md;
    EXPECT_NE(text.find("&lt;script>alert(1)"), std::string::npos) << what << ":\n" << md;
  }

  TempDir dir_;
  std::string base_, head_;
};

TEST_F(MarkdownEscape, CompareMarkdownEscapesTextFromTheFiles) {
  std::ostringstream out, err;
  ASSERT_EQ(run_compare({{base_, head_}, OutputFormat::kMarkdown}, out, err), 0) << err.str();
  expect_escaped(out.str(), "compare --format md");
}

TEST_F(MarkdownEscape, GateMarkdownEscapesTextFromTheFiles) {
  GateCommand command;
  command.base = base_;
  command.head = head_;
  command.format = OutputFormat::kMarkdown;
  std::ostringstream out, err;
  run_gate(command, out, err);  // the failed case regresses; the text is what matters here
  expect_escaped(out.str(), "gate --format md");
}

TEST_F(MarkdownEscape, ReportMarkdownEscapesTextFromTheFiles) {
  ReportCommand command;
  command.files = {base_, head_};
  command.markdown = true;
  std::ostringstream out, err;
  ASSERT_EQ(run_report(command, out, err), 0) << err.str();
  expect_escaped(out.str(), "report --md");
}

TEST(MarkdownText, EscapesMarkupButKeepsOrdinaryIdsReadable) {
  EXPECT_EQ(markdown_escape("model/fetch_frames/moq-lite-06/frames=256"),
            "model/fetch_frames/moq-lite-06/frames=256");
  EXPECT_EQ(markdown_escape("2 -> 3"), "2 -> 3");
  // '>' stays: without a '<' it starts no tag, and "2 -> 3" reads as it should.
  EXPECT_EQ(markdown_escape("<a href='x'>&"), "&lt;a href='x'>&amp;");
  EXPECT_EQ(markdown_escape("*a* _b_ [c](d) `e` ~f~ g|h \\"),
            "\\*a\\* \\_b\\_ \\[c\\](d) \\`e\\` \\~f\\~ g\\|h \\\\");
  EXPECT_EQ(markdown_escape("two\nlines"), "two lines");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("`a"), "`` `a ``");
  EXPECT_EQ(markdown_code("plain"), "`plain`");
}

}  // namespace
}  // namespace moq::reports
