// A body's "kinematic" key-frame track and its "animator" controls (docs/scene-format.md,
// "Kinematic bodies" and "Animator controls").
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

KinematicTrack read_kinematic(const Context& ctx, const json& j, const std::string& ptr) {
  const Object o(ctx, j, ptr, {"keyframes", "interpolation"});
  KinematicTrack track;
  const std::string mode = o.string("interpolation", "linear");
  if (mode == "linear")
    track.interpolation = TrackInterpolation::linear;
  else if (mode == "cubic")
    track.interpolation = TrackInterpolation::cubic;
  else
    ctx.fail(o.pointer("interpolation"),
             fmt::format("expected \"linear\" or \"cubic\" (got \"{}\")", mode));
  const json& frames = o.required_array("keyframes");
  if (frames.empty()) ctx.fail(o.pointer("keyframes"), "expected at least one key frame");
  std::vector<std::string> keys = {"t", "position"};
  keys.insert(keys.end(), kOrientationKeys.begin(), kOrientationKeys.end());
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const std::string fp = o.pointer("keyframes") + "/" + std::to_string(i);
    const Object f(ctx, frames[i], fp, keys);
    KeyFrame k;
    k.t = f.required_number("t", Range::any);
    k.p_WS = within(ctx, f.pointer("position"), f.required_vec3("position", Range::any),
                    kMaxLength, "m");
    k.q_WB = f.orientation();  // unit within 1e-3, normalized (json_reader.hpp)
    if (!track.keyframes.empty() && !(k.t > track.keyframes.back().t))
      ctx.fail(f.pointer("t"),
               fmt::format("key frame times must be strictly increasing (got {} after {})", k.t,
                           track.keyframes.back().t));
    track.keyframes.push_back(k);
  }
  try {
    check_track(track);
  } catch (const Error& e) {
    ctx.fail(o.pointer("keyframes"), e.what());
  }
  return track;
}

namespace {

void read_controls(const Object& o, std::optional<double>& R, std::optional<double>& t,
                   std::optional<double>& r, const Context& ctx) {
  if (o.has("rigidity")) {
    R = o.required_number("rigidity", Range::any);
    if (!(*R >= 1.0 && *R <= 100.0))
      ctx.fail(o.pointer("rigidity"), fmt::format("expected a number in [1, 100] (got {})", *R));
  }
  if (o.has("translate")) t = o.required_number("translate", Range::unit_interval);
  if (o.has("rotate")) r = o.required_number("rotate", Range::unit_interval);
}

}  // namespace

AnimatorBodySettings read_animator(const Context& ctx, const json& j, const std::string& ptr) {
  const Object o(ctx, j, ptr,
                 {"rigidity", "translate", "rotate", "persist", "relax_rate", "overrides"});
  AnimatorBodySettings s;
  std::optional<double> R, t, r;
  read_controls(o, R, t, r, ctx);
  s.rigidity = R.value_or(s.rigidity);
  s.translate = t.value_or(s.translate);
  s.rotate = r.value_or(s.rotate);
  s.persist = o.boolean("persist", false);
  s.relax_rate = o.number("relax_rate", s.relax_rate, Range::non_negative);
  if (o.has("overrides")) {
    const json& list = o.required_array("overrides");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string op = o.pointer("overrides") + "/" + std::to_string(i);
      const Object v(ctx, list[i], op, {"from", "to", "rigidity", "translate", "rotate"});
      AnimatorOverride w;
      w.from = v.required_number("from", Range::any);
      w.to = v.required_number("to", Range::any);
      if (!(w.to > w.from))
        ctx.fail(v.pointer("to"), fmt::format("expected to > from (got {} and {})", w.to, w.from));
      read_controls(v, w.rigidity, w.translate, w.rotate, ctx);
      s.overrides.push_back(w);
    }
  }
  return s;
}

}  // namespace pivot::detail
