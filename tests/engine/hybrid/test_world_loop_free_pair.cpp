// Two FREE bodies with Loop subdivision surfaces (collision/loop_surface.hpp) in the World's
// hybrid mode (docs/hybrid.md "The World switch"): the 11-DOF two-free-body model of Kry 2000
// §4.3 [DERIVED from Kry & Pai 2002 §3.3, §3.7] with the contact running over the triangle
// patches of both surfaces, regular ones and those with an extraordinary vertex (Kry & Pai 2002
// §3.5). Zero gravity; the bodies are pressed together by equal and opposite forces ∓F along the
// line through their centres of mass, which the World holds constant over each step (F_k, taken
// at the step's start). Ground truth, independent of the reduced integrator, from the World's
// poses and twists after every step:
// - the external forces sum to zero: the total momentum P = Σ m v is constant;
// - their torque about the world origin is x_A × F_k − x_B × F_k = r × F_k, r = x_A − x_B, so
//   L(t) = L(0) + Σ_k (∫_k r dt) × F_k, the integral by the end-corrected trapezoid rule
//   h (r_0 + r_1)/2 + h² (ṙ_0 − ṙ_1)/12 (Euler-Maclaurin, O(h⁵) per step where r is smooth);
// - a force constant over a step does the work F_k·(r_1 − r_0) exactly, and the contact does
//   none without friction (rigid, no slip or frictionless): T(t) = T(0) + Σ_k F_k·Δr_k; with
//   friction T never gains more than that work in a step (Coulomb sliding dissipates, rolling
//   does no work);
// - the surfaces touch: for convex bodies the largest separating-axis gap
//   max_n [−h_A(−n) − h_B(n)] (the separation along n; h the support function) is 0 and the two
//   support points coincide; found here from the surfaces' own evaluation (Newton on n·p(u, v)
//   per patch), not from the reduced state.
// Constant forces ∓F ẑ, collinear only while the centres are stacked, were tried first: their
// couple (x_A − x_B) × F tips the pair over like a compressed column (buckling), the contact
// normal turned 50° in 0.33 s and the pair separated (f_n → 0, the World's "separated" exit; A
// slides off B as a particle off a dome). The central press keeps the pair together.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <vector>

#include "pivot/collision/loop_surface.hpp"
#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {

// a geodesic sphere: the icosahedron with its edges halved `levels` times and the points pushed
// out to the unit sphere, then scaled by `radii`. Valence 5 at the icosahedron's 12 corners, 6
// elsewhere; after one halving no triangle has two extraordinary vertices, so LoopSurface keeps
// the mesh as it is (20 · 4^levels patches, 60 of them with an EV). Triangles counter-clockwise
// seen from outside.
std::shared_ptr<const LoopSurface> loop_ellipsoid(const Vec3& radii, int levels) {
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Vec3> p = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                         {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  for (Vec3& x : p) x.normalize();
  std::vector<std::array<int, 3>> tri = {
      {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
      {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
      {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      const auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      p.push_back((p[a] + p[b]).normalized());
      return mid[key] = static_cast<int>(p.size()) - 1;
    };
    std::vector<std::array<int, 3>> finer;
    for (const auto& [a, b, c] : tri) {
      const int ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      finer.insert(finer.end(), {{a, ab, ca}, {ab, b, bc}, {ca, bc, c}, {ab, bc, ca}});
    }
    tri = std::move(finer);
  }
  for (auto& f : tri)  // counter-clockwise from outside (the centre is inside)
    if ((p[f[1]] - p[f[0]]).cross(p[f[2]] - p[f[0]]).dot(p[f[0]]) < 0.0) std::swap(f[1], f[2]);
  for (Vec3& x : p) x = x.cwiseProduct(radii);
  return std::make_shared<LoopSurface>(std::move(p), std::move(tri), "geodesic ellipsoid");
}

// the support point of a convex surface in direction d (surface frame): the best of a grid of
// samples per patch, then Newton on f(u, v) = d·p(u, v) (gradient d·p_u, d·p_v; Hessian from
// the second partials) in every patch whose samples come within `margin` of the best; kept
// when it converges inside its patch's domain
struct Support {
  Vec3 p = Vec3::Zero();
  int patch = -1;
};
Support support_point(const SmoothSurface& s, const Vec3& d) {
  constexpr int n = 4;
  constexpr double margin = 0.01;  // m: more than a patch's bulge between samples here
  std::vector<std::pair<double, SurfacePoint>> best(s.patch_count(), {-1e300, {}});
  double top = -1e300;
  for (int k = 0; k < s.patch_count(); ++k) {
    for (int i = 0; i <= n; ++i)
      for (int j = 0; i + j <= n; ++j) {
        const Vec2 uv(double(i) / n, double(j) / n);
        const double f = d.dot(s.point(k, uv));
        if (f > best[k].first) best[k] = {f, SurfacePoint{k, uv}};
      }
    top = std::max(top, best[k].first);
  }
  double f_max = -1e300;
  Support out;
  for (int k = 0; k < s.patch_count(); ++k) {
    if (best[k].first < top - margin) continue;
    Vec2 uv = best[k].second.uv;
    // keep the start off the EV at (0, 0), where the parameterization is singular
    if (uv.sum() < 1e-3) uv = Vec2(0.05, 0.05);
    bool converged = false;
    for (int it = 0; it < 40 && s.domain(k).contains(uv, 0.5); ++it) {
      const SurfaceJet J = s.evaluate(k, uv);
      const Vec2 g(d.dot(J.p_u), d.dot(J.p_v));
      Eigen::Matrix2d H;
      H << d.dot(J.p_uu), d.dot(J.p_uv), d.dot(J.p_uv), d.dot(J.p_vv);
      const Vec2 step = -H.ldlt().solve(g);
      uv += step;
      if (step.norm() < 1e-13) {  // quadratic: the next step is at rounding
        converged = true;
        break;
      }
    }
    if (!converged || !s.domain(k).contains(uv, 1e-9)) continue;
    const Vec3 p = s.point(k, uv);
    if (d.dot(p) > f_max) {
      f_max = d.dot(p);
      out = {p, k};
    }
  }
  return out;
}

struct Body {
  std::shared_ptr<const LoopSurface> surface;
  int index = -1;
};

// the support point in the world of body b (its surface frame is its COM frame) in direction d
Support world_support(const World& w, const Body& b, const Vec3& d_W) {
  const Pose X = w.pose(b.index);
  Support s = support_point(*b.surface, X.q_WB.conjugate() * d_W);
  s.p = X.p_WB + X.q_WB * s.p;
  return s;
}

// the separating-axis gap of A above B, max over unit n of −h_A(−n) − h_B(n), and the tangential
// distance of the support points where it stops. For touching convex bodies both are 0.
// Fixed-point iteration n ← n + t/R, t the tangential part of a*(−n) − b*(n): its gradient
// (∇h is the support point), R an estimate of the summed radii of curvature (secant)
struct Gap {
  double gap = 0.0, tangential = 0.0;
  Vec3 n = Vec3::UnitZ();
  int patch_A = -1, patch_B = -1;
};
Gap separating_gap(const World& w, const Body& A, const Body& B, Vec3 n) {
  Gap g;
  double R = 0.3;
  Vec3 n_prev = n, t_prev = Vec3::Zero();
  for (int it = 0; it < 60; ++it) {
    const Support a = world_support(w, A, -n), b = world_support(w, B, n);
    const Vec3 d = a.p - b.p;
    const Vec3 t = d - d.dot(n) * n;
    g = {d.dot(n), t.norm(), n, a.patch, b.patch};
    if (g.tangential < 1e-9) break;
    if (it > 0 && (n - n_prev).norm() > 0.0)
      R = std::clamp((t - t_prev).norm() / (n - n_prev).norm(), 0.02, 5.0);
    n_prev = n;
    t_prev = t;
    n = (n + t / R).normalized();
  }
  return g;
}

struct PairRun {
  int entries = 0, exits = 0, reduced_steps = 0, steps = 0;
  double t_entry = -1.0, entry_dE = 0.0;
  double max_dP = 0.0, max_dL = 0.0, L_scale = 0.0;
  double max_dE = 0.0, max_rise = 0.0, dissipated = 0.0;
  double max_dL_late = 0.0, max_dE_late = 0.0;  // their changes from step 5 (t = 0.05 s) on
  double max_gap = 0.0, max_tangential = 0.0;
  std::set<int> patches_A, patches_B;        // where the contact was, by the independent search
  std::set<int> ev_patches_A, ev_patches_B;  // those with an extraordinary vertex
  int search_failures = 0;
  std::vector<std::string> exit_reasons;
};

// A: the Loop surface of a geodesic ellipsoid (0.1, 0.08, 0.06) m (one halving: 80 patches, 60
// with an EV), 1 kg, on B: (0.25, 0.2, 0.08) m, 3 kg; both tilted, their LCP shapes the hulls of
// their surfaces (3 × 3 samples a patch), their mass properties the hulls'. A is placed so that
// the surfaces touch with normal ẑ, its vertical velocity set so the contact has no normal
// velocity; a relative slip (sliding until the first step's end with μ = 0.5) and spins.
// F = 10 N, h = 10 ms, 1 s, entering at the first step (hybrid_entry_steps 0).
PairRun press(double mu) {
  WorldSettings s{.time_step = 0.01, .gravity = Vec3::Zero()};
  s.hybrid = true;
  s.hybrid_entry_steps = 0;
  World w(s);
  Body A{loop_ellipsoid(Vec3(0.10, 0.08, 0.06), 1)}, B{loop_ellipsoid(Vec3(0.25, 0.2, 0.08), 1)};
  const Quat qA(Eigen::AngleAxisd(0.1, Vec3(1, 0.4, 0.2).normalized()));
  const Quat qB(Eigen::AngleAxisd(0.05, Vec3(-0.3, 1, 0).normalized()));
  // the touching placement: A's support point in −ẑ on B's in +ẑ
  const Vec3 b0 = qB * support_point(*B.surface, qB.conjugate() * Vec3::UnitZ()).p;
  const Vec3 pA = b0 - qA * support_point(*A.surface, qA.conjugate() * -Vec3::UnitZ()).p;
  const Vec3 wA(0.3, -0.2, 1.5), wB(0.0, 0.1, -0.5), vB(-0.02, 0.01, 0.0);
  Vec3 vA(0.05, -0.03, 0.0);
  vA.z() -= (vA + wA.cross(b0 - pA) - vB - wB.cross(b0)).z();
  auto body = [&](const char* name, double mass, const Body& b, const Vec3& p, const Quat& q,
                  const Vec3& v, const Vec3& om) {
    return w.add_body({.name = name,
                       .mass = mass,
                       .centre_of_mass = Vec3::Zero(),
                       .shape = make_convex(surface_grid_points(*b.surface, 3)),
                       .p_WS = p,
                       .q_WB = q,
                       .v_WB = v,
                       .w_WB = om,
                       .friction = mu,
                       .smooth_surface = b.surface});
  };
  A.index = body("A", 1.0, A, pA, qA, vA, wA);
  B.index = body("B", 3.0, B, Vec3::Zero(), qB, vB, wB);
  // the press: F_A = −F r/|r| on A, −F_A on B, r = x_A − x_B, through the centres of mass along
  // the line joining them. The World evaluates it at the step's start and holds it over the step
  // (docs/hybrid.md "The World switch"): a constant force F_k over step k.
  const double F = 10.0;
  auto press_force = [&](const RigidBodySet& set) {
    const Vec3 r = set.pose(A.index).p_WB - set.pose(B.index).p_WB;
    return Vec3(-F * r.normalized());
  };
  w.add_force_callback([&](const RigidBodySet& set, double, Eigen::VectorXd& wrench) {
    const Vec3 F_A = press_force(set);
    wrench.segment<3>(6 * A.index + 3) += F_A;
    wrench.segment<3>(6 * B.index + 3) -= F_A;
  });

  const std::array<int, 2> ids = {A.index, B.index};
  auto momentum = [&] {
    Vec3 P = Vec3::Zero();
    for (int i : ids) P += w.bodies().body(i).mass * w.twist(i).v();
    return P;
  };
  auto angular_momentum = [&] {  // about the world origin
    Vec3 L = Vec3::Zero();
    for (int i : ids) {
      const Pose X = w.pose(i);
      const Mat3 R = X.q_WB.toRotationMatrix();
      const RigidBody& rb = w.bodies().body(i);
      L += X.p_WB.cross(rb.mass * w.twist(i).v()) +
           R * rb.inertia_B * R.transpose() * w.twist(i).w();
    }
    return L;
  };
  auto r_AB = [&] { return Vec3(w.pose(A.index).p_WB - w.pose(B.index).p_WB); };
  auto v_AB = [&] { return Vec3(w.twist(A.index).v() - w.twist(B.index).v()); };

  PairRun out;
  const Vec3 P0 = momentum();
  Vec3 L_expected = angular_momentum();
  out.L_scale = L_expected.norm();
  double T_expected = 0.0, T_prev = 0.0;
  Vec3 n = Vec3::UnitZ(), dL_5 = Vec3::Zero();
  double dE_5 = 0.0;
  const double h = s.time_step;
  while (w.time() < 1.0 - 1e-9) {
    const double T_before = w.kinetic_energy();
    const Vec3 F_k = press_force(w.bodies()), r0 = r_AB(), v0 = v_AB();
    const StepReport& rep = w.step();
    ++out.steps;
    const Vec3 r1 = r_AB(), v1 = v_AB();
    for (const SwitchEvent& ev : rep.switches) {
      if (ev.entered) {
        if (++out.entries == 1) {
          out.t_entry = ev.time;
          out.entry_dE = ev.energy_change;
          T_expected = T_prev = T_before + ev.energy_change;
        }
      } else {
        ++out.exits;
        out.exit_reasons.push_back(std::to_string(ev.time) + ": " + ev.reason);
      }
    }
    const bool reduced =
        rep.reduced_pairs == 1 && w.in_reduced_mode(A.index) && w.in_reduced_mode(B.index);
    if (!reduced) break;  // the checks below hold for the reduced pair only
    ++out.reduced_steps;
    // the forces' work over the step, exact for a constant force: F_k·(r(t+h) − r(t)); the
    // contact does none without friction (and takes energy by sliding with it)
    T_expected += F_k.dot(r1 - r0);
    // their torque about the origin, x_A × F_k − x_B × F_k = r × F_k, integrated by the
    // end-corrected trapezoid ∫r ≈ h (r0 + r1)/2 + h² (v0 − v1)/12 (O(h⁵) per step)
    L_expected += (h * (r0 + r1) / 2.0 + h * h * (v0 - v1) / 12.0).cross(F_k);
    const double T = w.kinetic_energy();
    out.max_dP = std::max(out.max_dP, (momentum() - P0).norm());
    out.max_dL = std::max(out.max_dL, (angular_momentum() - L_expected).norm());
    out.max_dE = std::max(out.max_dE, std::abs(T - T_expected));
    out.max_rise = std::max(out.max_rise, (T - T_prev) - F_k.dot(r1 - r0));
    T_prev = T;
    out.dissipated = T_expected - T;
    // the same after the slip has ended (friction: within the first step)
    if (out.steps == 5) {
      dL_5 = angular_momentum() - L_expected;
      dE_5 = T - T_expected;
    } else if (out.steps > 5) {
      out.max_dL_late = std::max(out.max_dL_late, (angular_momentum() - L_expected - dL_5).norm());
      out.max_dE_late = std::max(out.max_dE_late, std::abs(T - T_expected - dE_5));
    }
    if (out.steps % 2 != 0) continue;  // the search costs 30 ms
    const Gap g = separating_gap(w, A, B, n);
    if (g.patch_A < 0 || g.patch_B < 0) {  // no support point converged inside a patch
      ++out.search_failures;
      continue;
    }
    n = g.n;
    out.max_gap = std::max(out.max_gap, std::abs(g.gap));
    out.max_tangential = std::max(out.max_tangential, g.tangential);
    out.patches_A.insert(g.patch_A);
    out.patches_B.insert(g.patch_B);
    if (A.surface->patch_valence(g.patch_A) != 6) out.ev_patches_A.insert(g.patch_A);
    if (B.surface->patch_valence(g.patch_B) != 6) out.ev_patches_B.insert(g.patch_B);
  }
  return out;
}

void report(const char* what, const PairRun& r) {
  std::printf(
      "Loop free pair (%s): %d entries (first at t = %.3f s, projection dE = %.3g J), %d exits, "
      "%d of %d steps reduced; contact over %zu patches of A (%zu with an EV), %zu of B (%zu); "
      "max |dP| = %.3g kg m/s; max |L - L_expected| = %.3g kg m^2/s (|L0| = %.3g), from 0.05 s "
      "on %.3g; max |E - E0| = %.3g J, from 0.05 s on %.3g J; largest rise in a step %.3g J; "
      "dissipated %.6g J; separating-axis gap max %.3g m, support points' tangential distance "
      "max %.3g m\n",
      what, r.entries, r.t_entry, r.entry_dE, r.exits, r.reduced_steps, r.steps, r.patches_A.size(),
      r.ev_patches_A.size(), r.patches_B.size(), r.ev_patches_B.size(), r.max_dP, r.max_dL,
      r.L_scale, r.max_dL_late, r.max_dE, r.max_dE_late, r.max_rise, r.dissipated, r.max_gap,
      r.max_tangential);
  for (const std::string& e : r.exit_reasons) std::printf("  exit at %s\n", e.c_str());
}

// what holds with and without friction: one entry at t = 0, every step reduced, no exit, the
// contact over several patches of each, momentum kept, the surfaces touching
void check_reduced_throughout(const PairRun& r, std::size_t min_patches_B) {
  CHECK(r.entries == 1);
  CHECK(r.exits == 0);
  CHECK(r.t_entry == 0.0);
  CHECK(r.reduced_steps == 100);
  CHECK(r.patches_A.size() >= 3);
  CHECK(r.patches_B.size() >= min_patches_B);
  CHECK(r.max_dP < 2e-8);
  CHECK(r.search_failures == 0);
  CHECK(r.max_gap < 1e-12);
  CHECK(r.max_tangential < 1e-8);
}

}  // namespace

TEST_CASE("hybrid: two free Loop bodies pressed together, frictionless: P, L and E kept",
          "[engine][hybrid][loop]") {
  const PairRun r = press(0.0);
  report("frictionless", r);
  check_reduced_throughout(r, 3);
  CHECK(r.max_dL < 1e-8);
  CHECK(r.max_dE < 1e-8);
}

TEST_CASE("hybrid: two free Loop bodies pressed together, with friction: P, L kept, E never rises",
          "[engine][hybrid][loop]") {
  const PairRun r = press(0.5);
  report("mu = 0.5", r);
  check_reduced_throughout(r, 2);
  // the slip ends inside the first step: the kink in the relative acceleration there is the
  // quadrature's error (2.6e-7 at h = 10 ms, 4.8e-8 at 5 ms, 4.1e-9 at 2.5 ms: O(h³)); after it,
  // L follows the torque's integral as without friction
  CHECK(r.max_dL < 1e-6);
  CHECK(r.max_dL_late < 2e-8);
  // sliding dissipates, rolling does no work
  CHECK(r.max_rise < 1e-9);
  CHECK(r.dissipated > 1e-3);
  CHECK(r.max_dE_late < 1e-8);
}
