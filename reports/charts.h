// Charts of the report: median instructions and allocations per case across the given files.
//
// Cases are grouped by bench/scenario/version. Within a group the x axis is the integer parameter
// that varies ("frames" first, then "viewers", then the first other varying integer parameter);
// every combination of the other parameters is its own chart, with one series per file. A group
// where no integer parameter varies gets one chart with the files along x ("file") and one series
// per case. Failed cases are left out of charts. Instructions charts exist only when the files
// counted instructions (backend other than "none").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/inputs.h"

namespace moq::reports {

struct ChartPoint {
  double x = 0;        // axis value (file index in "file" charts)
  std::string x_text;  // as labelled: "256", or the file label
  uint64_t y = 0;      // median of the metric
  std::string case_id;
  size_t file = 0;  // index of the input file
};

struct ChartSeries {
  std::string name;                // file label, or the case's parameters in "file" charts
  std::vector<ChartPoint> points;  // sorted by x
};

struct Chart {
  std::string group;                // "model/fetch_frames/moq-lite-06"
  std::string fixed;                // the other parameters, "publishers=1/viewers=1" (may be empty)
  std::string metric;               // "instructions" or "allocations"
  std::string x_axis;               // parameter name, or "file"
  std::vector<ChartSeries> series;  // only series with points

  size_t point_count() const;
};

std::vector<Chart> build_charts(const std::vector<InputFile>& inputs);

// An inline <svg class="chart"> with data-metric, data-group, data-fixed, data-x-axis,
// data-series (count) and data-points (count); each point a <circle class="point"> with
// data-series, data-file, data-case, data-x and data-y (the exact median). Scales: y from 0;
// x logarithmic when all x > 0 and max/min >= 8, else linear; "file" charts evenly spaced.
std::string render_chart_svg(const Chart& chart);

}  // namespace moq::reports
