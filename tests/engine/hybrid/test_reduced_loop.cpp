// The reduced contact mode on Loop subdivision surfaces (collision/loop_surface.hpp): the
// bowl of scenes/bowl_on_table.json rocking and spinning on a frictionless plane (Kry 2000
// §6.2's test: the centre of mass may only move vertically, energy is constant), with its
// contact crossing the triangle patches of the bowl, regular ones and those with an
// extraordinary vertex (Kry & Pai 2002 §3.5); and a sphere rolling over the Loop table.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "pivot/collision/loop_surface.hpp"
#include "reduced_test_support.hpp"
#include "support/test_data.hpp"

using namespace pivot;
using namespace pivot::test;

namespace {

// the bowl of tools/scenes/loop_bowl_table.py: control mesh centred on the COM, 0.95 kg
ReducedBody loop_bowl() {
  ReducedBody b;
  b.surface.surface = load_loop_surface((source_scenes_dir() / "meshes/loop_bowl.obj").string());
  b.mass = 0.95;
  b.inertia_B = Vec3(1.514353e-03, 1.514407e-03, 1.827418e-03).asDiagonal();
  return b;
}

}  // namespace

TEST_CASE(
    "a Loop bowl rocks and spins on a frictionless plane: energy and horizontal "
    "momentum kept across patch changes",
    "[reduced][loop]") {
  ReducedContactModel m;
  m.body1 = loop_bowl();
  m.body2 = ground_plane();
  m.friction.mu = 0.0;
  // tilted 0.35 rad, spinning, moving sideways; resting on its lowest point
  Pose X;
  X.q_WB = Quat(Eigen::AngleAxisd(0.35, Vec3(1, 0.3, 0).normalized()));
  double lowest = 0.0;
  for (const Vec3& p : surface_grid_points(*m.body1.surface.surface, 6))
    lowest = std::min(lowest, (X.q_WB * p).z());
  X.p_WB = Vec3(0, 0, -lowest);
  Vec6 V;
  V << 0.4, -0.2, 5.0, 0.05, 0.02, 0.0;  // (ω; v), world
  ReducedEntry e =
      enter_reduced_mode(m, X, V, Pose{}, Vec6::Zero(), 0.0, X.p_WB + Vec3(0, 0, lowest));
  REQUIRE(e.search.converged);
  ReducedContactState s = e.state;
  ReducedAdvanceResult last;
  std::vector<ReducedEvent> events;
  const std::vector<Sample> samples = run(m, s, 2.0, 0.05, {}, &last, &events);
  REQUIRE(last.status == ReducedStatus::ok);
  int changes = 0;
  std::set<int> patches;
  for (const ReducedEvent& ev : events)
    if (ev.kind == ReducedEvent::Kind::patch_change_1) {
      ++changes;
      patches.insert(ev.to);
    }
  const auto& bowl = dynamic_cast<const LoopSurface&>(*m.body1.surface.surface);
  int ev_patches = 0;
  for (const int p : patches) ev_patches += bowl.patch_valence(p) != 6;
  CHECK(changes >= 5);
  CHECK(ev_patches >= 1);
  const double E0 = samples.front().energy;
  const Vec2 v0 = samples.front().V1_W.segment<2>(3);  // horizontal COM velocity
  double dE = 0.0, dv = 0.0;
  for (const Sample& x : samples) {
    dE = std::max(dE, std::abs(x.energy - E0));
    dv = std::max(dv, (x.V1_W.segment<2>(3) - v0).norm());
  }
  INFO("patch changes " << changes << " over " << patches.size() << " patches (" << ev_patches
                        << " with an EV); |dE|/E " << dE / E0 << "; |dv_xy| " << dv);
  CHECK(dE / E0 < 1e-8);
  CHECK(dv < 1e-7);
}

TEST_CASE("a sphere rolls without slip across the Loop table's patches", "[reduced][loop]") {
  ReducedContactModel m;
  m.body1 = sphere_body(0.05, 1.0);
  m.body2.surface.surface =
      load_loop_surface((source_scenes_dir() / "meshes/loop_table.obj").string());
  m.body2.fixed = true;
  m.friction.mu = 0.5;
  // on the flat top (z = 0), rolling along a diagonal at 0.3 m/s: 5 patch edges or more
  Pose X;
  X.p_WB = Vec3(-0.1, -0.05, 0.05);
  Vec6 V;  // rolling: ω = (−v_y, v_x, 0)/r for v = (0.25, 0.1, 0)
  V << -0.1 / 0.05, 0.25 / 0.05, 0.0, 0.25, 0.1, 0.0;
  ReducedEntry e = enter_reduced_mode(m, X, V, Pose{}, Vec6::Zero(), 0.0, Vec3(-0.1, -0.05, 0));
  REQUIRE(e.search.converged);
  ReducedContactState s = e.state;
  ReducedAdvanceResult last;
  std::vector<ReducedEvent> events;
  const std::vector<Sample> samples = run(m, s, 1.0, 0.05, {}, &last, &events);
  REQUIRE(last.status == ReducedStatus::ok);
  int changes = 0;
  for (const ReducedEvent& ev : events) changes += ev.kind == ReducedEvent::Kind::patch_change_2;
  CHECK(changes >= 5);
  // on a plane, rolling without slip is uniform motion: x(t) = x0 + v t, at the height r
  for (const Sample& x : samples) {
    const Vec3 expected = Vec3(-0.1, -0.05, 0.05) + x.t * Vec3(0.25, 0.1, 0.0);
    CHECK((x.X_W1.p_WB - expected).norm() < 1e-9);
  }
}
