// collision/point_shell.hpp, point_tree_traversal.hpp, contact_reduction.hpp: the nested point
// tree (Barbič 2007, §3.9) and its budgeted, coherent traversal (§3.10) against brute force over
// all points; contact reduction against hand-computed extremes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "pivot/collision/analytic_distance.hpp"
#include "pivot/collision/collision_world.hpp"
#include "pivot/collision/contact_reduction.hpp"
#include "pivot/collision/mesh_distance_field.hpp"
#include "pivot/collision/mesh_file.hpp"
#include "pivot/collision/point_shell.hpp"
#include "pivot/collision/point_tree_traversal.hpp"
#include "pivot/collision/sdf_manifold.hpp"
#include "pivot/collision/sdf_model.hpp"
#include "pivot/collision/shape.hpp"
#include "pivot/core/error.hpp"

#include "support/box_mesh.hpp"

using namespace pivot;
using namespace pivot::detail;

using pivot::test::box_mesh;

namespace {

Mat3 random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  return Quat(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
}

bool same_hits(const std::vector<ShellHit>& a, const std::vector<ShellHit>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].point != b[i].point || a[i].d != b[i].d) return false;
  return true;
}

}  // namespace

TEST_CASE(
    "point shell: points on the surface with its normals, nested levels of 8^i, every "
    "subtree inside its node's sphere",
    "[collision]") {
  const Vec3 h(0.05, 0.03, 0.02);
  const TriangleMesh m = box_mesh(-h, h);
  const PointShell s = sample_point_shell(m.vertices, m.triangles, 1000);
  const BoxDistance box(h);
  REQUIRE(s.points.size() == 1000u);
  for (std::size_t k = 0; k < s.points.size(); ++k) {
    CHECK(std::abs(box.distance(s.points[k])) < 1e-12);
    CHECK((s.normals[k] - box.normal(s.points[k])).norm() < 1e-9);  // off the edges
  }
  CHECK(s.level_size == std::vector<int>{8, 64, 512, 1000});
  // every point lies in the sphere of each of its ancestors, found independently by descending
  // from each node through its children
  for (int level = 0; level < s.levels(); ++level)
    for (int k = 0; k < s.level_size[static_cast<std::size_t>(level)]; ++k) {
      const std::size_t id =
          static_cast<std::size_t>(s.level_offset[static_cast<std::size_t>(level)] + k);
      std::vector<int> frontier{k};
      for (int deeper = level; deeper < s.levels(); ++deeper) {
        std::vector<int> next;
        for (const int c : frontier) {
          CHECK((s.points[static_cast<std::size_t>(c)] - s.points[static_cast<std::size_t>(k)])
                    .norm() <= s.radius[id] + 1e-15);
          if (deeper + 1 == s.levels()) continue;
          const std::size_t cid =
              static_cast<std::size_t>(s.level_offset[static_cast<std::size_t>(deeper)] + c);
          next.push_back(c);
          for (int j = s.child_begin[cid]; j < s.child_begin[cid + 1]; ++j)
            next.push_back(s.children[static_cast<std::size_t>(j)]);
        }
        frontier = next;
      }
    }
  // the tree reaches every point exactly once at the deepest level
  std::vector<int> all;
  std::vector<int> frontier;
  for (int k = 0; k < 8; ++k) frontier.push_back(k);
  for (int level = 0; level + 1 < s.levels(); ++level) {
    std::vector<int> next;
    for (const int c : frontier) {
      const std::size_t cid =
          static_cast<std::size_t>(s.level_offset[static_cast<std::size_t>(level)] + c);
      next.push_back(c);
      for (int j = s.child_begin[cid]; j < s.child_begin[cid + 1]; ++j)
        next.push_back(s.children[static_cast<std::size_t>(j)]);
    }
    frontier = next;
  }
  std::sort(frontier.begin(), frontier.end());
  CHECK(frontier.size() == 1000u);
  CHECK(std::adjacent_find(frontier.begin(), frontier.end()) == frontier.end());
}

TEST_CASE(
    "point tree: an unlimited traversal finds exactly the brute-force contacts, with and "
    "without the temporal-coherence skip, along a moving sequence",
    "[collision]") {
  const Vec3 h(0.05, 0.03, 0.02);
  const TriangleMesh m = box_mesh(-h, h);
  const PointShell shell = sample_point_shell(m.vertices, m.triangles, 3000);
  // a field: OpenVDB's of a larger box; and the exact distance of a sphere
  const SignedDistanceField field =
      mesh_distance_field(box_mesh(Vec3(-0.1, -0.1, -0.05), Vec3(0.1, 0.1, 0.0)), 0.004);
  const SphereDistance sphere(0.06);
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const DistanceOracle* oracle :
       {static_cast<const DistanceOracle*>(&field), static_cast<const DistanceOracle*>(&sphere)}) {
    TraversalCache with_skip, without_skip;
    TraversalSettings on, off;
    on.margin = off.margin = 0.004;
    off.coherence = false;
    Mat3 R = random_rotation(rng);
    Vec3 p(0.0, 0.0, 0.03);
    long total_hits = 0, skipped = 0;
    for (int step = 0; step < 200; ++step) {
      // a random walk that dips the box into the oracle's surface and out
      p += 0.002 * Vec3(u(rng), u(rng), u(rng));
      p.z() = 0.03 + 0.03 * std::sin(0.05 * step) + (oracle == &sphere ? 0.04 : 0.0);
      R = Eigen::AngleAxisd(0.01 * u(rng), Vec3::UnitX()).toRotationMatrix() * R;
      TraversalStats stats;
      const auto a = traverse_point_tree(shell, *oracle, R, p, on, with_skip, &stats);
      const auto b = traverse_point_tree(shell, *oracle, R, p, off, without_skip);
      const auto brute = brute_force_points(shell, *oracle, R, p, on.margin);
      CHECK(same_hits(a, brute));
      CHECK(same_hits(b, brute));
      CHECK_FALSE(stats.cut);
      total_hits += static_cast<long>(brute.size());
      skipped += stats.skipped;
    }
    CHECK(total_hits > 1000);  // the sequence does make contact
    CHECK(skipped > 0);        // and the skip does work
  }
}

TEST_CASE(
    "point tree: a budgeted traversal renders whole levels (brute force over them), and "
    "is deterministic",
    "[collision]") {
  const Vec3 h(0.05, 0.03, 0.02);
  const TriangleMesh m = box_mesh(-h, h);
  const PointShell shell = sample_point_shell(m.vertices, m.triangles, 5000);
  const PlaneDistance floor(Vec3::UnitZ(), 0.0);
  TraversalSettings s;
  s.margin = 0.002;
  s.budget = 300;
  TraversalCache c1, c2;
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int partial = 0;
  for (int step = 0; step < 60; ++step) {
    const Mat3 R = Eigen::AngleAxisd(0.3 * u(rng), Vec3::UnitX()).toRotationMatrix();
    const Vec3 p(0, 0, 0.02 + 0.003 * u(rng));
    TraversalStats st1, st2;
    const auto a = traverse_point_tree(shell, floor, R, p, s, c1, &st1);
    const auto b = traverse_point_tree(shell, floor, R, p, s, c2, &st2);
    CHECK(same_hits(a, b));
    CHECK(st1.visited == st2.visited);
    CHECK(same_hits(a, brute_force_points(shell, floor, R, p, s.margin, st1.depth + 1)));
    if (st1.cut) ++partial;
  }
  CHECK(partial > 0);  // the budget did cut levels
}

TEST_CASE("contact reduction: two faces make two patches of their 4 extreme points, deepest first",
          "[collision]") {
  std::vector<ContactPoint> pts;
  // a 10 × 10 grid on z = 0 (normal +z) with one deepest point inside; a 5 × 5 grid on x = 1
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j) {
      ContactPoint c;
      c.p_WCa = Vec3(0.1 * i, 0.1 * j, 0.0);
      c.n_BA_W = Vec3::UnitZ();
      c.gap = (i == 4 && j == 6) ? -0.01 : -0.001;
      pts.push_back(c);
    }
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      ContactPoint c;
      c.p_WCa = Vec3(1.0, 0.1 * i, 0.2 + 0.1 * j);
      c.n_BA_W = -Vec3::UnitX();
      c.gap = -0.02;
      pts.push_back(c);
    }
  ReductionSettings s;
  s.link = 0.15;
  const std::vector<int> patch = contact_patches(pts, s);
  CHECK(*std::max_element(patch.begin(), patch.end()) == 1);
  const auto out = reduce_patches(pts, s);
  REQUIRE(out.size() == 8u);
  // the deeper patch (x = 1, gap −0.02) first; its first point is its first-deepest (0,0)
  CHECK(out[0].p_WCa.isApprox(Vec3(1.0, 0.0, 0.2)));
  for (int k = 0; k < 4; ++k) CHECK(out[static_cast<std::size_t>(k)].p_WCa.x() == 1.0);
  // the floor patch, by hand: p0 = (0.4, 0.6) the deepest; p1 the farthest from it, (0.9, 0)
  // (|·|² = 0.61 against 0.52, 0.34, 0.25 for the other corners); p2 the largest
  // |(p1 − p0) × (x − p0)| = |0.6x + 0.5y − 0.54|, at (0, 0): 0.54 (at (0.9, 0.9): 0.45)
  CHECK(out[4].p_WCa.isApprox(Vec3(0.4, 0.6, 0.0)));
  CHECK(out[5].p_WCa.isApprox(Vec3(0.9, 0.0, 0.0)));
  CHECK(out[6].p_WCa.norm() < 1e-15);
  s.cap = 5;
  CHECK(reduce_patches(pts, s).size() == 5u);
}

TEST_CASE(
    "sdf shape: a closed box mesh gives the box's mass properties; open or inverted meshes "
    "are errors",
    "[collision]") {
  const Vec3 h(0.05, 0.03, 0.02);
  TriangleMesh m = box_mesh(-h, h);
  SdfShapeSettings settings;
  settings.voxel = 0.005;
  settings.points = 500;
  const ShapePtr s = make_sdf_shape(m.vertices, m.triangles, settings, "box");
  const MassProperties mp = mass_properties(*s, 1000.0);
  const MassProperties exact = mass_properties(*make_box(h), 1000.0);
  CHECK(mp.mass == Approx(exact.mass).epsilon(1e-12));
  CHECK((mp.inertia - exact.inertia).norm() < 1e-12 * exact.inertia.norm());
  CHECK(mp.com_S.norm() < 1e-15);
  TriangleMesh open = m;
  open.triangles.pop_back();
  CHECK_THROWS_WITH(make_sdf_shape(open.vertices, open.triangles, settings, "open"),
                    Catch::Matchers::Contains("closed"));
  TriangleMesh inverted = m;
  for (auto& t : inverted.triangles) std::swap(t[1], t[2]);
  CHECK_THROWS_WITH(make_sdf_shape(inverted.vertices, inverted.triangles, settings, "inverted"),
                    Catch::Matchers::Contains("counter-clockwise"));
}

TEST_CASE("sdf shape: a mesh too large for a distance field is an error naming it", "[collision]") {
  // a box of half size 1e160 m: its area (1e320) and the default voxel's square overflow, and
  // the point count came out of a NaN as INT_MIN ("point shell: needs at least 8 points (got
  // -2147483648)", naming neither the mesh nor the reason)
  // (1e160: the volume overflows to +inf and passed; 1e200: inf − inf, refused as "wound
  // clockwise"); both are now refused by the bound on a mesh's coordinates, naming the vertex
  for (const double size : {1e160, 1e200, 2e9}) {
    const Vec3 h = Vec3::Constant(size);
    TriangleMesh m = box_mesh(-h, h);
    CHECK_THROWS_WITH(make_sdf_shape(m.vertices, m.triangles, SdfShapeSettings{}, "huge.obj"),
                      Catch::Matchers::Contains("\"huge.obj\": vertex 1 is") &&
                          Catch::Matchers::Contains("beyond the limit of 1e+09 m"));
  }
  // at the bound itself the shape is made
  const Vec3 h = Vec3::Constant(1e9);
  TriangleMesh m = box_mesh(-h, h);
  CHECK_NOTHROW(make_sdf_shape(m.vertices, m.triangles, SdfShapeSettings{}, "large.obj"));
}

TEST_CASE("contact reduction against a plane: a ring rests on its outline, a tilt is guarded",
          "[collision]") {
  // a ring of radius 0.08 (72 points) on the plane z = 0 (gap = height, normal +z) with two
  // bands of tube points above it (gaps 1 mm and 5 mm, radii 0.085 and 0.095), as a torus
  // lying on a floor touches within the margin
  const auto ring = [](double tilt) {
    std::vector<ContactPoint> pts;
    for (const auto& [radius, height] : {std::pair{0.08, 0.0}, {0.085, 1e-3}, {0.095, 5e-3}})
      for (int k = 0; k < 72; ++k) {
        const double a = 2.0 * std::numbers::pi * k / 72.0;
        ContactPoint c;
        c.p_WCa = Vec3(radius * std::cos(a), radius * std::sin(a), height);
        c.n_BA_W = Vec3::UnitZ();
        // tilted about the y axis by the slope `tilt`: the +x side is higher
        c.gap = height + tilt * (c.p_WCa.x() + 0.08);
        c.p_WCa.z() = c.gap;
        c.p_WCb = c.p_WCa - c.gap * c.n_BA_W;
        pts.push_back(c);
      }
    return pts;
  };
  ReductionSettings s;
  s.link = 0.02;
  // flat: every kept point is on the ring (gap 0), and they surround the ring's centre: the
  // largest angular gap between them is below 180° (the body's weight at the centre is held);
  // reduce_patches instead kept the deepest point and three at 5 mm (its 3D extremes)
  const auto flat = reduce_supporting(ring(0.0), s);
  REQUIRE(flat.size() >= 4u);
  std::vector<double> angles;
  for (const ContactPoint& c : flat) {
    CHECK(c.gap == 0.0);
    angles.push_back(std::atan2(c.p_WCa.y(), c.p_WCa.x()));
  }
  std::sort(angles.begin(), angles.end());
  double widest = angles.front() + 2.0 * std::numbers::pi - angles.back();
  for (std::size_t k = 1; k < angles.size(); ++k)
    widest = std::max(widest, angles[k] - angles[k - 1]);
  CHECK(widest < std::numbers::pi);
  int high = 0;
  for (const ContactPoint& c : reduce_patches(ring(0.0), s)) high += c.gap > 1e-3;
  CHECK(high == 3);
  // tilted by a slope 0.05 (< guard_slope 0.1): the ring's far side is 8 mm up, out of the
  // resting layer, yet a guard keeps the ring's highest point (x = 0.08): tilting back by
  // 0.05 brings it down first, and of the +x direction's candidates it scores lowest,
  // 0.008 − 0.1 · 0.16 = −0.008 (the 1 mm band: 0.00925 − 0.1 · 0.165 = −0.00725)
  const auto tilted = reduce_supporting(ring(0.05), s);
  bool far_side = false;
  for (const ContactPoint& c : tilted)
    far_side = far_side || (c.p_WCa - Vec3(0.08, 0.0, 0.008)).norm() < 1e-12;
  CHECK(far_side);
}

TEST_CASE(
    "sdf against a compound: each leaf has its own traversal cache; contacts equal the "
    "leaves' brute force (no skip, unlimited budget) step after step",
    "[collision]") {
  // a moving sdf box (half 0.03) over a fixed compound of a sphere (r 0.03) and a long box arm
  // (half 0.02 × 0.2 × 0.02), both at the compound's origin: the sdf box comes down on the
  // arm's top near y = 0.15, far from the sphere. A cache shared by the two leaves would carry
  // the sphere's large slack into the arm's traversal (same pose, no motion) and skip its nodes
  const Vec3 h(0.03, 0.03, 0.03);
  const TriangleMesh m = box_mesh(-h, h);
  SdfShapeSettings settings;
  settings.voxel = 0.004;
  settings.points = 1000;
  const ShapePtr sdf = make_sdf_shape(m.vertices, m.triangles, settings, "box");
  const double r = 0.03;
  const Vec3 arm(0.02, 0.2, 0.02);
  const ShapePtr compound = make_compound({{make_sphere(r)}, {make_box(arm)}});
  CollisionWorld world;
  world.add({.body = 0, .shape = sdf});
  world.add({.body = 1, .shape = compound, .fixed = true});
  const double margin = 0.005;
  const SphereDistance sphere(r);
  const BoxDistance box(arm);
  TraversalSettings brute;
  brute.margin = margin;
  brute.coherence = false;
  long arm_contacts = 0;
  for (int step = 0; step < 20; ++step) {
    // from 0.01 above the arm's top (z = 0.02) to 0.009 into it, turning slowly
    const Vec3 p(0.001 * step, 0.15, 0.02 + 0.03 + 0.01 - 0.001 * step);
    const Quat q(Eigen::AngleAxisd(0.002 * step, Vec3::UnitY()));
    const auto got = world.detect(
        [&](int body) {
          return body == 0 ? Pose{p, q} : Pose{Vec3::Zero(), Quat::Identity()};
        },
        margin);
    std::vector<Contact> want;
    for (const DistanceOracle* leaf :
         {static_cast<const DistanceOracle*>(&sphere), static_cast<const DistanceOracle*>(&box)}) {
      TraversalCache fresh, fresh_corners;
      for (const ContactPoint& c : shell_contacts(
               sdf->sdf->shell, q.toRotationMatrix(), p, *leaf, Mat3::Identity(), Vec3::Zero(),
               brute, fresh, nullptr, true, &sdf->sdf->corners, &fresh_corners)) {
        Contact k;
        k.body_a = 0;
        k.body_b = 1;
        k.p_WCa = c.p_WCa;
        k.p_WCb = c.p_WCb;
        k.n_BA_W = c.n_BA_W.normalized();
        k.gap = k.n_BA_W.dot(k.p_WCa - k.p_WCb);
        want.push_back(k);
        if (leaf == &box) ++arm_contacts;
      }
    }
    std::sort(want.begin(), want.end(), [](const Contact& x, const Contact& y) {
      return std::make_tuple(x.p_WCa.x(), x.p_WCa.y(), x.p_WCa.z()) <
             std::make_tuple(y.p_WCa.x(), y.p_WCa.y(), y.p_WCa.z());
    });
    INFO("step " << step);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CHECK((got[i].p_WCa - want[i].p_WCa).norm() < 1e-12);
      CHECK((got[i].n_BA_W - want[i].n_BA_W).norm() < 1e-12);
      CHECK(got[i].gap == Approx(want[i].gap).margin(1e-12));
    }
  }
  CHECK(arm_contacts > 0);  // the arm is touched
}

TEST_CASE("corner shell: a box mesh's 8 corners with pseudonormals along the diagonals",
          "[collision]") {
  // angle-weighted pseudonormal (Bærentzen & Aanæs 2005): at a box corner each of its three
  // faces contributes its normal times π/2 however the face is split into triangles, so the
  // normal is (±1, ±1, ±1)/√3 with the corner's signs
  const Vec3 h(0.01, 0.02, 0.03);
  const TriangleMesh m = box_mesh(-h, h);
  const PointShell all = corner_shell(m.vertices, m.triangles, 100);
  REQUIRE(all.points.size() == 8u);
  for (std::size_t k = 0; k < 8; ++k) {
    const Vec3& p = all.points[k];
    CHECK((p.cwiseAbs() - h).norm() < 1e-15);
    const Vec3 want =
        Vec3(p.x() > 0 ? 1 : -1, p.y() > 0 ? 1 : -1, p.z() > 0 ? 1 : -1) / std::sqrt(3.0);
    CHECK((all.normals[k] - want).norm() < 1e-12);
  }
  // the count cap keeps the first of the shuffled order
  const PointShell five = corner_shell(m.vertices, m.triangles, 5);
  REQUIRE(five.points.size() == 5u);
  for (std::size_t k = 0; k < 5; ++k) CHECK(five.points[k] == all.points[k]);
}
