// Contacts with friction and restitution against closed forms (collision issue).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "pivot/engine/world.hpp"
#include "pivot/lcp/mixed_lcp.hpp"

using namespace pivot;

namespace {
constexpr double kG = 9.81;

int add_ground(World& world, double friction, double restitution = 0.0) {
  return world.add_body({.name = "ground",
                         .fixed = true,
                         .shape = make_plane(Vec3::UnitZ(), 0.0),
                         .friction = friction,
                         .restitution = restitution});
}

// an incline of angle θ as a level plane under gravity turned by θ about y: the slope runs
// downhill along +x, aligned with the first friction direction
World incline_world(double theta, double friction_offset = 0.0, double h = 1e-3) {
  WorldSettings s{.time_step = h, .gravity = kG * Vec3(std::sin(theta), 0.0, -std::cos(theta))};
  s.friction_direction_offset = friction_offset;
  return World(s);
}
}  // namespace

TEST_CASE("a box resting on a plane settles and does not drift", "[contact]") {
  World world({.time_step = 1e-3});
  add_ground(world, 0.5);
  const int box = world.add_body({.name = "box",
                                  .mass = 1.0,
                                  .shape = make_box(Vec3(0.1, 0.1, 0.05)),
                                  .p_WS = Vec3(0.0, 0.0, 0.05)});
  for (int k = 0; k < 500; ++k) world.step();  // settle
  const Vec3 x_settled = world.pose(box).p_WB;
  double max_vz = 0.0;
  while (world.time() < 10.0) {
    world.step();
    max_vz = std::max(max_vz, std::abs(world.twist(box).v().z()));
  }
  INFO("max |v_z| " << max_vz << ", drift " << (world.pose(box).p_WB - x_settled).norm());
  CHECK(max_vz < 1e-9);
  CHECK((world.pose(box).p_WB - x_settled).norm() < 1e-9);
  CHECK(world.pose(box).p_WB.z() == Approx(0.05).margin(1e-6));
  CHECK(world.last_report().contacts == 4);
}

TEST_CASE("a box of any mass from 1 g to 1e20 kg rests without a fallback", "[contact][scale]") {
  // the contact LCP of a box of mass m has M = J M⁻¹ Jᵀ entries ~ 1/m beside the friction
  // cone's unit entries: equilibration (docs/lcp.md "Scaling") makes its answer independent
  // of m, so every mass rests at z = 0.05 m as the 1 kg box does, with no step failed or
  // answered by the compliant fallback
  for (double mass : {1e-3, 1.0, 1e3, 1e6, 1e8, 1e10, 1e12, 1e14, 1e16, 1e18, 1e20}) {
    World world({.time_step = 1e-3});
    add_ground(world, 0.5);
    const int box = world.add_body({.name = "box",
                                    .mass = mass,
                                    .shape = make_box(Vec3(0.1, 0.1, 0.05)),
                                    .p_WS = Vec3(0.0, 0.0, 0.05)});
    int fallbacks = 0, failures = 0, rays = 0;
    double deepest = 0.0;
    for (int k = 0; k < 200; ++k) {
      world.step();
      fallbacks += world.last_report().fallbacks;
      failures += world.last_report().failures;
      rays += world.last_report().rays;
      deepest = std::max(deepest, std::abs(world.pose(box).p_WB.z() - 0.05));
    }
    INFO("mass " << mass << " kg: fallbacks " << fallbacks << ", failures " << failures << ", rays "
                 << rays << ", deepest " << deepest << " m");
    CHECK(fallbacks == 0);
    CHECK(failures == 0);
    CHECK(rays == 0);
    CHECK(deepest <= 1e-6);
    CHECK(std::abs(world.twist(box).v().z()) <= 1e-9);
  }
}

TEST_CASE("a block on an incline sticks below atan(mu) and slides above it", "[contact]") {
  const double mu = 0.5, deg = EIGEN_PI / 180.0;
  const double threshold = std::atan(mu);
  auto slide = [&](double theta, double offset, double* accel) {
    World world = incline_world(theta, offset);
    add_ground(world, mu);
    const int box = world.add_body({.name = "block",
                                    .mass = 1.0,
                                    .shape = make_box(Vec3(0.1, 0.1, 0.05)),
                                    .p_WS = Vec3(0.0, 0.0, 0.05)});
    for (int k = 0; k < 100; ++k) world.step();
    const double x1 = world.pose(box).p_WB.x(), v1 = world.twist(box).v().x(), t1 = world.time();
    for (int k = 0; k < 400; ++k) world.step();
    const double v2 = world.twist(box).v().x(), t2 = world.time();
    if (accel) *accel = (v2 - v1) / (t2 - t1);
    return world.pose(box).p_WB.x() - x1;
  };
  SECTION("sticks at atan(mu) - 2 deg") {
    const double d = slide(threshold - 2 * deg, 0.0, nullptr);
    INFO("slid " << d << " m");
    CHECK(std::abs(d) < 1e-9);
  }
  SECTION("slides at atan(mu) + 2 deg with a = g (sin - mu cos)") {
    const double theta = threshold + 2 * deg;
    const double expected = kG * (std::sin(theta) - mu * std::cos(theta));
    double a = 0.0;
    const double d = slide(theta, 0.0, &a);
    INFO("slid " << d << " m, a = " << a << ", expected " << expected);
    CHECK(d > 0.0);
    CHECK(std::abs(a - expected) / expected < 0.01);
    // the pyramid error: with the 4 directions turned 22.5° from the slope (at 22.5°, 112.5°,
    // 202.5°, 292.5°) the sliding velocity locks onto the pyramid's edge between d₂ = 202.5° and
    // d₁ = 112.5°, i.e. moves at −22.5° from the slope, where σ₁ = σ₂ = 0. The friction impulse
    // is μN(α d₂ + (1 − α) d₁); α follows from a_y = −tan(22.5°) a_x (the direction is kept):
    const double c = std::cos(22.5 * deg), s = std::sin(22.5 * deg), t = s / c;
    const double gs = kG * std::sin(theta), fn = mu * kG * std::cos(theta);
    // a_x = gs + fn(−c α − s (1 − α)),  a_y = fn(−s α + c (1 − α))
    const double alpha = (fn * c + t * (gs - fn * s)) / (fn * (c + s) + t * fn * (c - s));
    const double pyramid = gs + fn * (-c * alpha - s * (1.0 - alpha));
    double a_turned = 0.0;
    slide(theta, 22.5 * deg, &a_turned);
    INFO("pyramid: directions turned 22.5 deg give a = " << a_turned << ", closed form " << pyramid
                                                         << " (circular cone " << expected << ")");
    CHECK(std::abs(a_turned - pyramid) / pyramid < 0.01);
  }
}

TEST_CASE("a sphere launched sliding reaches 5/7 v0 and then rolls", "[contact]") {
  // sliding friction decelerates v and spins up ω until v = ω r: v = 5/7 v0 for a solid sphere
  World world({.time_step = 1e-3});
  add_ground(world, 0.3);
  const double r = 0.1, v0 = 2.0;
  const int ball = world.add_body({.name = "ball",
                                   .density = 1000.0,
                                   .shape = make_sphere(r),
                                   .p_WS = Vec3(0, 0, r),
                                   .v_WB = Vec3(v0, 0, 0)});
  for (int k = 0; k < 2000; ++k) world.step();
  const Vec6 t = world.twist(ball);
  INFO("v = " << t(3) << ", ω_y r = " << t(1) * r);
  CHECK(t(3) == Approx(5.0 / 7.0 * v0).epsilon(2e-3));
  CHECK(std::abs(t(3) - t(1) * r) < 1e-6);  // rolling without slipping: v = ω_y r
}

TEST_CASE("a ball dropped with restitution e rebounds to e^2 h", "[contact]") {
  for (double e : {0.5, 0.8}) {
    World world({.time_step = 1e-4});
    add_ground(world, 0.0, e);
    const double r = 0.05, h0 = 1.0;
    const int ball = world.add_body({.name = "ball",
                                     .mass = 1.0,
                                     .shape = make_sphere(r),
                                     .p_WS = Vec3(0, 0, r + h0),
                                     .restitution = e});
    bool bounced = false;
    double apex = 0.0;
    while (world.time() < 2.0) {
      world.step();
      const double vz = world.twist(ball).v().z();
      if (vz > 0.0) bounced = true;
      if (bounced) apex = std::max(apex, world.pose(ball).p_WB.z() - r);
      if (bounced && vz < 0.0) break;
    }
    INFO("e = " << e << ": apex " << apex << ", expected " << e * e * h0);
    CHECK(apex == Approx(e * e * h0).epsilon(0.02));
  }
}

// slow: excluded from the sanitizer run (the release run has it)
TEST_CASE("slow: stacks stand: 10 boxes, and 2 boxes with a 1:100 mass ratio", "[contact]") {
  auto stack = [](std::vector<double> masses, double seconds) {
    World world({.time_step = 5e-3});
    add_ground(world, 0.6);
    const double hz = 0.05;
    for (std::size_t i = 0; i < masses.size(); ++i)
      world.add_body({.name = "box" + std::to_string(i),
                      .mass = masses[i],
                      .shape = make_box(Vec3(0.1, 0.1, hz)),
                      .p_WS = Vec3(0, 0, hz + 2 * hz * static_cast<double>(i))});
    while (world.time() < seconds) world.step();
    double drift = 0.0;
    for (std::size_t i = 0; i < masses.size(); ++i) {
      const Vec3 expected(0, 0, hz + 2 * hz * static_cast<double>(i));
      drift = std::max(drift, (world.pose(static_cast<int>(i) + 1).p_WB - expected).norm());
    }
    return drift;
  };
  const double drift10 = stack(std::vector<double>(10, 1.0), 10.0);
  INFO("10-box stack drift after 10 s: " << drift10 << " m");
  CHECK(drift10 < 1e-4);
  const double drift2 = stack({1.0, 100.0}, 5.0);
  INFO("1:100 stack drift after 5 s: " << drift2 << " m");
  CHECK(drift2 < 1e-4);
}

TEST_CASE("record_lcps keeps the step's island LCP, which reduces to the LCP Lemke solved",
          "[contact]") {
  // a box resting on a plane: 4 contacts, each with 1 normal, 4 friction directions and 1 γ
  for (bool record : {false, true}) {
    WorldSettings s{.time_step = 1e-3};
    s.record_lcps = record;
    World world(s);
    add_ground(world, 0.5);
    world.add_body({.name = "box",
                    .mass = 1.0,
                    .shape = make_box(Vec3(0.1, 0.1, 0.05)),
                    .p_WS = Vec3(0.0, 0.0, 0.05)});
    world.step();
    world.step();
    if (!record) {
      CHECK(world.recorded_lcps().empty());
      continue;
    }
    REQUIRE(world.recorded_lcps().size() == 1);
    const lcp::SparseMixedLcpProblem& p = world.recorded_lcps().front();
    const lcp::LcpProblem reduced = lcp::reduce_mixed_lcp(
        {p.P.toDense(), p.Q.toDense(), p.K.toDense(), p.S.toDense(), p.u, p.v, p.name});
    CHECK(reduced.q.size() == 4 * 6);
    // the normal impulses of the recorded problem's solution are the step's: ≈ m g h in total
    const lcp::LcpResult r = lcp::solve_lemke(reduced);
    REQUIRE(r.ok());
    double total = 0.0;
    for (const ContactInfo& c : world.contacts()) total += c.normal_impulse;
    CHECK(r.z.head(4).sum() == Approx(total).epsilon(1e-9));
    CHECK(total == Approx(kG * 1e-3).epsilon(1e-6));
  }
}
