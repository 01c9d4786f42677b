// One entry of "actuators" (docs/scene-format.md, "Actuators"; engine/actuator.hpp).
#include <array>
#include <fstream>
#include <sstream>

#include "pivot/core/bounded_file.hpp"
#include "pivot/core/csv_line.hpp"
#include "pivot/core/number_text.hpp"
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

namespace {

/// the largest actuator target file read, bytes (64 MiB, as scene files)
constexpr std::size_t kMaxTargetBytes = std::size_t{64} << 20;

// a CSV time series "time,value" (an optional header line of non-numbers), times increasing
std::vector<std::pair<double, double>> read_target_csv(const Context& ctx, const std::string& ptr,
                                                       const fs::path& file) {
  std::string text;
  switch (detail::read_at_most(file, kMaxTargetBytes, text)) {
    case detail::FileRead::ok:
      break;
    case detail::FileRead::folder:
      ctx.fail(ptr, file.string() + " is a folder, not a CSV file");
    case detail::FileRead::cannot_open:
      ctx.fail(ptr, "cannot open the target file " + file.string());
    case detail::FileRead::cannot_read:
      ctx.fail(ptr, "cannot read the target file " + file.string());
    case detail::FileRead::too_large:
      ctx.fail(ptr, file.string() + " is larger than the limit of 64 MiB for a target file");
  }
  std::vector<std::pair<double, double>> keys;
  std::istringstream lines(text);
  std::string line;
  std::vector<std::string> cells;
  for (int n = 1; std::getline(lines, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto where = [&] { return fmt::format("{} line {}", file.string(), n); };
    if (!split_csv_line(line, cells) || cells.size() != 2)
      ctx.fail(ptr, where() + ": expected two columns time,value");
    const std::optional<double> tt = read_number(cells[0]), vv = read_number(cells[1]);
    if (!tt || !vv) {
      if (n == 1 && keys.empty()) continue;  // the header
      ctx.fail(ptr, where() + ": expected two numbers");
    }
    const double t = *tt, v = *vv;
    if (!std::isfinite(t) || !std::isfinite(v)) ctx.fail(ptr, where() + ": not finite");
    if (!keys.empty() && !(t > keys.back().first))
      ctx.fail(ptr, where() + ": times must increase strictly");
    keys.emplace_back(t, v);
  }
  if (keys.empty()) ctx.fail(ptr, file.string() + " holds no time,value rows");
  return keys;
}

}  // namespace

SceneActuator read_actuator(const Context& ctx, const json& j, const std::string& ptr,
                            const Scene& scene) {
  const Object o(ctx, j, ptr, {"name", "joint", "type", "kp", "kd", "effort_limit", "target"});
  SceneActuator out;
  out.joint = o.required_string("joint");
  out.settings.name = o.string("name", out.joint);
  const SceneJoint* joint = nullptr;
  for (std::size_t i = 0; i < scene.joints.size() && !joint; ++i)
    if (scene.joints[i].name() == out.joint) {
      joint = &scene.joints[i];
      out.settings.joint = static_cast<int>(i);
    }
  if (!joint)
    ctx.fail(o.pointer("joint"), fmt::format("no joint named {}", pivot::quoted(out.joint)));
  if (joint->type() != JointType::hinge && joint->type() != JointType::slider)
    ctx.fail(o.pointer("joint"),
             fmt::format("joint {} is a {} joint: an actuator needs a hinge or a slider",
                         pivot::quoted(out.joint), to_string(joint->type())));
  const std::string type = o.required_string("type");
  if (type == "effort")
    out.settings.type = ActuatorType::effort;
  else if (type == "position")
    out.settings.type = ActuatorType::position;
  else if (type == "velocity")
    out.settings.type = ActuatorType::velocity;
  else
    ctx.fail(o.pointer("type"), fmt::format("unknown actuator type {} (expected effort, position "
                                            "or velocity)",
                                            pivot::quoted(type)));
  const bool servo = out.settings.type != ActuatorType::effort;
  if (!servo)
    for (const char* key : {"kp", "kd"})
      if (o.has(key)) ctx.fail(o.pointer(key), "an effort actuator has no gains");
  out.settings.kp = o.number("kp", 0.0, Range::non_negative);
  out.settings.kd = o.number("kd", 0.0, Range::non_negative);
  if (out.settings.type == ActuatorType::position && o.has("kp") && !o.has("kd") &&
      out.settings.kp == 0.0)
    ctx.fail(o.pointer("kp"), "a position servo needs kp + kd > 0");
  if (out.settings.type == ActuatorType::position && !o.has("kp"))
    ctx.fail(o.pointer("kp"), "missing (a position servo needs kp)");
  if (out.settings.type == ActuatorType::velocity && !(out.settings.kd > 0.0))
    ctx.fail(o.pointer("kd"), "a velocity servo needs kd > 0");
  // the limit: given, or the joint's (a URDF's <limit effort>)
  if (o.has("effort_limit"))
    out.settings.effort_limit = o.required_number("effort_limit", Range::positive);
  else if (joint->effort_limit && *joint->effort_limit > 0.0)
    out.settings.effort_limit = *joint->effort_limit;
  else
    ctx.fail(o.pointer("effort_limit"), "missing (the joint gives no effort limit)");
  if (o.has("target")) {
    const json& t = o.required("target");
    const std::string tp = o.pointer("target");
    if (t.is_number()) {
      out.settings.keys = {{0.0, number(ctx, t, tp, Range::any)}};
    } else {
      const Object to(ctx, t, tp, {"keys", "csv"});
      if (to.has("keys") == to.has("csv"))
        ctx.fail(tp, "expected a number, {\"keys\": [[t, value], ...]} or {\"csv\": FILE}");
      if (to.has("keys")) {
        const json& keys = to.required_array("keys");
        if (keys.empty()) ctx.fail(tp + "/keys", "expected at least one [t, value] key");
        out.settings.keys.clear();
        for (std::size_t i = 0; i < keys.size(); ++i) {
          const std::string kp = tp + "/keys/" + std::to_string(i);
          if (!keys[i].is_array() || keys[i].size() != 2)
            ctx.fail(kp, fmt::format("expected [t, value] (got {})", describe(keys[i])));
          const double time = number(ctx, keys[i][0], kp + "/0", Range::any);
          if (i > 0 && !(time > out.settings.keys.back().first))
            ctx.fail(kp + "/0", "times must increase strictly");
          out.settings.keys.emplace_back(time, number(ctx, keys[i][1], kp + "/1", Range::any));
        }
      } else {
        out.csv = to.required_string("csv");
        out.settings.keys = read_target_csv(ctx, tp + "/csv", ctx.base_dir / out.csv);
      }
    }
  }
  return out;
}

}  // namespace pivot::detail
