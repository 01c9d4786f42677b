#include "replay/svg_plot.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>

#include "run_files/run_output.hpp"

namespace pivot::cli {
namespace {

constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                   "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string tick_label(double v, bool log) {
  if (log) return fmt::format("1e{}", static_cast<int>(std::lround(std::log10(v))));
  if (v == 0.0) return "0";
  return fmt::format("{:.4g}", v);
}

struct Box {
  double x0, y0, x1, y1;  // px
};

/// true when the segment (ax, ay)-(bx, by) passes through the box (Liang–Barsky clipping)
bool crosses(const Box& box, double ax, double ay, double bx, double by) {
  double t0 = 0.0, t1 = 1.0;
  const double dx = bx - ax, dy = by - ay;
  const std::array<std::pair<double, double>, 4> sides = {
      {{-dx, ax - box.x0}, {dx, box.x1 - ax}, {-dy, ay - box.y0}, {dy, box.y1 - ay}}};
  for (const auto& [p, q] : sides) {
    if (p == 0.0) {
      if (q < 0.0) return false;  // parallel to this side and outside it
      continue;
    }
    const double t = q / p;
    if (p < 0.0)
      t0 = std::max(t0, t);
    else
      t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

/// [lo, hi] widened to take in 0 when 0 lies within one span of it (so the axis shows a 0 tick
/// instead of starting at an arbitrary value just above it)
std::pair<double, double> with_zero(double lo, double hi) {
  const double span = hi - lo;
  if (lo > 0.0 && lo <= span) return {0.0, hi};
  if (hi < 0.0 && -hi <= span) return {lo, 0.0};
  return {lo, hi};
}

/// where v lies in [a, b], 0 … 1: the differences taken of halves, so that a range as wide as
/// [−1.8e308, 1.8e308] (a run file may hold both) does not overflow to inf and NaN coordinates
double fraction(double v, double a, double b) {
  return (0.5 * v - 0.5 * a) / (0.5 * b - 0.5 * a);
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int count) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return {lo};
  // (hi − lo) / count without overflow; steps beyond the largest double are no ticks
  const double raw = (0.5 * hi - 0.5 * lo) / std::max(1, count) * 2.0;
  if (!std::isfinite(raw)) return {lo, hi};
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  if (!std::isfinite(step)) return {lo, hi};
  // a range of a few ulps (0.4999999999999998 … 0.5) has a step below the spacing of doubles
  // there: t + step == t would repeat forever, so its ends are the ticks
  const double first = std::ceil(lo / step - 1e-9) * step;
  if (!(first + step > first) || !(hi - step < hi)) return {lo, hi};
  std::vector<double> ticks;
  // (t finite: near the largest double, hi + 1e-9 step rounds to inf)
  for (double t = first; std::isfinite(t) && t <= hi + 1e-9 * step; t += step)
    ticks.push_back(std::abs(t) < 1e-12 * step ? 0.0 : t);
  return ticks;
}

double text_width(const std::string& text, double font_size) {
  double em = 0.0;
  for (const unsigned char c : text) {
    if ((c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte: counted with its lead
    if (c == 'm' || c == 'w' || c == 'M' || c == 'W' || c == '@' || c == '%')
      em += 0.95;
    else if (c == 'i' || c == 'j' || c == 'l' || c == '.' || c == ',' || c == '\'' || c == ':' ||
             c == ';' || c == '|' || c == '!' || c == ' ' || c == 'I')
      em += 0.35;
    else if (c == 'f' || c == 't' || c == 'r' || c == '(' || c == ')' || c == '-' || c == '[' ||
             c == ']' || c == '/')
      em += 0.45;
    else if (c >= 'A' && c <= 'Z')
      em += 0.75;
    else
      em += 0.65;
  }
  return em * font_size;
}

std::string svg_line_plot(const std::vector<PlotSeries>& series, const PlotOptions& options) {
  const double W = options.width, H = options.height;
  const double left = 80, top = 36, bottom = 50;
  double right = 20;

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
  x0 = with_zero(x0, x1).first;
  x1 = with_zero(x0, x1).second;
  if (options.log_y) {
    y0 = std::floor(y0);
    y1 = std::max(std::ceil(y1), y0 + 1);
  } else if (y1 <= y0) {
    y0 -= 0.5 * std::max(1.0, std::abs(y0));
    y1 = y0 + std::max(1.0, std::abs(y0));
  } else {
    const auto [z0, z1] = with_zero(y0, y1);
    const double pad = 0.1 * (0.5 * z1 - 0.5 * z0);  // 5 % of the range, without overflow
    constexpr double kMax = std::numeric_limits<double>::max();
    y0 = z0 == 0.0 ? 0.0 : std::max(z0 - pad, -kMax);  // an axis that starts at 0 starts there
    y1 = z1 == 0.0 ? 0.0 : std::min(z1 + pad, kMax);
  }

  // the legend: inside the plot area in the corner that hides the fewest points, on a white
  // box; beside the plot area (on the right) when it would take more than half of its width
  const double font = 12, row = 16, pad = 6, swatch = 22;
  double label_width = 0.0;
  for (const PlotSeries& s : series) label_width = std::max(label_width, text_width(s.label, font));
  const double box_w = pad + swatch + 6 + label_width + pad;
  const double box_h = pad + row * static_cast<double>(series.size()) + pad - 4;
  double pw = W - left - right;
  const double ph = H - top - bottom;

  auto px = [&](double x) { return left + fraction(x, x0, x1) * pw; };
  auto py = [&](double y) {
    double v = options.log_y ? (y > 0.0 ? std::log10(y) : y0) : y;
    v = std::clamp(v, y0, y1);
    return top + (1.0 - fraction(v, y0, y1)) * ph;
  };

  // inside: the corner (top right, top left, bottom right, bottom left) whose box no curve
  // crosses; beside when the box is wide or every corner hides a piece of a curve
  double box_x = 0.0, box_y = 0.0;
  bool beside = box_w > 0.5 * pw;
  if (!beside) {
    const double margin = 8;
    const std::array<std::pair<double, double>, 4> corners = {
        {{left + pw - margin - box_w, top + margin},
         {left + margin, top + margin},
         {left + pw - margin - box_w, top + ph - margin - box_h},
         {left + margin, top + ph - margin - box_h}}};
    const auto free = std::find_if(corners.begin(), corners.end(), [&](const auto& corner) {
      const Box box{corner.first, corner.second, corner.first + box_w, corner.second + box_h};
      for (const PlotSeries& s : series)
        for (std::size_t i = 1; i < s.x.size() && i < s.y.size(); ++i) {
          if (!std::isfinite(s.x[i - 1]) || !std::isfinite(s.y[i - 1]) || !std::isfinite(s.x[i]) ||
              !std::isfinite(s.y[i]))
            continue;
          if (crosses(box, px(s.x[i - 1]), py(s.y[i - 1]), px(s.x[i]), py(s.y[i]))) return false;
        }
      return true;
    });
    beside = free == corners.end();
    if (!beside) std::tie(box_x, box_y) = *free;
  }
  if (beside) {
    right = box_w + 20;
    pw = W - left - right;
    box_x = left + pw + 10;
    box_y = top;
  }

  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} "
      "{1}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{0}\" height=\"{1}\" "
      "fill=\"white\"/>\n",
      W, H);
  svg += fmt::format(
      "<text class=\"title\" x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n",
      left + pw / 2, xml_text(options.title));
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
      "<rect class=\"plot-area\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
      "stroke=\"#333\"/>\n",
      left, top, pw, ph);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", left + pw / 2,
                     H - 10, xml_text(options.x_label));
  svg += fmt::format(
      "<text x=\"16\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 16 "
      "{0})\">{1}</text>\n",
      top + ph / 2, xml_text(options.y_label));
  // series, then the legend over them
  for (std::size_t k = 0; k < series.size(); ++k) {
    const PlotSeries& s = series[k];
    std::string points;
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      points += fmt::format("{:.1f},{:.1f} ", px(s.x[i]), py(s.y[i]));
    }
    svg +=
        fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>\n",
                    kColors[k % std::size(kColors)], points);
  }
  if (series.empty()) return svg + "</svg>\n";
  svg += fmt::format(
      "<g class=\"legend\">\n<rect class=\"legend-box\" x=\"{:.1f}\" y=\"{:.1f}\" "
      "width=\"{:.1f}\" height=\"{:.1f}\" fill=\"white\" fill-opacity=\"0.9\" stroke=\"#999\"/>\n",
      box_x, box_y, box_w, box_h);
  for (std::size_t k = 0; k < series.size(); ++k) {
    const double ly = box_y + pad + row * static_cast<double>(k) + 6;
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"{3}\" "
        "stroke-width=\"2\"/>\n"
        "<text class=\"legend-label\" x=\"{4:.1f}\" y=\"{5:.1f}\">{6}</text>\n",
        box_x + pad, ly, box_x + pad + swatch, kColors[k % std::size(kColors)],
        box_x + pad + swatch + 6, ly + 4, xml_text(series[k].label));
  }
  svg += "</g>\n</svg>\n";
  return svg;
}

}  // namespace pivot::cli
