#include "svg_plot.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "run_output.hpp"

namespace pivot::cli {
namespace {

constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                   "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string tick_label(double v, bool log) {
  if (log) return fmt::format("1e{}", static_cast<int>(std::lround(std::log10(v))));
  if (v == 0.0) return "0";
  return fmt::format("{:.4g}", v);
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int count) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return {lo};
  const double raw = (hi - lo) / std::max(1, count);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + 1e-9 * step; t += step)
    ticks.push_back(std::abs(t) < 1e-12 * step ? 0.0 : t);
  return ticks;
}

std::string svg_line_plot(const std::vector<PlotSeries>& series, const PlotOptions& options) {
  const double W = options.width, H = options.height;
  const double left = 80, right = 20, top = 36, bottom = 50;
  const double pw = W - left - right, ph = H - top - bottom;

  // data ranges (log: over the positive values)
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const PlotSeries& s : series)
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      x0 = std::min(x0, s.x[i]);
      x1 = std::max(x1, s.x[i]);
      if (options.log_y && !(s.y[i] > 0.0)) continue;
      const double y = options.log_y ? std::log10(s.y[i]) : s.y[i];
      y0 = std::min(y0, y);
      y1 = std::max(y1, y);
    }
  if (!std::isfinite(x0)) x0 = 0, x1 = 1;
  if (!std::isfinite(y0)) y0 = 0, y1 = 1;
  if (x1 <= x0) x1 = x0 + 1;
  if (options.log_y) {
    y0 = std::floor(y0);
    y1 = std::max(std::ceil(y1), y0 + 1);
  } else if (y1 <= y0) {
    y0 -= 0.5 * std::max(1.0, std::abs(y0));
    y1 = y0 + std::max(1.0, std::abs(y0));
  } else {
    const double pad = 0.05 * (y1 - y0);
    y0 -= pad;
    y1 += pad;
  }
  auto px = [&](double x) { return left + (x - x0) / (x1 - x0) * pw; };
  auto py = [&](double y) {
    double v = options.log_y ? (y > 0.0 ? std::log10(y) : y0) : y;
    v = std::clamp(v, y0, y1);
    return top + (1.0 - (v - y0) / (y1 - y0)) * ph;
  };

  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} "
      "{1}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{0}\" height=\"{1}\" "
      "fill=\"white\"/>\n",
      W, H);
  svg += fmt::format("<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n",
                     W / 2, xml_text(options.title));
  // grid and ticks
  for (double t : nice_ticks(x0, x1, 8)) {
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#ddd\"/>\n"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        px(t), top, top + ph, top + ph + 16, tick_label(t, false));
  }
  std::vector<double> yt;
  if (options.log_y) {
    const int span = static_cast<int>(y1 - y0);
    const int every = std::max(1, span / 8);
    for (int k = static_cast<int>(y0); k <= static_cast<int>(y1); k += every)
      yt.push_back(std::pow(10.0, k));
  } else {
    yt = nice_ticks(y0, y1, 6);
  }
  for (double t : yt)
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>\n"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        left, py(t), left + pw, left - 6, py(t) + 4, tick_label(t, options.log_y));
  svg += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>\n", left,
      top, pw, ph);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", left + pw / 2,
                     H - 10, xml_text(options.x_label));
  svg += fmt::format(
      "<text x=\"16\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 16 "
      "{0})\">{1}</text>\n",
      top + ph / 2, xml_text(options.y_label));
  // series and legend
  for (std::size_t k = 0; k < series.size(); ++k) {
    const PlotSeries& s = series[k];
    const char* color = kColors[k % std::size(kColors)];
    std::string points;
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      points += fmt::format("{:.1f},{:.1f} ", px(s.x[i]), py(s.y[i]));
    }
    svg +=
        fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>\n",
                    color, points);
    const double ly = top + 14 + 16 * static_cast<double>(k);
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"2\"/>\n"
        "<text x=\"{4}\" y=\"{5}\">{6}</text>\n",
        left + pw - 200, ly, left + pw - 180, color, left + pw - 175, ly + 4, xml_text(s.label));
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace pivot::cli
