// moqbench fit and the gate's growth bounds (reports/fit.h): exact series of each order are
// classified as that order from 4 points, the slope says how steep, the gate fails a series that
// grows faster than declared, and what cannot be fitted is refused naming why.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "reports/commands.h"
#include "reports/fit.h"
#include "tests/reports/synthetic.h"

namespace moq::reports {
namespace {

using results::testing::synthetic_case;
using results::testing::synthetic_meta;
using ::testing::HasSubstr;

// A file of `scenario` cases over axis n = 64, 128, 256, 512 on two versions, cost(n) each.
results::ResultsFile series_file(const std::string& scenario, uint64_t (*cost)(uint64_t)) {
  results::ResultsFile f;
  f.meta = synthetic_meta();
  for (const char* version : {"moq-lite-06", "moq-transport-22"})
    for (int64_t n : {64, 128, 256, 512})
      f.cases.push_back(
          synthetic_case(scenario, version, {{"n", n}, {"viewers", int64_t{4}}}, cost(n), 0));
  return f;
}

uint64_t constant(uint64_t) {
  return 50'000;
}
uint64_t logarithmic(uint64_t n) {
  return 10'000 + 900 * static_cast<uint64_t>(std::log2(n));
}
uint64_t linear(uint64_t n) {
  return 20'000 + 37 * n;
}
uint64_t n_log_n(uint64_t n) {
  return 5'000 + 11 * n * static_cast<uint64_t>(std::log2(n));
}
uint64_t quadratic(uint64_t n) {
  return 3'000 + 5 * n * n;
}
uint64_t cubic(uint64_t n) {
  return 1'000 + n * n * n;
}

TEST(Fit, EachOrderIsRecognisedFromFourPoints) {
  const std::vector<std::pair<uint64_t (*)(uint64_t), Growth>> cases = {
      {constant, Growth::kConstant}, {logarithmic, Growth::kLogN}, {linear, Growth::kN},
      {n_log_n, Growth::kNLogN},     {quadratic, Growth::kN2},     {cubic, Growth::kN3}};
  for (const auto& [cost, growth] : cases) {
    Result<std::vector<GrowthFit>> fits = fit_growth(series_file("s", cost), {"s", "n"});
    ASSERT_TRUE(fits.ok()) << fits.error().message;
    ASSERT_EQ(fits->size(), 2u);  // one series per version
    for (const GrowthFit& f : *fits) {
      EXPECT_EQ(f.growth, growth) << f.series << ": " << to_string(f.growth);
      EXPECT_LT(f.residual, 0.005) << f.series;
      EXPECT_EQ(f.points.size(), 4u);
    }
  }
  const GrowthFit q = fit_growth(series_file("s", quadratic), {"s", "n"})->front();
  EXPECT_EQ(q.series, "model/s/moq-lite-06/n=*/viewers=4");
  // A constant part flattens the log-log slope; the fit of a + b g(n) sees through it.
  EXPECT_GT(q.slope, 1.8);
  EXPECT_LT(q.slope, 2.0);
  const GrowthFit l = fit_growth(series_file("s", linear), {"s", "n"})->front();
  EXPECT_GT(l.slope, 0.2);  // 20,000 + 37 n: the constant dominates at these n
  EXPECT_LT(l.slope, 1.0);
}

TEST(Fit, GrowthNamesReadBackAndBadOnesAreRefused) {
  for (Growth g :
       {Growth::kConstant, Growth::kLogN, Growth::kN, Growth::kNLogN, Growth::kN2, Growth::kN3})
    EXPECT_EQ(parse_growth(to_string(g)).value(), g);
  EXPECT_EQ(parse_growth("O(nlogn)").value(), Growth::kNLogN);
  EXPECT_EQ(parse_growth("O(n\u00b2)").value(), Growth::kN2);
  Result<Growth> bad = parse_growth("O(2^n)");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message, HasSubstr("O(2^n)"));
}

TEST(Fit, WhatCannotBeFittedIsRefusedSayingWhy) {
  results::ResultsFile two_points;
  two_points.meta = synthetic_meta();
  for (int64_t n : {64, 128})
    two_points.cases.push_back(synthetic_case("s", "moq-lite-06", {{"n", n}}, 100 * n, 0));
  Result<std::vector<GrowthFit>> fits = fit_growth(two_points, {"s", "n"});
  ASSERT_FALSE(fits.ok());
  EXPECT_THAT(fits.error().message, HasSubstr("3 or more values"));
  fits = fit_growth(two_points, {"s", "frames"});
  ASSERT_FALSE(fits.ok());
  EXPECT_THAT(fits.error().message, HasSubstr("0 case(s)"));
  results::ResultsFile text_axis;
  text_axis.meta = synthetic_meta();
  text_axis.cases.push_back(synthetic_case("s", "moq-lite-06", {{"n", std::string("big")}}, 1, 0));
  fits = fit_growth(text_axis, {"s", "n"});
  ASSERT_FALSE(fits.ok());
  EXPECT_THAT(fits.error().message, HasSubstr("not a positive number"));
}

TEST(Fit, TheGateFailsASeriesThatGrowsFasterThanItsBound) {
  results::testing::TempDir dir;
  const std::string file =
      results::testing::write_synthetic(dir, "head.json", series_file("teardown", quadratic));
  std::ostringstream out, err;
  GateCommand gate;
  gate.base = file;
  gate.head = file;
  gate.growth_bounds = {"teardown/n=O(n)"};
  EXPECT_EQ(run_gate(gate, out, err), kExitRegressed) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("growth of teardown over n (bound O(n))"));
  EXPECT_THAT(out.str(), HasSubstr("EXCEEDED"));
  EXPECT_THAT(err.str(),
              HasSubstr("model/teardown/moq-lite-06/n=*/viewers=4 grows O(n^2), beyond O(n)"));
  gate.growth_bounds = {"teardown/n=O(n^2)"};
  out.str("");
  EXPECT_EQ(run_gate(gate, out, err), kExitOk);
  gate.growth_bounds = {"teardown=O(n)"};
  EXPECT_EQ(run_gate(gate, out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("expected SCENARIO/AXIS=O(...)"));

  FitCommand fit;
  fit.file = file;
  fit.request = {"teardown", "n"};
  fit.max = Growth::kN;
  out.str("");
  EXPECT_EQ(run_fit(fit, out, err), kExitRegressed);
  fit.format = OutputFormat::kMarkdown;
  fit.max.reset();
  out.str("");
  EXPECT_EQ(run_fit(fit, out, err), kExitOk);
  EXPECT_THAT(out.str(), HasSubstr("| O(n^2) |"));
}

}  // namespace
}  // namespace moq::reports
