// collision/loop_surface.hpp: exact Loop evaluation (Stam 1998) against an independent
// implementation of Loop's subdivision rules written here (repeated subdivision, then Loop's
// limit-point masks at the vertices, which are exact surface points), derivatives against
// central finite differences, and tangent-plane continuity across every patch edge.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <random>
#include <set>

#include "pivot/collision/loop_surface.hpp"
#include "pivot/core/error.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;

namespace {

// ---- the reference: Loop's rules on a closed mesh, written independently of the library ----

struct RefMesh {
  std::vector<Vec3> P;
  std::vector<std::array<int, 3>> F;
};

double ref_beta(int n) {
  // Loop 1987: β = (1/n)(5/8 − (3/8 + (1/4) cos(2π/n))²)
  const double c = 0.375 + 0.25 * std::cos(2.0 * std::numbers::pi / n);
  return (0.625 - c * c) / n;
}

std::vector<std::set<int>> ref_neighbours(const RefMesh& m) {
  std::vector<std::set<int>> nb(m.P.size());
  for (const auto& f : m.F)
    for (int k = 0; k < 3; ++k) {
      nb[f[k]].insert(f[(k + 1) % 3]);
      nb[f[(k + 1) % 3]].insert(f[k]);
    }
  return nb;
}

// children of face f at 4 f + k: (a, ab, ca), (ab, b, bc), (ca, bc, c), (ab, bc, ca)
RefMesh ref_subdivide(const RefMesh& m) {
  const auto nb = ref_neighbours(m);
  std::map<std::pair<int, int>, std::vector<int>> opposite;  // undirected edge → apexes
  for (const auto& f : m.F)
    for (int k = 0; k < 3; ++k) {
      const int a = f[k], b = f[(k + 1) % 3], c = f[(k + 2) % 3];
      opposite[{std::min(a, b), std::max(a, b)}].push_back(c);
    }
  RefMesh out;
  for (std::size_t v = 0; v < m.P.size(); ++v) {
    const int n = static_cast<int>(nb[v].size());
    const double b = ref_beta(n);
    Vec3 p = (1.0 - n * b) * m.P[v];
    for (const int x : nb[v]) p += b * m.P[x];
    out.P.push_back(p);
  }
  std::map<std::pair<int, int>, int> edge_id;
  for (const auto& [e, apexes] : opposite) {
    REQUIRE(apexes.size() == 2);
    edge_id[e] = static_cast<int>(out.P.size());
    out.P.push_back(0.375 * (m.P[e.first] + m.P[e.second]) +
                    0.125 * (m.P[apexes[0]] + m.P[apexes[1]]));
  }
  auto E = [&](int a, int b) { return edge_id.at({std::min(a, b), std::max(a, b)}); };
  for (const auto& f : m.F) {
    const int a = f[0], b = f[1], c = f[2], ab = E(a, b), bc = E(b, c), ca = E(c, a);
    out.F.push_back({a, ab, ca});
    out.F.push_back({ab, b, bc});
    out.F.push_back({ca, bc, c});
    out.F.push_back({ab, bc, ca});
  }
  return out;
}

// Loop's limit position of a vertex: (1 − n χ) v + χ Σ ring, χ = 1 / (n + 3 / (8 β_n))
Vec3 ref_limit(const RefMesh& m, const std::vector<std::set<int>>& nb, int v) {
  const int n = static_cast<int>(nb[v].size());
  const double chi = 1.0 / (n + 3.0 / (8.0 * ref_beta(n)));
  Vec3 p = (1.0 - n * chi) * m.P[v];
  for (const int x : nb[v]) p += chi * m.P[x];
  return p;
}

// ---- test meshes (closed, counter-clockwise from outside) ----

RefMesh octahedron() {
  RefMesh m;
  m.P = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  m.F = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  return m;
}

RefMesh tetrahedron() {
  RefMesh m;
  m.P = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  m.F = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  return m;
}

// a bipyramid over an n-gon: apexes of valence n, equator vertices of valence 4
RefMesh bipyramid(int n) {
  RefMesh m;
  for (int i = 0; i < n; ++i) {
    const double a = 2.0 * std::numbers::pi * i / n;
    m.P.emplace_back(std::cos(a), std::sin(a), 0.0);
  }
  m.P.emplace_back(0, 0, 1.2);
  m.P.emplace_back(0, 0, -0.9);
  for (int i = 0; i < n; ++i) {
    m.F.push_back({i, (i + 1) % n, n});
    m.F.push_back({(i + 1) % n, i, n + 1});
  }
  return m;
}

// a torus grid: every vertex of valence 6
RefMesh torus_grid(int nu, int nv) {
  RefMesh m;
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      const double a = 2.0 * std::numbers::pi * i / nu, b = 2.0 * std::numbers::pi * j / nv;
      m.P.emplace_back((1.0 + 0.4 * std::cos(b)) * std::cos(a),
                       (1.0 + 0.4 * std::cos(b)) * std::sin(a), 0.4 * std::sin(b));
    }
  auto id = [&](int i, int j) { return ((i + nu) % nu) * nv + (j + nv) % nv; };
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      m.F.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      m.F.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  return m;
}

void perturb(RefMesh& m, double amount, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-amount, amount);
  for (Vec3& p : m.P) p += Vec3(d(rng), d(rng), d(rng));
}

LoopSurface surface_of(const RefMesh& m) {
  return LoopSurface(m.P, m.F, "test");
}

// the face of `m` that is patch p, and the rotation r with corners = (F[r], F[r+1], F[r+2])
std::pair<int, int> face_of_patch(const RefMesh& m, const LoopSurface& s, int p) {
  const auto& c = s.patch_corners(p);
  for (std::size_t f = 0; f < m.F.size(); ++f)
    for (int r = 0; r < 3; ++r)
      if (m.F[f][r] == c[0] && m.F[f][(r + 1) % 3] == c[1] && m.F[f][(r + 2) % 3] == c[2])
        return {static_cast<int>(f), r};
  FAIL("patch corners not found among the mesh's triangles");
  return {-1, -1};
}

// Surface points against limit positions of vertices `levels` subdivisions down: for `paths`
// random descents per patch (child k of a face with corners A, B, C in barycentrics), the
// final face's corner j is a mesh vertex whose limit point is the surface at that parameter.
double max_error_against_subdivision(const RefMesh& m0, const LoopSurface& s, int levels, int paths,
                                     unsigned seed) {
  std::vector<RefMesh> L{m0};
  for (int i = 0; i < levels; ++i) L.push_back(ref_subdivide(L.back()));
  const auto nb = ref_neighbours(L.back());
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> child(0, 3), corner(0, 2);
  double worst = 0.0;
  for (int p = 0; p < s.patch_count(); ++p) {
    const auto [f0, r] = face_of_patch(m0, s, p);
    for (int path = 0; path < paths; ++path) {
      int f = f0;
      std::array<Vec3, 3> bary = {Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
      for (int l = 0; l < levels; ++l) {
        // every fourth path dives towards corner 0 (the EV of an EV patch when r = 0)
        const int k = path % 4 == 0 ? 0 : child(rng);
        const Vec3 A = bary[0], B = bary[1], C = bary[2];
        const Vec3 AB = 0.5 * (A + B), BC = 0.5 * (B + C), CA = 0.5 * (C + A);
        if (k == 0) bary = {A, AB, CA};
        if (k == 1) bary = {AB, B, BC};
        if (k == 2) bary = {CA, BC, C};
        if (k == 3) bary = {AB, BC, CA};
        f = 4 * f + k;
      }
      const int j = path % 4 == 0 ? (path / 4) % 3 : corner(rng);
      const int vertex = L.back().F[f][j];
      const Vec3& lam = bary[j];
      const Vec2 vw(lam[(r + 1) % 3], lam[(r + 2) % 3]);
      const Vec3 expected = ref_limit(L.back(), nb, vertex);
      worst = std::max(worst, (s.evaluate(p, vw).p - expected).norm());
    }
  }
  return worst;
}

// every partial of the jet against central differences of the next lower order
double max_fd_error(const LoopSurface& s, int patch, const Vec2& uv) {
  const double h = 1e-5;
  const Vec2 du(h, 0), dv(0, h);
  const SurfaceJet j = s.evaluate(patch, uv);
  const SurfaceJet up = s.evaluate(patch, uv + du), um = s.evaluate(patch, uv - du);
  const SurfaceJet vp = s.evaluate(patch, uv + dv), vm = s.evaluate(patch, uv - dv);
  auto rel = [](const Vec3& fd, const Vec3& exact) {
    return (fd - exact).norm() / std::max(1.0, exact.norm());
  };
  double e = 0.0;
  e = std::max(e, rel((up.p - um.p) / (2 * h), j.p_u));
  e = std::max(e, rel((vp.p - vm.p) / (2 * h), j.p_v));
  e = std::max(e, rel((up.p_u - um.p_u) / (2 * h), j.p_uu));
  e = std::max(e, rel((vp.p_u - vm.p_u) / (2 * h), j.p_uv));
  e = std::max(e, rel((vp.p_v - vm.p_v) / (2 * h), j.p_vv));
  e = std::max(e, rel((up.p_uu - um.p_uu) / (2 * h), j.p_uuu));
  e = std::max(e, rel((vp.p_uu - vm.p_uu) / (2 * h), j.p_uuv));
  e = std::max(e, rel((up.p_vv - um.p_vv) / (2 * h), j.p_uvv));
  e = std::max(e, rel((vp.p_vv - vm.p_vv) / (2 * h), j.p_vvv));
  return e;
}

struct EdgeErrors {
  double position = 0.0, normal = 0.0;
  int edges = 0;
};

// both sides of every linked edge: the same point and the same unit normal
EdgeErrors edge_continuity(const LoopSurface& s) {
  EdgeErrors out;
  for (int p = 0; p < s.patch_count(); ++p)
    for (int e = 0; e < 3; ++e) {
      const PatchEdgeLink link = s.neighbour(p, e);
      REQUIRE_FALSE(link.open());
      const PatchEdgeLink back = s.neighbour(link.patch, link.edge);
      REQUIRE(back.patch == p);
      REQUIRE(back.edge == e);
      ++out.edges;
      for (const double alpha : {0.01, 0.25, 0.5, 0.73, 0.99}) {
        const SurfaceJet a = s.evaluate(p, s.domain(p).edge_point(e, alpha));
        const std::optional<SurfacePoint> q = across_edge(s, p, e, alpha);
        REQUIRE(q);
        const SurfaceJet b = s.evaluate(q->patch, q->uv);
        out.position = std::max(out.position, (a.p - b.p).norm());
        const Vec3 na = a.p_u.cross(a.p_v).normalized(), nb = b.p_u.cross(b.p_v).normalized();
        out.normal = std::max(out.normal, (na - nb).norm());
      }
    }
  return out;
}

}  // namespace

TEST_CASE("Loop box-spline basis: partition of unity and linear precision", "[collision][loop]") {
  // a flat regular grid whose points are their lattice coordinates: the box spline
  // reproduces linear functions (and the 12 points' order decides which linear function)
  const int n = 8;
  std::vector<Vec3> pts;
  std::vector<std::array<int, 3>> tris;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) pts.emplace_back(i, j, 0.0);
  auto id = [&](int i, int j) { return i * n + j; };
  for (int i = 0; i + 1 < n; ++i)
    for (int j = 0; j + 1 < n; ++j) {
      tris.push_back({id(i, j), id(i + 1, j), id(i, j + 1)});
      tris.push_back({id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  const LoopSurface plane(pts, tris, "plane grid");
  REQUIRE(plane.patch_count() > 0);
  for (int p = 0; p < plane.patch_count(); ++p) {
    const auto& c = plane.patch_corners(p);
    REQUIRE(plane.patch_valence(p) == 6);
    for (const Vec2& vw : {Vec2(0.1, 0.2), Vec2(0.5, 0.5), Vec2(0.7, 0.05), Vec2(0, 0)}) {
      const Vec3 expected =
          (1 - vw.x() - vw.y()) * pts[c[0]] + vw.x() * pts[c[1]] + vw.y() * pts[c[2]];
      const SurfaceJet j = plane.evaluate(p, vw);
      CHECK((j.p - expected).norm() < 1e-13);
      CHECK((j.p_u - (pts[c[1]] - pts[c[0]])).norm() < 1e-13);
      CHECK((j.p_v - (pts[c[2]] - pts[c[0]])).norm() < 1e-13);
      CHECK(j.p_uu.norm() + j.p_uv.norm() + j.p_vv.norm() + j.p_uuu.norm() < 1e-12);
    }
  }
}

TEST_CASE("Loop regular patches equal the limit-point masks of repeated subdivision",
          "[collision][loop]") {
  RefMesh m = torus_grid(9, 7);
  perturb(m, 0.1, 7);
  const LoopSurface s = surface_of(m);
  REQUIRE(s.patch_count() == static_cast<int>(m.F.size()));
  REQUIRE_FALSE(s.subdivided());
  // at the patch corners (level 0): the limit masks of the control mesh itself
  const auto nb = ref_neighbours(m);
  double corner_error = 0.0;
  for (int p = 0; p < s.patch_count(); ++p) {
    const auto& c = s.patch_corners(p);
    corner_error =
        std::max(corner_error, (s.evaluate(p, Vec2(0, 0)).p - ref_limit(m, nb, c[0])).norm());
    corner_error =
        std::max(corner_error, (s.evaluate(p, Vec2(1, 0)).p - ref_limit(m, nb, c[1])).norm());
    corner_error =
        std::max(corner_error, (s.evaluate(p, Vec2(0, 1)).p - ref_limit(m, nb, c[2])).norm());
  }
  CHECK(corner_error < 1e-14);
  // at dyadic points 4 levels down
  CHECK(max_error_against_subdivision(m, s, 4, 6, 11) < 1e-13);
}

TEST_CASE("Loop patches with an extraordinary vertex (Stam) equal repeated subdivision",
          "[collision][loop]") {
  // one reference step first, so that no triangle has two EVs; then the surface is built on
  // that mesh without a step of its own, and compared 6 levels further down
  struct Case {
    const char* name;
    RefMesh mesh;
  };
  for (Case c : {Case{"tetrahedron (valence 3)", tetrahedron()},
                 Case{"octahedron (valence 4)", octahedron()},
                 Case{"bipyramid (valences 4 and 5)", bipyramid(5)},
                 Case{"bipyramid (valences 4 and 9)", bipyramid(9)}}) {
    INFO(c.name);
    RefMesh m1 = ref_subdivide(c.mesh);
    perturb(m1, 0.05, 3);
    const LoopSurface s = surface_of(m1);
    REQUIRE_FALSE(s.subdivided());
    int ev_patches = 0;
    for (int p = 0; p < s.patch_count(); ++p) ev_patches += s.patch_valence(p) != 6;
    CHECK(ev_patches > 0);
    const double err = max_error_against_subdivision(m1, s, 6, 8, 5);
    CHECK(err < 1e-12);
    // the limit point at the EV itself: the nearest evaluated point (v + w = 2^-40)
    const auto nb = ref_neighbours(m1);
    for (int p = 0; p < s.patch_count(); ++p)
      if (s.patch_valence(p) != 6)
        CHECK((s.evaluate(p, Vec2(0, 0)).p - ref_limit(m1, nb, s.patch_corners(p)[0])).norm() <
              1e-9);
  }
}

TEST_CASE("Loop surfaces: one global subdivision when a triangle has two EVs",
          "[collision][loop]") {
  const RefMesh m = octahedron();
  const LoopSurface s = surface_of(m);
  CHECK(s.subdivided());
  CHECK(s.patch_count() == 32);
  // the same control points as the reference's step (as a set)
  const RefMesh m1 = ref_subdivide(m);
  auto key = [](const Vec3& p) {
    return std::array<long long, 3>{std::llround(p.x() * 1e9), std::llround(p.y() * 1e9),
                                    std::llround(p.z() * 1e9)};
  };
  std::set<std::array<long long, 3>> a, b;
  for (const Vec3& p : s.control_points()) a.insert(key(p));
  for (const Vec3& p : m1.P) b.insert(key(p));
  CHECK(a == b);
}

TEST_CASE("Loop surface derivatives to third order match finite differences", "[collision][loop]") {
  RefMesh m1 = ref_subdivide(bipyramid(7));
  perturb(m1, 0.05, 9);
  const LoopSurface s = surface_of(m1);
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> d(0.0, 1.0);
  double regular = 0.0, ev = 0.0;
  for (int p = 0; p < s.patch_count(); ++p)
    for (int k = 0; k < 3; ++k) {
      // away from the sub-triangle boundaries of an EV patch (third derivatives jump there)
      Vec2 uv(d(rng), d(rng));
      if (uv.sum() > 1.0) uv = Vec2(1.0, 1.0) - uv;
      uv = 0.05 + 0.85 * uv.array();
      if (s.patch_valence(p) != 6) {
        if (uv.x() + uv.y() > 0.47 && uv.x() + uv.y() < 0.53) uv *= 0.8;
        if (std::abs(uv.x() - 0.5) < 0.02 || std::abs(uv.y() - 0.5) < 0.02) uv *= 0.9;
      }
      const double e = max_fd_error(s, p, uv);
      (s.patch_valence(p) == 6 ? regular : ev) =
          std::max(s.patch_valence(p) == 6 ? regular : ev, e);
    }
  CHECK(regular < 1e-6);
  CHECK(ev < 1e-5);
}

TEST_CASE("Loop surfaces are C1 across every patch edge", "[collision][loop]") {
  for (const RefMesh& base : {ref_subdivide(bipyramid(8)), ref_subdivide(tetrahedron())}) {
    RefMesh m = base;
    perturb(m, 0.05, 21);
    const LoopSurface s = surface_of(m);
    const EdgeErrors e = edge_continuity(s);
    CHECK(e.edges == 3 * s.patch_count());
    CHECK(e.position < 1e-12);
    CHECK(e.normal < 1e-9);
  }
}

TEST_CASE("Loop surfaces: open meshes end at their boundary; bad meshes are errors",
          "[collision][loop]") {
  // a flat 6 × 6 grid: only triangles away from the border are patches
  const int n = 6;
  std::vector<Vec3> pts;
  std::vector<std::array<int, 3>> tris;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) pts.emplace_back(i, j, 0.0);
  auto id = [&](int i, int j) { return i * n + j; };
  for (int i = 0; i + 1 < n; ++i)
    for (int j = 0; j + 1 < n; ++j) {
      tris.push_back({id(i, j), id(i + 1, j), id(i, j + 1)});
      tris.push_back({id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  const LoopSurface s(pts, tris, "grid");
  int open = 0;
  for (int p = 0; p < s.patch_count(); ++p)
    for (int e = 0; e < 3; ++e) open += s.neighbour(p, e).open();
  CHECK(open > 0);
  CHECK(s.patch_count() < static_cast<int>(tris.size()));

  // the grid wound the other way is as open: kept (its winding picks the side that touches)
  std::vector<std::array<int, 3>> reversed = tris;
  for (auto& t : reversed) std::swap(t[1], t[2]);
  CHECK_NOTHROW(LoopSurface(pts, reversed, "grid reversed"));

  // a closed mesh wound inward: the unit octahedron (volume 4/3 m³, Σ a·(b×c)/6 = +4/3 wound
  // outward) with every triangle reversed, −4/3
  auto inward = octahedron();
  for (auto& t : inward.F) std::swap(t[1], t[2]);
  CHECK_THROWS_WITH(LoopSurface(inward.P, inward.F, "inward"),
                    Catch::Contains("inward") && Catch::Contains("-1.33333 m³"));
  CHECK_NOTHROW(LoopSurface(octahedron().P, octahedron().F, "outward"));

  // a flipped triangle: the shared edge runs the same way twice
  auto flipped = octahedron();
  std::swap(flipped.F[0][0], flipped.F[0][1]);
  CHECK_THROWS_AS(LoopSurface(flipped.P, flipped.F, "flipped"), Error);
  CHECK_THROWS_WITH(LoopSurface(flipped.P, flipped.F, "flipped"),
                    Catch::Contains("flipped") && Catch::Contains("same direction"));
  // an index out of range in the second or third place is refused before it is used (the
  // constructor once wrote to neighbours[b] before checking b)
  for (const int bad : {-1, 6, 1000}) {
    auto broken = octahedron();
    broken.F[0][1] = bad;
    CHECK_THROWS_WITH(LoopSurface(broken.P, broken.F, "broken"), Catch::Contains("out of range"));
    broken = octahedron();
    broken.F[0][2] = bad;
    CHECK_THROWS_WITH(LoopSurface(broken.P, broken.F, "broken"), Catch::Contains("out of range"));
  }
  // one lone triangle has no interior vertex
  CHECK_THROWS_WITH(LoopSurface({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {{0, 1, 2}}, "one"),
                    Catch::Contains("no triangle"));
  // the OBJ reader names the file
  const auto dir = std::filesystem::temp_directory_path() / "pivot_loop_test";
  std::filesystem::create_directories(dir);
  const auto obj = (dir / "bad.obj").string();
  std::ofstream(obj) << "v 0 0 0\nv 1 0 0\nf 1 2 7\n";
  CHECK_THROWS_WITH(load_loop_surface(obj), Catch::Contains("bad.obj"));
}
