// Pivot's World built from a SceneSpec: default WorldSettings (post-stabilization, 4 friction
// directions, Lemke with warm start) except the time step and gravity.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>

#include "sim_pivot.hpp"

namespace pivot::bench {

World build_pivot_world(const SceneSpec& spec, bool record_lcps, int threads) {
  WorldSettings settings{.time_step = spec.time_step, .gravity = spec.gravity};
  settings.record_lcps = record_lcps;
  settings.threads = threads;
  World world(settings);
  // the pair coefficient is √(μ_A μ_B): μ on every body gives μ
  if (spec.ground)
    world.add_body({.name = "ground",
                    .fixed = true,
                    .shape = make_plane(Vec3::UnitZ(), 0.0),
                    .friction = spec.friction});
  std::vector<int> ids;
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const BodySpec& b = spec.bodies[i];
    ShapePtr shape;
    if (b.shape == ShapeKind::box) shape = make_box(b.half_extents);
    if (b.shape == ShapeKind::sphere) shape = make_sphere(b.radius);
    ids.push_back(world.add_body({.name = fmt::format("body{}", i),
                                  .mass = b.mass,
                                  .inertia_diag = b.inertia_diag,
                                  .shape = shape,
                                  .p_WS = b.position,
                                  .v_WB = b.velocity,
                                  .friction = spec.friction}));
  }
  for (const BallJointSpec& j : spec.joints)
    world.add_joint(BallJointSettings{.anchor_W = j.anchor_W}, ids[j.body_a],
                    j.body_b < 0 ? kWorldBody : ids[j.body_b]);
  return world;
}

namespace {

class PivotSimulation final : public Simulation {
 public:
  PivotSimulation(const SceneSpec& spec, int threads)
      : world_(build_pivot_world(spec, false, threads)) {
    for (std::size_t i = 0; i < spec.bodies.size(); ++i)
      ids_.push_back(static_cast<int>(i) + (spec.ground ? 1 : 0));
  }

  void step() override {
    const auto t0 = Clock::now();
    const StepReport& r = world_.step();
    step_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
    solve_seconds_ += r.solve_seconds;
    pivots_ += r.pivots;
    ++steps_;
    failures_ += r.failures;
    fallbacks_ += r.fallbacks;
  }
  Vec3 position(int body) const override { return world_.pose(ids_[body]).p_WB; }
  Quat orientation(int body) const override { return world_.pose(ids_[body]).q_WB; }
  Vec3 velocity(int body) const override { return world_.twist(ids_[body]).v(); }
  int contacts() const override { return world_.last_report().contacts; }
  std::string note() const override {
    if (steps_ == 0) return {};
    std::string note = fmt::format("LCP solves {:.0f}% of the time, {:.1f} pivots/step",
                                   100.0 * solve_seconds_ / std::max(step_seconds_, 1e-300),
                                   static_cast<double>(pivots_) / steps_);
    if (failures_ > 0 || fallbacks_ > 0)
      note += fmt::format("; {} LCP failures, {} fallbacks", failures_, fallbacks_);
    return note;
  }

 private:
  using Clock = std::chrono::steady_clock;
  World world_;
  std::vector<int> ids_;
  double step_seconds_ = 0.0, solve_seconds_ = 0.0;
  long steps_ = 0, pivots_ = 0, failures_ = 0, fallbacks_ = 0;
};

}  // namespace

Engine pivot_engine(int threads) {
  return {threads == 1 ? "pivot" : fmt::format("pivot, {} threads", threads),
          "Pivot World::step (Lemke, post-stabilization, 4 friction directions)",
          [threads](const SceneSpec& spec) -> std::unique_ptr<Simulation> {
            return std::make_unique<PivotSimulation>(spec, threads);
          }};
}

}  // namespace pivot::bench
