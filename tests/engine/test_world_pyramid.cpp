// Box pyramids: the degenerate resting-contact friction LCPs on which Lemke used to fail
// (docs/lcp.md "Hard cases"). Each upper box rests on the edges of two below it, so every face
// contact has 4 corner points (statically indeterminate normal forces) and every friction row
// starts degenerate (q = 0).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "pivot/engine/world.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/mixed_lcp.hpp"

using namespace pivot;

namespace {
constexpr double kHalf = 0.05;  // half height of a box, m

struct PyramidBox {
  int body;
  Vec3 start;
};

// L levels of 0.2 × 0.2 × 0.1 m, 1 kg boxes, 2 cm apart sideways, μ = 0.6, h = 5 ms
std::vector<PyramidBox> build_pyramid(World& world, int levels) {
  world.add_body(
      {.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0), .friction = 0.6});
  std::vector<PyramidBox> boxes;
  for (int level = 0; level < levels; ++level) {
    const int count = levels - level;
    for (int i = 0; i < count; ++i) {
      const Vec3 x(0.22 * (i - 0.5 * (count - 1)), 0.0, kHalf + 2.0 * kHalf * level);
      std::string name = "L";  // built without operator+ on a literal (GCC 12 -Wrestrict)
      name.append(std::to_string(level)).append("_").append(std::to_string(i));
      const int body = world.add_body({.name = name,
                                       .mass = 1.0,
                                       .shape = make_box(Vec3(0.1, 0.1, kHalf)),
                                       .p_WS = x,
                                       .friction = 0.6});
      boxes.push_back({body, x});
    }
  }
  return boxes;
}

// an LCP answer checked from its definition, with tolerances relative to the problem's own scale
// (independent of lcp::measure_residuals): z ≥ 0, w = M z + q ≥ 0, z_i w_i = 0
double definition_error(const lcp::LcpProblem& p, const Eigen::VectorXd& z) {
  const Eigen::VectorXd w = p.M * z + p.q;
  const double scale =
      p.q.lpNorm<Eigen::Infinity>() + p.M.lpNorm<Eigen::Infinity>() * z.lpNorm<Eigen::Infinity>();
  double worst = 0.0;
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    worst = std::max(worst, -z(i) / scale);
    worst = std::max(worst, -w(i) / scale);
    worst = std::max(worst, std::min(std::abs(z(i)), std::abs(w(i))) / scale);
  }
  return worst;
}
}  // namespace

TEST_CASE("a 5-level box pyramid stands, with every step's LCP solved", "[contact][pyramid]") {
  World world({.time_step = 5e-3});
  const std::vector<PyramidBox> boxes = build_pyramid(world, 5);
  REQUIRE(boxes.size() == 15);
  long failures = 0;
  while (world.time() < 0.5) {
    world.step();
    failures += world.last_report().failures + world.last_report().fallbacks;
  }
  double drift = 0.0;
  for (const PyramidBox& b : boxes)
    drift = std::max(drift, (world.pose(b.body).p_WB - b.start).norm());
  INFO("LCP failures or fallbacks: " << failures << ", drift " << drift << " m, pivots "
                                     << world.totals().pivots);
  CHECK(failures == 0);
  CHECK(world.last_report().contacts ==
        4 * 5 + 8 * 10);  // 4 per box on the ground, 8 per upper box
  CHECK(drift < 1e-6);    // at rest: what stays is the post-stabilization's sub-micron settling
}

TEST_CASE("cold Lemke solves every island LCP of a 4-level pyramid, checked by definition",
          "[contact][pyramid]") {
  // without the warm start the engine uses, so that Lemke's path itself is exercised on the
  // fresh (first step) and the resting (later steps) degenerate LCPs
  WorldSettings settings{.time_step = 5e-3};
  settings.record_lcps = true;
  World world(settings);
  build_pyramid(world, 4);
  int checked = 0;
  for (int step = 1; step <= 40; ++step) {
    world.step();
    if (step % 5 != 1) continue;
    for (const lcp::SparseMixedLcpProblem& p : world.recorded_lcps()) {
      const lcp::LcpProblem reduced = lcp::reduce_mixed_lcp(
          {p.P.toDense(), p.Q.toDense(), p.K.toDense(), p.S.toDense(), p.u, p.v, p.name});
      const lcp::LcpResult r = lcp::solve_lemke(reduced);
      INFO("step " << step << ", n = " << reduced.q.size() << ": " << lcp::to_string(r.status)
                   << " after " << r.pivots << " pivots; " << r.message);
      REQUIRE(r.ok());
      CHECK(definition_error(reduced, r.z) < 1e-12);
      // the same LCP in sparse storage (as the engine hands it to Lemke), and the engine's own
      // sparse reduction of the mixed problem
      const lcp::LcpResult rs =
          lcp::solve_lemke(lcp::SparseLcpProblem{reduced.M.sparseView(), reduced.q, "sparse"});
      INFO("sparse storage: " << lcp::to_string(rs.status) << " after " << rs.pivots << " pivots; "
                              << rs.message);
      REQUIRE(rs.ok());
      CHECK(definition_error(reduced, rs.z) < 1e-12);
      const lcp::MixedLcpResult mixed = lcp::solve_mixed_lcp(p);
      REQUIRE(mixed.ok());
      CHECK(definition_error(reduced, mixed.lcp.z) < 1e-12);
      CHECK(mixed.free_residual < 1e-12);
      ++checked;
    }
  }
  CHECK(checked == 8);
}

// At rest the contact set repeats from step to step, so after the first steps the previous
// step's active set solves each LCP with no pivot (Lemke's warm start). It did not while the
// contacts' order within a pair followed the rounding of their coordinates (issue #16: a
// 13-level pyramid alternated 0 and 6000 pivots a step; collision/collision_world.cpp, step 4).
TEST_CASE("a resting 8-level pyramid is warm-started with no pivot after its first steps",
          "[contact][pyramid]") {
  World world({.time_step = 5e-3});
  const std::vector<PyramidBox> boxes = build_pyramid(world, 8);
  REQUIRE(boxes.size() == 36);
  for (int step = 1; step <= 30; ++step) {
    world.step();
    const StepReport& r = world.last_report();
    INFO("step " << step << ": " << r.pivots << " pivots, " << r.failures << " failures");
    REQUIRE(r.failures == 0);
    if (step >= 3) CHECK(r.pivots == 0);
  }
}

// Without a warm start (the first step), an island of more than kCrashStartRows rows solves the
// frictionless problem first by Lawson–Hanson's active-set method and starts Lemke from its
// basis (lcp::LemkeOptions::crash_rows, docs/lcp.md "Crash start"). Before, Lemke's standard
// start took 2216 pivots on the 13-level pyramid's first step, a warm miss of 449 on its second,
// and ended every attempt on a false secondary ray on the 20-level one's (n = 9600).
TEST_CASE("large resting pyramids: the crash start solves the cold first step", "[contact][pyramid]") {
  for (const int levels : {13, 20}) {
    World world({.time_step = 5e-3});
    const std::vector<PyramidBox> boxes = build_pyramid(world, levels);
    REQUIRE(boxes.size() == static_cast<std::size_t>(levels * (levels + 1) / 2));
    const int steps = levels == 13 ? 3 : 1;
    for (int step = 1; step <= steps; ++step) {
      world.step();
      const StepReport& r = world.last_report();
      INFO(levels << " levels, step " << step << ": " << r.pivots << " pivots, " << r.failures
                  << " failures, " << r.fallbacks << " fallbacks");
      REQUIRE(r.failures == 0);
      CHECK(r.fallbacks == 0);
      // one addition per basic normal row and a few drops: the normal rows number 4 per contact
      // pair (676 at 13 levels, 1600 at 20), the basis about 3 per box
      if (step == 1) CHECK(r.pivots < 4 * r.contacts / 3);
      if (step > 1) CHECK(r.pivots == 0);  // the first step's basis warm-starts the next
      // closed form: a pyramid at rest stays at rest (every box's velocity 0 to rounding)
      double speed = 0.0;
      for (const PyramidBox& b : boxes) speed = std::max(speed, world.twist(b.body).norm());
      CHECK(speed < 1e-9);
    }
  }
}
