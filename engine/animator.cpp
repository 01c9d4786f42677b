// Struben's animator mode: see animator.hpp and docs/animator.md.
#include "pivot/engine/animator.hpp"

#include <fmt/core.h>

#include <chrono>
#include <cmath>

#include "pivot/constraints/contact_rows.hpp"
#include "pivot/core/error.hpp"

namespace pivot {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double deepest(const std::vector<Contact>& contacts, int* count) {
  double depth = 0.0;
  int n = 0;
  for (const Contact& c : contacts)
    if (c.gap < 0.0) {
      ++n;
      depth = std::max(depth, -c.gap);
    }
  if (count) *count = n;
  return depth;
}

}  // namespace

AnimatorBodySettings controls_at(const AnimatorBodySettings& s, double t) {
  AnimatorBodySettings out = s;
  for (const AnimatorOverride& o : s.overrides) {
    if (!(t >= o.from && t < o.to)) continue;
    if (o.rigidity) out.rigidity = *o.rigidity;
    if (o.translate) out.translate = *o.translate;
    if (o.rotate) out.rotate = *o.rotate;
  }
  return out;
}

void check_animator_settings(const AnimatorBodySettings& s) {
  auto range = [](const char* what, double v, double lo, double hi) {
    if (!(v >= lo && v <= hi))
      throw Error(fmt::format("animator: {} must be in [{}, {}] (got {})", what, lo, hi, v));
  };
  auto all = [&](const std::string& where, std::optional<double> R, std::optional<double> t,
                 std::optional<double> r) {
    if (R) range((where + "rigidity").c_str(), *R, 1.0, 100.0);
    if (t) range((where + "translate").c_str(), *t, 0.0, 1.0);
    if (r) range((where + "rotate").c_str(), *r, 0.0, 1.0);
  };
  all("", s.rigidity, s.translate, s.rotate);
  if (!(s.relax_rate >= 0.0) || !std::isfinite(s.relax_rate))
    throw Error(fmt::format("animator: relax_rate must be finite and >= 0 (got {})", s.relax_rate));
  for (std::size_t k = 0; k < s.overrides.size(); ++k) {
    const AnimatorOverride& o = s.overrides[k];
    const std::string where = fmt::format("override {}: ", k);
    if (!std::isfinite(o.from) || !std::isfinite(o.to) || !(o.from < o.to))
      throw Error(fmt::format("animator: {}expected finite from < to (got {}, {})", where, o.from,
                              o.to));
    all(where, o.rigidity, o.translate, o.rotate);
  }
}

Animator::Animator(World& world, std::vector<std::optional<KinematicTrack>> tracks,
                   std::vector<AnimatorBodySettings> controls, AnimatorSettings settings)
    : world_(world),
      tracks_(std::move(tracks)),
      controls_(std::move(controls)),
      settings_(settings) {
  const auto n = static_cast<std::size_t>(world_.body_count());
  if (tracks_.size() != n || controls_.size() != n)
    throw Error(fmt::format("animator: expected {} tracks and controls (got {} and {})", n,
                            tracks_.size(), controls_.size()));
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& name = world_.bodies().body(static_cast<int>(i)).name;
    try {
      check_animator_settings(controls_[i]);
      if (tracks_[i]) check_track(*tracks_[i]);
    } catch (const Error& e) {
      throw Error(fmt::format("body \"{}\": {}", name, e.what()));
    }
    if (tracks_[i] && world_.bodies().body(static_cast<int>(i)).fixed)
      throw Error(fmt::format("body \"{}\": a fixed body has no key frames", name));
    rest_.push_back(world_.pose(static_cast<int>(i)));
  }
  corrections_.assign(n, Vec6::Zero());
}

Pose Animator::key_pose(int i, double t) const {
  const auto& track = tracks_[static_cast<std::size_t>(i)];
  if (!track) return rest_[static_cast<std::size_t>(i)];
  const TrackPose s = sample_track(*track, t);
  return Pose{s.p_WS - s.q_WB * world_.bodies().body(i).shape_offset, s.q_WB};
}

Mat6 Animator::metric(int i, const Quat& q_WB, double t) const {
  const RigidBody& b = world_.bodies().body(i);
  Mat6 W = Mat6::Zero();
  if (b.fixed) return W;
  const AnimatorBodySettings c = controls_at(controls_[static_cast<std::size_t>(i)], t);
  // W = (1/R) diag(r m I_W⁻¹, t I₃): zero blocks stay exactly zero
  if (c.rotate > 0.0)
    W.topLeftCorner<3, 3>() = (c.rotate / c.rigidity) * b.mass * b.inverse_inertia_W(q_WB);
  if (c.translate > 0.0)
    W.bottomRightCorner<3, 3>() = (c.translate / c.rigidity) * Mat3::Identity();
  return W;
}

const AnimatorFrame& Animator::frame(long k) {
  const double dt = world_.settings().time_step;
  const double t = static_cast<double>(k) * dt;
  const int n = world_.body_count();
  report_ = AnimatorFrame{};
  report_.frame = k;
  report_.time = t;
  // conversion (part 1): the key-framed poses plus the relaxed corrections
  auto start = Clock::now();
  const double elapsed = k == 0 ? 0.0 : std::max(0.0, t - last_time_);
  last_time_ = t;
  std::vector<Pose> key(static_cast<std::size_t>(n)), poses(static_cast<std::size_t>(n));
  std::vector<Mat6> W(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    key[u] = key_pose(i, t);
    const AnimatorBodySettings& c = controls_[u];
    if (!c.persist && c.relax_rate > 0.0) {
      const double decay = std::exp(-c.relax_rate * elapsed);
      // an exactly zero part stays exactly zero (t = 0 or r = 0 honoured bit for bit)
      for (int d = 0; d < 6; ++d)
        if (corrections_[u](d) != 0.0) corrections_[u](d) *= decay;
    }
    poses[u] = displace(key[u], corrections_[u]);
    if (!world_.bodies().body(i).fixed) world_.set_state(i, poses[u], Vec6::Zero());
  }
  report_.convert_seconds += seconds_since(start);
  std::vector<bool> rotated(static_cast<std::size_t>(n)), translated(static_cast<std::size_t>(n));
  for (int pass = 0;; ++pass) {
    start = Clock::now();
    const std::vector<Contact> contacts = world_.current_contacts();
    report_.detect_seconds += seconds_since(start);
    int overlaps = 0;
    const double depth = deepest(contacts, &overlaps);
    if (pass == 0) {
      report_.overlaps = overlaps;
      report_.overlap_before = depth;
    }
    report_.overlap_after = depth;
    if (depth <= settings_.overlap_tolerance || pass == settings_.max_passes) break;
    start = Clock::now();
    for (int i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      poses[u] = world_.pose(i);
      W[u] = metric(i, poses[u].q_WB, t);
    }
    report_.convert_seconds += seconds_since(start);
    start = Clock::now();
    const ProjectionResult r = solve_projection(contacts, poses, W, settings_.lemke);
    ++report_.passes;
    report_.pivots += r.pivots;
    report_.immovable = r.immovable;
    if (r.fallback) {
      ++report_.rays;
      if (report_.status == lcp::LcpStatus::solved) report_.status = r.status;
    }
    bool moved = false;
    for (int i = 0; i < n; ++i) {
      const Vec6 d = r.dp.segment<6>(6 * i);
      if (d.isZero(0.0)) continue;
      moved = true;
      if (!d.head<3>().isZero(0.0)) rotated[static_cast<std::size_t>(i)] = true;
      if (!d.tail<3>().isZero(0.0)) translated[static_cast<std::size_t>(i)] = true;
      world_.set_state(i, displace(poses[static_cast<std::size_t>(i)], d), Vec6::Zero());
    }
    report_.response_seconds += seconds_since(start);
    if (!moved) {
      // nothing can move (a ray, or only immovable overlaps): detecting again changes nothing
      break;
    }
  }
  // the corrections: corrected pose ⊖ key-framed pose, for the parts the passes moved (a part
  // no pass moved keeps its correction, so zero parts stay exactly zero)
  for (int i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const Pose p = world_.pose(i);
    if (translated[u]) corrections_[u].tail<3>() = p.p_WB - key[u].p_WB;
    if (rotated[u]) corrections_[u].head<3>() = quat_log(p.q_WB * key[u].q_WB.conjugate());
  }
  return report_;
}

}  // namespace pivot
