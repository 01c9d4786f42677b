#include "regress/regress_case.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <stdexcept>

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

/// strict reading of one JSON object: unknown keys and wrong types are errors
class Reader {
 public:
  Reader(const json& j, std::string where, const fs::path& file)
      : j_(j), where_(std::move(where)), file_(file) {
    if (!j_.is_object()) fail("", "expected an object");
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw std::invalid_argument(
        fmt::format("{}: {}{}: {}", file_.string(), where_, key.empty() ? "" : "/" + key, what));
  }
  void allow(std::initializer_list<const char*> keys) const {
    const std::set<std::string> ok(keys.begin(), keys.end());
    for (const auto& item : j_.items())
      if (!ok.contains(item.key())) fail(item.key(), "unknown key");
  }
  [[nodiscard]] bool has(const char* key) const { return j_.contains(key); }
  [[nodiscard]] std::string text(const char* key, bool required = true) const {
    if (!has(key)) {
      if (required) fail(key, "missing (expected a string)");
      return {};
    }
    if (!j_[key].is_string()) fail(key, "expected a string");
    return j_[key].get<std::string>();
  }
  [[nodiscard]] std::optional<double> number(const char* key) const {
    if (!has(key)) return std::nullopt;
    if (!j_[key].is_number() || !std::isfinite(j_[key].get<double>()))
      fail(key, "expected a finite number");
    return j_[key].get<double>();
  }
  [[nodiscard]] const json& at(const char* key) const { return j_.at(key); }
  [[nodiscard]] std::string where(const std::string& key) const { return where_ + "/" + key; }

 private:
  const json& j_;
  std::string where_;
  const fs::path& file_;
};

const std::set<std::string> kKinds = {"final",        "at",           "max",
                                      "min",          "mean",         "first_sign_change",
                                      "slope",        "displacement", "max_displacement",
                                      "period",       "sign_changes", "metric_max",
                                      "metric_final", "energy_drift", "summary",
                                      "character_max"};

Measure read_measure(const json& j, const std::string& where, const fs::path& file) {
  Reader r(j, where, file);
  r.allow({"kind", "body", "field", "time", "from", "to", "pointer"});
  Measure m;
  m.kind = r.text("kind");
  if (!kKinds.contains(m.kind)) r.fail("kind", fmt::format("unknown measure \"{}\"", m.kind));
  m.body = r.text("body", false);
  m.field = r.text("field", false);
  m.pointer = r.text("pointer", false);
  m.time = r.number("time").value_or(0.0);
  m.from = r.number("from").value_or(m.from);
  m.to = r.number("to").value_or(m.to);
  const bool body_kind = m.kind == "final" || m.kind == "at" || m.kind == "max" ||
                         m.kind == "min" || m.kind == "mean" || m.kind == "slope" ||
                         m.kind == "period" || m.kind == "sign_changes" ||
                         m.kind == "first_sign_change" || m.kind == "displacement";
  if (body_kind && m.body.empty()) r.fail("body", "missing (this measure needs a body)");
  if (body_kind && m.kind != "displacement" && m.field.empty())
    r.fail("field", "missing (this measure needs a trajectory field)");
  if ((m.kind == "metric_max" || m.kind == "metric_final") && m.field.empty())
    r.fail("field", "missing (a metrics.csv column)");
  if (m.kind == "at" && !r.has("time")) r.fail("time", "missing");
  if (m.kind == "summary") {
    if (m.pointer.empty()) r.fail("pointer", "missing (a JSON pointer into summary.json)");
    try {
      (void)json::json_pointer(m.pointer);
    } catch (const json::exception&) {
      r.fail("pointer", "not a JSON pointer");
    }
  }
  return m;
}

Check read_check(const json& j, const std::string& where, const fs::path& file) {
  Reader r(j, where, file);
  r.allow({"name", "measure", "expected", "tolerance", "at_most", "at_least", "source"});
  Check c;
  c.name = r.text("name");
  c.source = r.text("source");
  if (!r.has("measure")) r.fail("measure", "missing");
  c.measure = read_measure(r.at("measure"), r.where("measure"), file);
  c.expected = r.number("expected");
  c.at_most = r.number("at_most");
  c.at_least = r.number("at_least");
  if (r.has("tolerance")) {
    Reader t(r.at("tolerance"), r.where("tolerance"), file);
    t.allow({"abs", "rel"});
    c.abs_tolerance = t.number("abs");
    c.rel_tolerance = t.number("rel");
    if (!c.abs_tolerance && !c.rel_tolerance) t.fail("", "expected \"abs\" and/or \"rel\"");
    if ((c.abs_tolerance && *c.abs_tolerance < 0) || (c.rel_tolerance && *c.rel_tolerance < 0))
      t.fail("", "tolerances must be >= 0");
  }
  const bool band = c.expected.has_value();
  if (band != (c.abs_tolerance || c.rel_tolerance))
    r.fail("", "\"expected\" and \"tolerance\" go together");
  if (!band && !c.at_most && !c.at_least)
    r.fail("", "needs \"expected\" with \"tolerance\", or \"at_most\" / \"at_least\"");
  if (band && (c.at_most || c.at_least))
    r.fail("", "either \"expected\" with \"tolerance\" or bounds, not both");
  return c;
}

CaseFigure read_figure(const json& j, const std::string& where, const fs::path& file) {
  Reader r(j, where, file);
  r.allow({"title", "y_label", "caption", "log_y", "series"});
  CaseFigure f;
  f.title = r.text("title");
  f.y_label = r.text("y_label");
  f.caption = r.text("caption");
  if (r.has("log_y")) {
    if (!r.at("log_y").is_boolean()) r.fail("log_y", "expected true or false");
    f.log_y = r.at("log_y").get<bool>();
  }
  if (!r.has("series") || !r.at("series").is_array() || r.at("series").empty())
    r.fail("series", "expected a non-empty array");
  for (std::size_t i = 0; i < r.at("series").size(); ++i) {
    Reader s(r.at("series")[i], r.where(fmt::format("series/{}", i)), file);
    s.allow({"label", "body", "field", "metric", "scale"});
    FigureSeries series;
    series.label = s.text("label");
    series.body = s.text("body", false);
    series.field = s.text("field", false);
    series.metric = s.text("metric", false);
    series.scale = s.number("scale").value_or(1.0);
    if (series.metric.empty() == (series.body.empty() || series.field.empty()))
      s.fail("", "expected either \"body\" with \"field\", or \"metric\"");
    if (!series.metric.empty() && !(series.body.empty() && series.field.empty()))
      s.fail("", "\"metric\" goes alone, without \"body\" and \"field\"");
    if (!series.field.empty()) {
      try {
        (void)frame_field(Frame{}, series.field);
      } catch (const std::runtime_error& e) {
        s.fail("field", e.what());
      }
    }
    f.series.push_back(std::move(series));
  }
  return f;
}

/// frames of the window [from, to]
std::vector<Frame> window(const std::vector<Frame>& frames, double from, double to) {
  std::vector<Frame> out;
  for (const Frame& f : frames)
    if (f[0] >= from - 1e-12 && f[0] <= to + 1e-12) out.push_back(f);
  if (out.empty()) throw std::runtime_error("no trajectory frame in the time window");
  return out;
}

double displacement(const std::vector<Frame>& frames) {
  const Frame &a = frames.front(), &b = frames.back();
  return std::sqrt((b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]) +
                   (b[3] - a[3]) * (b[3] - a[3]));
}

}  // namespace

Case load_case(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::invalid_argument(fmt::format("{}: cannot be read", file.string()));
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw std::invalid_argument(fmt::format("{}: {}", file.string(), e.what()));
  }
  Reader r(j, "", file);
  r.allow({"scene", "description", "slow", "set", "checks", "figure"});
  Case c;
  c.name = file.stem().string();
  c.file = file;
  c.scene = r.text("scene");
  c.description = r.text("description");
  if (r.has("slow")) {
    if (!j["slow"].is_boolean()) r.fail("slow", "expected true or false");
    c.slow = j["slow"].get<bool>();
  }
  if (r.has("set")) {
    if (!j["set"].is_object()) r.fail("set", "expected an object of JSON pointer: value");
    for (const auto& item : j["set"].items()) c.edits.emplace_back(item.key(), item.value());
  }
  if (!r.has("checks") || !j["checks"].is_array() || j["checks"].empty())
    r.fail("checks", "expected a non-empty array");
  for (std::size_t i = 0; i < j["checks"].size(); ++i)
    c.checks.push_back(read_check(j["checks"][i], fmt::format("/checks/{}", i), file));
  if (r.has("figure")) c.figure = read_figure(j["figure"], "/figure", file);
  return c;
}

double measure(const Measure& m, const RunData& run) {
  const std::string& k = m.kind;
  if (k == "final") return frame_field(run.body(m.body).back(), m.field);
  if (k == "at") {
    const auto& frames = run.body(m.body);
    const auto best = std::min_element(frames.begin(), frames.end(), [&](auto& a, auto& b) {
      return std::abs(a[0] - m.time) < std::abs(b[0] - m.time);
    });
    return frame_field(*best, m.field);
  }
  if (k == "max" || k == "min") {
    double best = k == "max" ? -INFINITY : INFINITY;
    for (const Frame& f : window(run.body(m.body), m.from, m.to)) {
      const double v = frame_field(f, m.field);
      best = k == "max" ? std::max(best, v) : std::min(best, v);
    }
    return best;
  }
  if (k == "mean") {
    const auto frames = window(run.body(m.body), m.from, m.to);
    double sum = 0.0;
    for (const Frame& f : frames) sum += frame_field(f, m.field);
    return sum / static_cast<double>(frames.size());
  }
  if (k == "first_sign_change") {  // the first zero crossing, by linear interpolation
    const auto frames = window(run.body(m.body), m.from, m.to);
    for (std::size_t i = 1; i < frames.size(); ++i) {
      const double a = frame_field(frames[i - 1], m.field), b = frame_field(frames[i], m.field);
      if ((a < 0.0) != (b < 0.0))
        return frames[i - 1][0] + (frames[i][0] - frames[i - 1][0]) * a / (a - b);
    }
    throw std::runtime_error("the field does not change sign in the window");
  }
  if (k == "slope") {  // least-squares slope of field(t) over the window
    const auto frames = window(run.body(m.body), m.from, m.to);
    if (frames.size() < 2) throw std::runtime_error("a slope needs two frames in the window");
    double st = 0, sv = 0, stt = 0, stv = 0;
    const double n = static_cast<double>(frames.size());
    for (const Frame& f : frames) {
      const double t = f[0], v = frame_field(f, m.field);
      st += t, sv += v, stt += t * t, stv += t * v;
    }
    return (n * stv - st * sv) / (n * stt - st * st);
  }
  if (k == "displacement") return displacement(run.body(m.body));
  if (k == "max_displacement") {
    double worst = 0.0;
    for (const auto& [name, frames] : run.frames) worst = std::max(worst, displacement(frames));
    return worst;
  }
  if (k == "period" || k == "sign_changes") {
    const auto frames = window(run.body(m.body), m.from, m.to);
    double mean = 0.0;
    if (k == "period") {
      for (const Frame& f : frames) mean += frame_field(f, m.field);
      mean /= static_cast<double>(frames.size());
    }
    // upward crossings of the mean (period) or any sign change (sign_changes), the crossing
    // time by linear interpolation
    std::vector<double> ups;
    int changes = 0;
    for (std::size_t i = 1; i < frames.size(); ++i) {
      const double a = frame_field(frames[i - 1], m.field) - mean;
      const double b = frame_field(frames[i], m.field) - mean;
      if ((a < 0.0) != (b < 0.0)) ++changes;
      if (a < 0.0 && b >= 0.0)
        ups.push_back(frames[i - 1][0] + (frames[i][0] - frames[i - 1][0]) * (-a) / (b - a));
    }
    if (k == "sign_changes") return changes;
    if (ups.size() < 2) throw std::runtime_error("fewer than two upward crossings: no period");
    return (ups.back() - ups.front()) / static_cast<double>(ups.size() - 1);
  }
  if (k == "metric_max" || k == "metric_final") {
    const std::vector<double> values = run.metric(m.field), t = run.metric("t");
    if (values.empty()) throw std::runtime_error("metrics.csv has no rows");
    if (k == "metric_final") return values.back();
    double worst = -INFINITY;
    for (std::size_t i = 0; i < values.size(); ++i)
      if (t[i] >= m.from - 1e-12 && t[i] <= m.to + 1e-12) worst = std::max(worst, values[i]);
    return worst;
  }
  if (k == "character_max") {  // the largest tracking error in [from, to] (character.csv)
    if (run.character.empty()) throw std::runtime_error("the run has no character.csv");
    double worst = -INFINITY;
    for (const auto& [t, e] : run.character)
      if (t >= m.from - 1e-12 && t <= m.to + 1e-12) worst = std::max(worst, e);
    return worst;
  }
  if (k == "energy_drift") {
    // max |E(t) − E_ref| / |E_ref| over the steps; E_ref = E(0), or with `from` the energy at
    // the first step ending at or after `from` (and only steps from there on count): a drift
    // after an event, such as the hybrid entry's projection at t = 0
    const std::vector<double> energy = run.metric("total_energy"), t = run.metric("t");
    double e_ref = run.summary.at("energy").at("initial").at("total").get<double>();
    std::size_t first = 0;
    if (m.from > -1e300) {
      while (first < t.size() && t[first] < m.from - 1e-12) ++first;
      if (first == t.size()) throw std::runtime_error("no step ends at or after `from`");
      e_ref = energy[first];
    }
    double worst = 0.0;
    for (std::size_t i = first; i < energy.size() && i < t.size(); ++i)
      if (t[i] <= m.to + 1e-12) worst = std::max(worst, std::abs(energy[i] - e_ref));
    return worst / std::max(std::abs(e_ref), 1e-300);
  }
  if (k == "summary") {
    const json& v = run.summary.at(json::json_pointer(m.pointer));
    if (!v.is_number()) throw std::runtime_error(fmt::format("{} is not a number", m.pointer));
    return v.get<double>();
  }
  throw std::runtime_error("unknown measure " + k);
}

CheckResult evaluate(const Check& check, const RunData& run) {
  CheckResult r;
  if (check.expected) {
    const double e = *check.expected;
    const double tol = std::max(check.abs_tolerance.value_or(0.0),
                                check.rel_tolerance.value_or(0.0) * std::abs(e));
    r.expected_text = check.rel_tolerance && !check.abs_tolerance
                          ? fmt::format("{:.6g} ± {:.3g}%", e, 100.0 * *check.rel_tolerance)
                          : fmt::format("{:.6g} ± {:.3g}", e, tol);
  } else if (check.at_least && check.at_most) {
    r.expected_text = fmt::format("in [{:.3g}, {:.3g}]", *check.at_least, *check.at_most);
  } else if (check.at_most) {
    r.expected_text = fmt::format("<= {:.3g}", *check.at_most);
  } else {
    r.expected_text = fmt::format(">= {:.3g}", *check.at_least);
  }
  try {
    r.measured = measure(check.measure, run);
  } catch (const std::exception& e) {
    r.error = e.what();
    return r;
  }
  const double v = r.measured;
  if (!std::isfinite(v)) {
    r.error = "the measured value is not finite";
    return r;
  }
  if (check.expected) {
    const double tol = std::max(check.abs_tolerance.value_or(0.0),
                                check.rel_tolerance.value_or(0.0) * std::abs(*check.expected));
    r.pass = std::abs(v - *check.expected) <= tol;
  } else {
    r.pass = (!check.at_most || v <= *check.at_most) && (!check.at_least || v >= *check.at_least);
  }
  return r;
}

}  // namespace pivot::cli
