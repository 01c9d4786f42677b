#pragma once
// A small SVG line plot for the reports of `pivot regress` (docs/regression.md): linear or
// logarithmic y axis, "nice" tick values, one polyline per series and a legend. No dependency
// beyond the standard library; the output is deterministic text.

#include <string>
#include <vector>

namespace pivot::cli {

struct PlotSeries {
  std::string label;
  std::vector<double> x, y;  ///< same length; non-finite points are skipped
};

struct PlotOptions {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_y = false;  ///< logarithmic y; values ≤ 0 are drawn at the bottom of the axis
  int width = 720;     ///< px
  int height = 400;    ///< px
};

/// the plot as a standalone SVG document
[[nodiscard]] std::string svg_line_plot(const std::vector<PlotSeries>& series,
                                        const PlotOptions& options);

/// up to ~`count` round tick values (1, 2 or 5 × 10ᵏ apart) covering [lo, hi]
[[nodiscard]] std::vector<double> nice_ticks(double lo, double hi, int count);

}  // namespace pivot::cli
