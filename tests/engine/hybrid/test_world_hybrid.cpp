// World's hybrid switch (docs/hybrid.md "The World switch"): pairs entering reduced contact
// coordinates, advancing inside World::step, and leaving. Ground truth: conservation laws of
// frictionless contact (energy, horizontal momentum) and rolling kinematics v = ω × r.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "pivot/engine/world.hpp"
#include "support/hybrid_entry.hpp"

using namespace pivot;

namespace {

double energy(const World& w) {
  return w.kinetic_energy() + w.potential_energy();
}

// an ellipsoid tilted about x by `tilt`, its lowest point on z = 0: COM height = support
// distance sqrt(nᵀ diag(r²) n) along the body-frame direction n of world −z
Pose resting_ellipsoid(const Vec3& radii, double tilt) {
  const Quat q(Eigen::AngleAxisd(tilt, Vec3::UnitX()));
  const Vec3 n = q.conjugate() * Vec3::UnitZ();
  const double z = std::sqrt(n.dot(radii.cwiseProduct(radii).cwiseProduct(n)));
  return Pose{Vec3(0.0, 0.0, z), q};
}

struct Rocking {
  double max_dE = 0.0, max_dv = 0.0;
  int entries = 0, exits = 0;
  double t_entry = -1.0;
};

// a frictionless ellipsoid rocking on the plane for 10 s at h = 10 ms; drifts measured from
// the entry into reduced mode (hybrid) or from the same time (LCP alone)
Rocking rock(bool hybrid, double measure_from) {
  WorldSettings s{.time_step = 0.01};
  s.hybrid = hybrid;
  World w(s);
  w.add_body(
      {.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0), .friction = 0.0});
  const Vec3 r(0.3, 0.2, 0.12);
  const Pose X = resting_ellipsoid(r, 0.35);
  const int e = w.add_body({.name = "ellipsoid",
                            .mass = 2.0,
                            .shape = make_ellipsoid(r),
                            .p_WS = X.p_WB,
                            .q_WB = X.q_WB,
                            .v_WB = Vec3(0.3, -0.1, 0.0),
                            .w_WB = Vec3(0.0, 0.0, 0.8),
                            .friction = 0.0});
  Rocking out;
  double E0 = 0.0;
  Vec2 v0 = Vec2::Zero();
  bool measuring = false;
  while (w.time() < 10.0 - 1e-9) {
    const StepReport& rep = w.step();
    for (const SwitchEvent& ev : rep.switches) {
      if (ev.entered) {
        ++out.entries;
        if (out.t_entry < 0.0) out.t_entry = ev.time;
      } else {
        ++out.exits;
        UNSCOPED_INFO("exit at " << ev.time << ": " << ev.reason);
      }
    }
    const bool start = hybrid ? rep.reduced_pairs == 1 : w.time() >= measure_from - 1e-9;
    if (!measuring && start) {
      measuring = true;
      E0 = energy(w);
      v0 = w.twist(e).segment<2>(3);
    }
    if (measuring) {
      out.max_dE = std::max(out.max_dE, std::abs(energy(w) - E0) / std::abs(E0));
      out.max_dv = std::max(out.max_dv, (w.twist(e).segment<2>(3) - v0).norm());
    }
  }
  return out;
}

}  // namespace

TEST_CASE("hybrid: frictionless ellipsoid rocking on a plane conserves energy",
          "[engine][hybrid]") {
  const Rocking hy = rock(true, 0.0);
  const Rocking lcp = rock(false, hy.t_entry);
  std::printf(
      "hybrid rocking: entry at t = %.3f s, max |dE|/E = %.3g, max |dv_h| = %.3g m/s; "
      "LCP alone: max |dE|/E = %.3g, max |dv_h| = %.3g m/s\n",
      hy.t_entry, hy.max_dE, hy.max_dv, lcp.max_dE, lcp.max_dv);
  CHECK(hy.entries == 1);
  CHECK(hy.exits == 0);
  CHECK(hy.t_entry > 0.0);
  CHECK(hy.t_entry < 1.0);
  CHECK(hy.max_dE < 1e-6);
  CHECK(hy.max_dv < 1e-6);
  CHECK(lcp.max_dE > 10.0 * hy.max_dE);
}

TEST_CASE("hybrid: sphere rolling without slip keeps v = omega r", "[engine][hybrid]") {
  WorldSettings s{.time_step = 0.01};
  s.hybrid = true;
  World w(s);
  w.add_body(
      {.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0), .friction = 0.5});
  const double r = 0.1, v = 1.0;
  const int b = w.add_body({.name = "ball",
                            .mass = 1.0,
                            .shape = make_sphere(r),
                            .p_WS = Vec3(0.0, 0.0, r),
                            .v_WB = Vec3(v, 0.0, 0.0),
                            .w_WB = Vec3(0.0, v / r, 0.0),
                            .friction = 0.5});
  int entries = 0, exits = 0;
  bool in = false;
  Vec6 V0 = Vec6::Zero();
  double max_dV = 0.0, max_slip = 0.0;
  while (w.time() < 5.0 - 1e-9) {
    const StepReport& rep = w.step();
    for (const SwitchEvent& ev : rep.switches) (ev.entered ? entries : exits) += 1;
    if (!in && rep.reduced_pairs == 1) {
      in = true;
      V0 = w.twist(b);
    }
    if (in) {
      const Vec6 V = w.twist(b);
      max_dV = std::max(max_dV, (V - V0).norm());
      // the contact point's velocity v + ω × (−r z)
      max_slip = std::max(max_slip, (V.tail<3>() + V.head<3>().cross(Vec3(0, 0, -r))).norm());
    }
  }
  std::printf(
      "hybrid rolling sphere: entry speed %.9f m/s, max |dV| = %.3g, max slip = %.3g "
      "m/s, x(5 s) = %.9f m\n",
      V0(3), max_dV, max_slip, w.pose(b).p_WB.x());
  CHECK(entries == 1);
  CHECK(exits == 0);
  CHECK(in);
  CHECK(V0(3) == Approx(v).epsilon(1e-3));
  CHECK(max_dV < 1e-6);
  CHECK(max_slip < 1e-6);
  CHECK(std::abs(w.pose(b).p_WB.z() - r) < 1e-6);
}

TEST_CASE("hybrid: dropped ellipsoid bounces, enters reduced mode, leaves at a box",
          "[engine][hybrid]") {
  WorldSettings s{.time_step = 0.01};
  s.hybrid = true;
  World w(s);
  w.add_body({.name = "ground",
              .fixed = true,
              .shape = make_plane(Vec3::UnitZ(), 0.0),
              .friction = 0.0,
              .restitution = 0.5});
  const int box = w.add_body({.name = "box",
                              .fixed = true,
                              .shape = make_box(Vec3(0.1, 0.5, 0.2)),
                              .p_WS = Vec3(1.5, 0.0, 0.2),
                              .friction = 0.0,
                              .restitution = 0.5});
  const Vec3 r(0.15, 0.1, 0.08);
  const int e = w.add_body({.name = "ellipsoid",
                            .mass = 1.0,
                            .shape = make_ellipsoid(r),
                            .p_WS = Vec3(0.0, 0.0, 0.3),
                            .v_WB = Vec3(0.5, 0.0, 0.0),
                            .friction = 0.0,
                            .restitution = 0.5});
  int entries = 0, exits = 0, box_exits = 0;
  double first_entry = -1.0, first_exit = -1.0;
  double max_jump_entry = 0.0, max_dvx = 0.0;
  double E_in = 0.0;
  bool in = false;
  double max_dE_reduced = 0.0;
  while (w.time() < 4.0 - 1e-9) {
    const double E_before = energy(w);
    const Vec6 V_before = w.twist(e);
    const StepReport& rep = w.step();
    for (const SwitchEvent& ev : rep.switches) {
      if (ev.entered) {
        ++entries;
        if (first_entry < 0.0) first_entry = ev.time;
        max_jump_entry = std::max(max_jump_entry, std::abs(ev.energy_change));
        // entry: the step (LCP, then the projection) keeps the energy and the horizontal
        // momentum (frictionless)
        CHECK(std::abs(energy(w) - E_before) < 1e-3 * std::abs(E_before));
        max_dvx = std::max(max_dvx, std::abs(w.twist(e).v().x() - V_before(3)));
      } else {
        ++exits;
        if (first_exit < 0.0) first_exit = ev.time;
        if (ev.reason.find("new contact with body " + std::to_string(box)) == 0) ++box_exits;
        INFO("exit at " << ev.time << ": " << ev.reason);
      }
    }
    if (rep.reduced_pairs == 1 && !in) {
      in = true;
      E_in = energy(w);
    } else if (rep.reduced_pairs == 1) {
      max_dE_reduced = std::max(max_dE_reduced, std::abs(energy(w) - E_in));
    } else {
      in = false;
    }
  }
  std::printf(
      "hybrid drop: %d entries (first at %.2f s, max |dE| of a projection %.3g J), %d "
      "exits (first at %.2f s, %d at the box), max |dE| while reduced %.3g J, max "
      "|dvx| at entry %.3g m/s\n",
      entries, first_entry, max_jump_entry, exits, first_exit, box_exits, max_dE_reduced, max_dvx);
  CHECK(entries >= 1);
  CHECK(box_exits >= 1);
  CHECK(first_entry > 0.3);  // after the bounces
  CHECK(first_exit > first_entry);
  CHECK(max_dE_reduced < 1e-6);
  CHECK(max_dvx < 1e-6);
  // the box sent it back
  CHECK(w.twist(e).v().x() < 0.0);
}

TEST_CASE("hybrid: turning the flag off hands the pair back to the LCP", "[engine][hybrid]") {
  WorldSettings s{.time_step = 0.01};
  s.hybrid = true;
  World w(s);
  w.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
  const int b = w.add_body(
      {.name = "ball", .mass = 1.0, .shape = make_sphere(0.1), .p_WS = Vec3(0.0, 0.0, 0.1)});
  for (int k = 0; k < 20; ++k) w.step();
  REQUIRE(w.last_report().reduced_pairs == 1);
  REQUIRE(w.in_reduced_mode(b));
  CHECK(w.totals().reduced_entries == 1);
  const Pose X = w.pose(b);
  const Vec6 V = w.twist(b);
  w.set_hybrid(false);
  const StepReport& rep = w.step();
  REQUIRE(rep.switches.size() == 1);
  CHECK_FALSE(rep.switches[0].entered);
  CHECK(rep.switches[0].reason == "hybrid turned off");
  CHECK(rep.reduced_pairs == 0);
  CHECK_FALSE(w.in_reduced_mode(b));
  // the LCP took the step from the exact state: the ball keeps resting
  CHECK((w.pose(b).p_WB - X.p_WB).norm() < 1e-6);
  CHECK(V.norm() < 1e-9);
  CHECK(w.twist(b).norm() < 1e-6);
}

TEST_CASE("hybrid: a lifting force separates the pair and it flies free", "[engine][hybrid]") {
  WorldSettings s{.time_step = 0.01};
  s.hybrid = true;
  World w(s);
  w.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
  const int b = w.add_body(
      {.name = "ball", .mass = 1.0, .shape = make_sphere(0.1), .p_WS = Vec3(0.0, 0.0, 0.1)});
  for (int k = 0; k < 20; ++k) w.step();
  REQUIRE(w.in_reduced_mode(b));
  // 2 m g upwards: the normal force turns tensile at once
  w.add_force({.body = b, .force = Vec3(0.0, 0.0, 2.0 * 9.81)});
  const StepReport& rep = w.step();
  REQUIRE(rep.switches.size() == 1);
  CHECK_FALSE(rep.switches[0].entered);
  CHECK(rep.switches[0].reason.rfind("separated", 0) == 0);
  CHECK(rep.switches[0].time == Approx(0.2).epsilon(1e-12));  // tensile at the step's start
  CHECK_FALSE(w.in_reduced_mode(b));
  // free flight from rest over the whole step: v = h (2g − g), z = 0.1 + ½ g h² upwards
  CHECK(w.twist(b).v().z() == Approx(0.01 * 9.81).epsilon(1e-9));
  CHECK(w.pose(b).p_WB.z() == Approx(0.1 + 0.5 * 9.81 * 0.01 * 0.01).epsilon(1e-9));
  for (int k = 0; k < 20; ++k) w.step();
  CHECK(w.pose(b).p_WB.z() > 0.1 + 0.01);
  CHECK_FALSE(w.in_reduced_mode(b));
}

TEST_CASE("hybrid: boxes, jointed spheres and spheres on free boxes stay in the LCP",
          "[engine][hybrid]") {
  WorldSettings s{.time_step = 0.01};
  s.hybrid = true;
  World w(s);
  w.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
  // a box: no smooth surface
  w.add_body({.name = "box",
              .mass = 1.0,
              .shape = make_box(Vec3(0.1, 0.1, 0.1)),
              .p_WS = Vec3(0.0, 0.0, 0.1)});
  // a sphere hanging on a ball joint while resting on the ground
  const int j = w.add_body(
      {.name = "jointed", .mass = 1.0, .shape = make_sphere(0.1), .p_WS = Vec3(1.0, 0.0, 0.1)});
  w.add_joint(BallJointSettings{.anchor_W = Vec3(1.0, 0.0, 0.1)}, j, kWorldBody);
  // a sphere resting on a free box (no smooth surface; the box also touches the ground)
  w.add_body({.name = "base",
              .mass = 5.0,
              .shape = make_box(Vec3(0.2, 0.2, 0.1)),
              .p_WS = Vec3(-1.0, 0.0, 0.1)});
  w.add_body({.name = "top", .mass = 1.0, .shape = make_sphere(0.1), .p_WS = Vec3(-1.0, 0.0, 0.3)});
  // a capsule: no automatic smooth surface
  w.add_body({.name = "capsule",
              .mass = 1.0,
              .shape = make_capsule(0.05, 0.1),
              .p_WS = Vec3(2.0, 0.0, 0.05),
              .q_WB = Quat(Eigen::AngleAxisd(EIGEN_PI / 2, Vec3::UnitX()))});
  for (int k = 0; k < 50; ++k) {
    const StepReport& rep = w.step();
    CHECK(rep.reduced_pairs == 0);
    CHECK(rep.switches.empty());
  }
  CHECK(w.totals().reduced_entries == 0);
}

TEST_CASE("hybrid: entry_steps 0 enters at the first step from the given state",
          "[engine][hybrid]") {
  // a sphere resting on the plane, spinning about the vertical (no slip: v = 0 at rest): it
  // enters before the first LCP, and the entry changes nothing (ground truth: the state given
  // is on the manifold, so the projection is the identity up to rounding)
  WorldSettings s{.time_step = 0.01};
  s.hybrid = true;
  s.hybrid_entry_steps = 0;
  World w(s);
  w.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
  const int b = w.add_body({.name = "ball",
                            .mass = 1.0,
                            .shape = make_sphere(0.1),
                            .p_WS = Vec3(0.3, -0.2, 0.1),
                            .w_WB = Vec3(0.0, 0.0, 2.0)});
  test::check_entry_at_start(w, w.step(), 1e-15);
  for (int k = 0; k < 99; ++k) w.step();
  // a spinning sphere at rest on a plane stays where it is, spinning
  CHECK((w.pose(b).p_WB - Vec3(0.3, -0.2, 0.1)).norm() < 1e-12);
  CHECK(w.twist(b).w().z() == Approx(2.0).epsilon(1e-12));
}

TEST_CASE("hybrid: entry_steps 0 waits for a contact that carries load", "[engine][hybrid]") {
  // dropped from 5 cm: no entry in the air (no contact), none at the impact (normal speed
  // above hybrid_max_normal_speed); entry at the first step after the LCP stopped it
  WorldSettings s{.time_step = 0.001};
  s.hybrid = true;
  s.hybrid_entry_steps = 0;
  World w(s);
  w.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
  w.add_body({.name = "ball", .mass = 1.0, .shape = make_sphere(0.1), .p_WS = {0, 0, 0.15}});
  double t_entry = -1.0;
  while (w.time() < 0.3 && t_entry < 0.0)
    for (const SwitchEvent& e : w.step().switches)
      if (e.entered) t_entry = e.time;
  // free fall of 5 cm takes sqrt(2 · 0.05 / 9.81) = 0.101 s
  CHECK(t_entry > 0.1);
  CHECK(t_entry < 0.12);
  CHECK(w.totals().lcp_solves > 0);
}

TEST_CASE("hybrid: the World's friction thresholds reach the reduced pair", "[engine][hybrid]") {
  // a sphere sliding at v0 = 2 m/s with μ = 0.3: with a slip threshold above its slip it enters
  // rolling at once (the projection keeps the angular momentum about the contact: v = 5/7 v0),
  // with the default 5 mm/s it slides first (v = v0 − μ g t)
  auto run = [](double slip_threshold) {
    WorldSettings s{.time_step = 0.001};
    s.hybrid = true;
    s.hybrid_entry_steps = 0;
    s.hybrid_friction.slip_threshold = slip_threshold;
    World w(s);
    w.add_body({.name = "ground",
                .fixed = true,
                .shape = make_plane(Vec3::UnitZ(), 0.0),
                .friction = 0.3});
    const int b = w.add_body({.name = "ball",
                              .mass = 1.0,
                              .shape = make_sphere(0.1),
                              .p_WS = {0, 0, 0.1},
                              .v_WB = {2, 0, 0},
                              .friction = 0.3});
    for (int k = 0; k < 10; ++k) w.step();
    return w.twist(b).v().x();
  };
  CHECK(run(10.0) == Approx(2.0 * 5.0 / 7.0).epsilon(1e-9));
  CHECK(run(0.005) == Approx(2.0 - 0.3 * 9.81 * 0.01).epsilon(1e-9));
}

TEST_CASE("hybrid: bad hybrid settings are errors", "[engine][hybrid]") {
  auto make = [](auto edit) {
    WorldSettings s;
    edit(s);
    return World(s);
  };
  CHECK_THROWS_AS(make([](WorldSettings& s) { s.hybrid_entry_steps = -1; }), Error);
  CHECK_THROWS_AS(make([](WorldSettings& s) { s.hybrid_point_tolerance = 0.0; }), Error);
  CHECK_THROWS_AS(make([](WorldSettings& s) { s.hybrid_integrator.dt_max = 0.0; }), Error);
  CHECK_THROWS_AS(make([](WorldSettings& s) { s.hybrid_friction.slip_threshold = -1.0; }), Error);
  CHECK_THROWS_AS(make([](WorldSettings& s) { s.hybrid_friction.mu_static = std::nan(""); }),
                  Error);
  CHECK_NOTHROW(make([](WorldSettings& s) { s.hybrid_entry_steps = 0; }));
}

namespace {

// zero gravity: a sphere (r = 0.1 m, 1 kg) rolling on top of a free flat ellipsoid, a raft of
// semi-axes (1, 1, 0.05) m and 3 kg, the two pressed together by F = ∓2 N along z at their
// centres (equal and opposite, constant; the raft's top is curved with radius 20 m, so the sphere
// rolls on for the whole run instead of running down its side). The forces sum to zero, so the
// total momentum P = Σ m v is constant; they are constant fields, so E = T − Σ F·x is constant
// while the contact does no work (rolling without slip, μ = 0.8 never reached). Both bodies start
// at rest relative to each other at the contact.
struct FreePair {
  std::vector<Vec3> x_sphere, x_slab;  // every 10 ms
  Vec3 P0 = Vec3::Zero();
  double max_dP = 0.0, max_dE = 0.0;  // from the first entry (hybrid) or from t = 0 (LCP)
  int entries = 0, exits = 0, reduced_steps = 0;
};

FreePair press(bool hybrid, double h, double duration) {
  WorldSettings s{.time_step = h, .gravity = Vec3::Zero()};
  s.hybrid = hybrid;
  World w(s);
  const Vec3 v(0.3, 0.1, 0.0), w_sphere(-1.0, 3.0, 0.0);  // ω × (0, 0, −r) = −v: no slip
  const int a = w.add_body({.name = "sphere",
                            .mass = 1.0,
                            .shape = make_sphere(0.1),
                            .p_WS = Vec3(0.0, 0.0, 0.15),
                            .v_WB = v,
                            .w_WB = w_sphere,
                            .friction = 0.8});
  const int b = w.add_body({.name = "slab",
                            .mass = 3.0,
                            .shape = make_ellipsoid(Vec3(1.0, 1.0, 0.05)),
                            .friction = 0.8});
  const double F = 2.0;
  w.add_force({.body = a, .force = Vec3(0.0, 0.0, -F)});
  w.add_force({.body = b, .force = Vec3(0.0, 0.0, F)});
  auto momentum = [&]() -> Vec3 { return 1.0 * w.twist(a).v() + 3.0 * w.twist(b).v(); };
  auto energy = [&] {
    return w.kinetic_energy() + F * w.pose(a).p_WB.z() - F * w.pose(b).p_WB.z();
  };
  FreePair out;
  bool measuring = !hybrid;
  Vec3 P0 = momentum();
  double E0 = energy();
  const int per_frame = static_cast<int>(std::lround(0.01 / h));
  for (int k = 1; w.time() < duration - 1e-9; ++k) {
    const StepReport& rep = w.step();
    for (const SwitchEvent& ev : rep.switches) {
      (ev.entered ? out.entries : out.exits) += 1;
      INFO("switch at " << ev.time << ": " << ev.reason);
      CHECK(ev.entered);
      if (ev.entered && !measuring) {
        measuring = true;
        P0 = momentum();
        E0 = energy();
      }
    }
    if (rep.reduced_pairs == 1) {
      ++out.reduced_steps;
      CHECK(w.in_reduced_mode(a));
      CHECK(w.in_reduced_mode(b));
    }
    if (measuring) {
      out.max_dP = std::max(out.max_dP, (momentum() - P0).norm());
      out.max_dE = std::max(out.max_dE, std::abs(energy() - E0));
    }
    if (k % per_frame == 0) {
      out.x_sphere.push_back(w.pose(a).p_WB);
      out.x_slab.push_back(w.pose(b).p_WB);
    }
  }
  out.P0 = P0;
  return out;
}

double max_gap(const std::vector<Vec3>& p, const std::vector<Vec3>& q) {
  double d = 0.0;
  for (std::size_t k = 0; k < std::min(p.size(), q.size()); ++k)
    d = std::max(d, (p[k] - q[k]).norm());
  return d;
}

}  // namespace

TEST_CASE("hybrid: two free bodies pressed together roll in reduced mode and conserve P and E",
          "[engine][hybrid]") {
  const double T = 1.0;
  const FreePair hy = press(true, 0.01, T);
  const FreePair lcp = press(false, 0.01, T);
  const FreePair fine = press(false, 0.001, T);
  const double d_hy =
      std::max(max_gap(hy.x_sphere, fine.x_sphere), max_gap(hy.x_slab, fine.x_slab));
  const double d_lcp =
      std::max(max_gap(lcp.x_sphere, fine.x_sphere), max_gap(lcp.x_slab, fine.x_slab));
  std::printf(
      "hybrid free pair: %d entries, %d exits, %d reduced steps; max |dP| = %.3g, max |dE| "
      "= %.3g J; LCP alone (10 ms): max |dP| = %.3g, max |dE| = %.3g J; max distance to the "
      "LCP at 1 ms: hybrid %.3g m, LCP at 10 ms %.3g m\n",
      hy.entries, hy.exits, hy.reduced_steps, hy.max_dP, hy.max_dE, lcp.max_dP, lcp.max_dE, d_hy,
      d_lcp);
  CHECK(hy.entries == 1);
  CHECK(hy.exits == 0);
  CHECK(hy.reduced_steps >= 85);  // entered after the 10 LCP steps of the entry rule
  // conserved quantities (their exact values: P constant, E constant)
  CHECK(hy.max_dP < 1e-8);
  CHECK(hy.max_dE < 1e-7);
  CHECK(lcp.max_dP < 1e-8);  // the LCP's impulses are equal and opposite too
  CHECK(lcp.max_dE > 100.0 * hy.max_dE);
  // the same motion as the LCP's (the sphere rolls 0.32 m): the hybrid run stays within 0.5 mm
  // of the LCP at 1 ms (measured 0.18 mm; the LCP at 10 ms is 0.03 mm from it)
  CHECK(d_hy < 5e-4);
  CHECK(d_lcp < 5e-4);
}

TEST_CASE("hybrid: a start-of-step entry counts the external forces that close the contact",
          "[engine][hybrid]") {
  // zero gravity, two free bodies touching at rest: only the applied ∓2 N press them together,
  // so the compressive-normal-force check of hybrid_entry_steps = 0 must see those forces (with
  // gravity alone it would see f_n = 0 and never enter); and with the forces pulling them apart
  // the contact carries no load and must not enter
  for (const double F : {2.0, -2.0}) {
    WorldSettings s{.time_step = 0.01, .gravity = Vec3::Zero()};
    s.hybrid = true;
    s.hybrid_entry_steps = 0;
    World w(s);
    const int a = w.add_body(
        {.name = "sphere", .mass = 1.0, .shape = make_sphere(0.1), .p_WS = Vec3(0.0, 0.0, 0.15)});
    const int b =
        w.add_body({.name = "slab", .mass = 3.0, .shape = make_ellipsoid(Vec3(1.0, 1.0, 0.05))});
    w.add_force({.body = a, .force = Vec3(0.0, 0.0, -F)});
    w.add_force({.body = b, .force = Vec3(0.0, 0.0, F)});
    const StepReport& rep = w.step();
    INFO("F = " << F);
    if (F > 0.0) {
      REQUIRE(rep.switches.size() == 1);
      CHECK(rep.switches.front().entered);
      CHECK(rep.switches.front().time == 0.0);
      CHECK(w.in_reduced_mode(a));
      CHECK(w.in_reduced_mode(b));
    } else {
      CHECK(rep.switches.empty());
      CHECK_FALSE(w.in_reduced_mode(a));
    }
  }
}
