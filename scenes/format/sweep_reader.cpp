// load_sweep: the sweep file format (docs/sweeps.md "The sweep file"), read strictly. Every
// error names the sweep file and the JSON pointer of the offending value.

#include <fmt/core.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "pivot/core/number_text.hpp"
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/sweep.hpp"
#include "pivot/scenes/sweep_pointer.hpp"

namespace pivot {
namespace {

using detail::Context;
using detail::describe;
using detail::json;
using detail::Object;
using detail::ojson;

std::string read_text(const std::filesystem::path& file, const std::string& source) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(source, "", "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// a range's value rounded to 15 significant digits, so that steps of 0.1 give 0.3 and not
/// 0.30000000000000004, and 0.6 / 3 gives 0.2 (ranges are written in decimal; a double holds
/// 15 decimal digits exactly)
double decimal_round(double x) {
  return read_number(fmt::format("{:.15g}", x)).value_or(x);
}

/// {"from", "to", "count" | "step"}: the values of a range; continuous (neither count nor step)
/// only in random mode
void read_range(const Context& ctx, const json& j, const std::string& ptr, SweepMode mode,
                SweepParameter& p) {
  const Object range(ctx, j, ptr, {"from", "to", "count", "step"});
  const double from = range.required_number("from", detail::Range::any);
  const double to = range.required_number("to", detail::Range::any);
  if (range.has("count") && range.has("step"))
    ctx.fail(ptr, "give \"count\" or \"step\", not both");
  const bool integers = j.at("from").is_number_integer() && j.at("to").is_number_integer();
  std::vector<double> values;
  if (range.has("count")) {
    const int n = range.integer("count", 0);
    if (n < 1 || n > kMaxSweepVariants)
      ctx.fail(range.pointer("count"), fmt::format("expected an integer from 1 to {} (got {})",
                                                   kMaxSweepVariants, describe(j.at("count"))));
    if (n == 1 && from != to)
      ctx.fail(range.pointer("count"), "a count of 1 needs \"from\" equal to \"to\"");
    // v_k = from + (to − from) k / (n − 1), rounded to 15 digits; v_(n−1) = to exactly
    for (int k = 0; k < n; ++k)
      values.push_back(k == n - 1 ? to : decimal_round(from + (to - from) * k / (n - 1)));
  } else if (range.has("step")) {
    const double step = range.required_number("step", detail::Range::positive);
    if (!(from <= to)) ctx.fail(range.pointer("to"), "expected \"to\" >= \"from\" with a step");
    const double n = std::floor((to - from) / step + 1e-9) + 1.0;
    if (n > static_cast<double>(kMaxSweepVariants))
      ctx.fail(range.pointer("step"), fmt::format("more than {} values", kMaxSweepVariants));
    for (long k = 0; k < static_cast<long>(n); ++k)
      values.push_back(decimal_round(from + static_cast<double>(k) * step));
  } else {
    if (mode != SweepMode::random)
      ctx.fail(ptr,
               "a range in a grid needs \"count\" or \"step\" (a range with neither is "
               "uniform in [from, to), for \"mode\": \"random\")");
    if (!(from < to)) ctx.fail(range.pointer("to"), "expected \"to\" > \"from\"");
    p.continuous = true;
    p.from = from;
    p.to = to;
    return;
  }
  // a range of integers whose values are all integers gives integers ("friction_directions")
  bool integral = integers && (!range.has("step") || j.at("step").is_number_integer());
  for (const double v : values) integral = integral && v == std::floor(v) && std::abs(v) < 1e15;
  for (const double v : values)
    p.values.push_back(integral ? json(static_cast<long long>(v)).dump() : json(v).dump());
}

std::vector<std::string> read_names(const Context& ctx, const Object& keep, const char* key,
                                    const std::vector<std::string>& allowed) {
  std::vector<std::string> names;
  if (!keep.has(key)) return names;
  const json& list = keep.required_array(key);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string ptr = keep.pointer(key) + "/" + std::to_string(i);
    if (!list[i].is_string())
      ctx.fail(ptr, fmt::format("expected a name (got {})", describe(list[i])));
    const auto name = list[i].get<std::string>();
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
      ctx.fail(ptr, fmt::format("unknown {} \"{}\" (expected one of: {})", key, name,
                                detail::join(allowed)));
    names.push_back(name);
  }
  return names;
}

}  // namespace

Sweep load_sweep(const std::filesystem::path& file) {
  Sweep sweep;
  sweep.source = file.string();
  const Context ctx{sweep.source, file.has_parent_path() ? file.parent_path() : "."};
  const std::string text = read_text(file, sweep.source);
  const json doc = detail::parse_text(ctx, text);  // syntax errors, duplicate keys
  const Object top(
      ctx, doc, "",
      {"$schema", "description", "scene", "parameters", "mode", "samples", "seed", "keep"});

  sweep.scene = top.required_string("scene");
  sweep.scene_file = ctx.base_dir / sweep.scene;
  if (std::filesystem::path(sweep.scene).is_absolute()) sweep.scene_file = sweep.scene;
  Scene base;
  try {
    base = load_scene(sweep.scene_file);
  } catch (const Error& e) {
    ctx.fail("/scene", fmt::format("the scene does not load: {}", e.what()));
  }
  for (const SceneBody& b : base.bodies)
    if (!b.settings.fixed) sweep.state_bodies.push_back(b.settings.name);
  sweep.scene_text = read_text(sweep.scene_file, sweep.scene_file.string());

  const std::string mode = top.string("mode", "grid");
  if (mode == "grid")
    sweep.mode = SweepMode::grid;
  else if (mode == "random")
    sweep.mode = SweepMode::random;
  else
    ctx.fail("/mode", fmt::format("expected \"grid\" or \"random\" (got \"{}\")", mode));
  if (sweep.mode == SweepMode::random) {
    const json& samples = top.required("samples", "the number of random variants");
    if (!samples.is_number_integer() || samples.get<long long>() < 1 ||
        samples.get<long long>() > kMaxSweepVariants)
      ctx.fail("/samples", fmt::format("expected an integer from 1 to {} (got {})",
                                       kMaxSweepVariants, describe(samples)));
    sweep.samples = static_cast<long>(samples.get<long long>());
    const json& seed = top.required("seed", "an integer seed, >= 0");
    if (!seed.is_number_unsigned())
      ctx.fail("/seed", fmt::format("expected an integer >= 0 (got {})", describe(seed)));
    sweep.seed = seed.get<std::uint64_t>();
  } else {
    for (const char* key : {"samples", "seed"})
      if (top.has(key)) ctx.fail(std::string("/") + key, "only with \"mode\": \"random\"");
  }

  // the parameters in the file's order (json sorts keys; ordered_json keeps them)
  const ojson ordered = ojson::parse(text);
  const json& params = top.required("parameters", "an object of JSON pointers to values");
  if (!params.is_object() || params.empty())
    ctx.fail("/parameters", fmt::format("expected an object of JSON pointers to their values, "
                                        "with at least one (got {})",
                                        describe(params)));
  ojson scene_doc = ojson::parse(sweep.scene_text);
  long size = 1;
  for (const auto& item : ordered.at("parameters").items()) {
    const std::string ptr = "/parameters/" + detail::escape_pointer_token(item.key());
    SweepParameter p;
    p.pointer = item.key();
    try {
      detail::pointer_target(scene_doc, p.pointer);
    } catch (const std::invalid_argument& e) {
      ctx.fail(ptr, e.what());
    }
    const json& values = params.at(item.key());
    if (values.is_array()) {
      if (values.empty()) ctx.fail(ptr, "expected a non-empty list of values (got [])");
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (values[i].is_null())
          ctx.fail(ptr + "/" + std::to_string(i), "expected a value (got null)");
        p.values.push_back(item.value()[i].dump());  // ordered: objects keep their key order
      }
    } else if (values.is_object()) {
      read_range(ctx, values, ptr, sweep.mode, p);
    } else {
      ctx.fail(ptr, fmt::format("expected a non-empty list of values or a range {{\"from\", "
                                "\"to\", \"count\" or \"step\"}} (got {})",
                                describe(values)));
    }
    if (!p.continuous) {
      const long n = static_cast<long>(p.values.size());
      if (sweep.mode == SweepMode::grid && size > kMaxSweepVariants / n)
        ctx.fail("/parameters",
                 fmt::format("the grid has more than {} variants", kMaxSweepVariants));
      size *= n;
    }
    sweep.parameters.push_back(std::move(p));
  }

  if (top.has("keep")) {
    const Object keep(ctx, top.required("keep"), "/keep", {"summary", "metrics", "final_state"});
    sweep.keep.summary = read_names(ctx, keep, "summary", sweep_summary_keys());
    sweep.keep.metrics = read_names(ctx, keep, "metrics", sweep_metric_keys());
    sweep.keep.final_state = keep.boolean("final_state", false);
  }
  return sweep;
}

}  // namespace pivot
