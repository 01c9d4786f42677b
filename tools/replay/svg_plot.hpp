#pragma once
// A small SVG line plot for the reports of `pivot regress` (docs/regression.md) and for
// `pivot plot` (docs/cli.md): linear or logarithmic y axis, "nice" tick values (with a 0 tick
// when 0 is near the data), one polyline per series and a legend on a white box, inside the
// plot area in the corner that hides the fewest points, or beside it when it is wide. The
// elements a test checks carry classes: "plot-area", "legend-box", "legend-label", "title".
// No dependency beyond the standard library; the output is deterministic text.

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

/// the width of `text` in sans-serif at `font_size` px, an estimate on the wide side (by
/// character class), px
[[nodiscard]] double text_width(const std::string& text, double font_size);

/// up to ~`count` round tick values (1, 2 or 5 × 10ᵏ apart) covering [lo, hi]
[[nodiscard]] std::vector<double> nice_ticks(double lo, double hi, int count);

}  // namespace pivot::cli
