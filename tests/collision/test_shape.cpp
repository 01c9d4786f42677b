// collision/shape.hpp: factories' validation, OBJ loading, and mass properties against closed
// forms and independent formulas.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>
#include <string>

#include "pivot/collision/shape.hpp"
#include "pivot/core/error.hpp"

using namespace pivot;
using Catch::Matchers::Contains;

namespace {

constexpr double pi = std::numbers::pi;

/// relative closeness of two matrices
bool close_m(const Mat3& a, const Mat3& b, double rel) {
  return (a - b).norm() <= rel * std::max(1.0, b.norm());
}
bool close_v(const Vec3& a, const Vec3& b, double tol) {
  return (a - b).norm() <= tol;
}

/// a temporary folder for the test's files
std::filesystem::path temp_dir() {
  auto dir = std::filesystem::temp_directory_path() / "pivot_test_collision";
  std::filesystem::create_directories(dir);
  return dir;
}

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = temp_dir() / name;
  std::ofstream(path) << text;
  return path.string();
}

/// Composite Simpson on [a, b] with n (even) intervals
template <class F>
double simpson(F f, double a, double b, int n) {
  const double h = (b - a) / n;
  double s = f(a) + f(b);
  for (int i = 1; i < n; ++i) s += (i % 2 ? 4.0 : 2.0) * f(a + i * h);
  return s * h / 3.0;
}

}  // namespace

TEST_CASE("shape type names are the scene-file words", "[shape]") {
  CHECK(std::string(to_string(ShapeType::sphere)) == "sphere");
  CHECK(std::string(to_string(ShapeType::box)) == "box");
  CHECK(std::string(to_string(ShapeType::capsule)) == "capsule");
  CHECK(std::string(to_string(ShapeType::cylinder)) == "cylinder");
  CHECK(std::string(to_string(ShapeType::ellipsoid)) == "ellipsoid");
  CHECK(std::string(to_string(ShapeType::convex)) == "convex");
  CHECK(std::string(to_string(ShapeType::plane)) == "plane");
  CHECK(std::string(to_string(ShapeType::mesh)) == "mesh");
  CHECK(std::string(to_string(ShapeType::compound)) == "compound");
}

TEST_CASE("factories reject bad sizes with a message naming the problem", "[shape]") {
  const double nan = std::nan(""), inf = INFINITY;
  CHECK_THROWS_WITH(make_sphere(0.0), Contains("sphere") && Contains("radius"));
  CHECK_THROWS_AS(make_sphere(-1.0), Error);
  CHECK_THROWS_AS(make_sphere(nan), Error);
  CHECK_THROWS_AS(make_sphere(inf), Error);
  CHECK_THROWS_WITH(make_box(Vec3(1, 0, 1)), Contains("box") && Contains("half extents"));
  CHECK_THROWS_AS(make_box(Vec3(1, nan, 1)), Error);
  CHECK_THROWS_WITH(make_capsule(0.1, -1.0), Contains("capsule") && Contains("half length"));
  CHECK_THROWS_AS(make_capsule(0.0, 1.0), Error);
  CHECK_THROWS_AS(make_cylinder(0.1, 0.0), Error);
  CHECK_THROWS_AS(make_cylinder(inf, 1.0), Error);
  CHECK_THROWS_WITH(make_ellipsoid(Vec3(1, 2, -3)), Contains("ellipsoid"));
  CHECK_NOTHROW(make_sphere(1e-6));
  CHECK(make_box(Vec3(1, 2, 3))->half_extents == Vec3(1, 2, 3));
}

TEST_CASE("convex shapes need 4 finite points that span a volume", "[shape]") {
  CHECK_THROWS_WITH(make_convex({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}),
                    Contains("convex") && Contains("at least 4"));
  CHECK_THROWS_WITH(
      make_convex({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0), Vec3(0.5, 0.2, 0)}),
      Contains("coplanar"));
  CHECK_THROWS_WITH(make_convex({Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2), Vec3(3, 3, 3)}),
                    Contains("collinear"));
  CHECK_THROWS_WITH(make_convex({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, NAN)}),
                    Contains("not finite"));
  const auto tet = make_convex({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)});
  CHECK(tet->type == ShapeType::convex);
  CHECK(tet->points.size() == 4);
}

TEST_CASE("planes normalize their normal and reject a zero one", "[shape]") {
  CHECK_THROWS_WITH(make_plane(Vec3::Zero(), 0.0), Contains("plane") && Contains("zero"));
  CHECK_THROWS_AS(make_plane(Vec3(0, 0, 1), NAN), Error);
  const auto p = make_plane(Vec3(0, 0, 2), 1.5);
  CHECK(p->normal == Vec3(0, 0, 1));
  CHECK(p->offset == 1.5);
}

TEST_CASE("meshes check their indices, compounds their children", "[shape]") {
  const std::vector<Vec3> v = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  CHECK_THROWS_WITH(make_mesh(v, {{0, 1, 3}}, "floor.obj"),
                    Contains("floor.obj") && Contains("out of range"));
  CHECK_THROWS_AS(make_mesh(v, {{-1, 1, 2}}, ""), Error);
  CHECK_THROWS_AS(make_mesh(v, {}, ""), Error);
  CHECK(make_mesh(v, {{0, 1, 2}}, "")->triangles.size() == 1);
  CHECK_THROWS_WITH(make_compound({}), Contains("compound"));
  CHECK_THROWS_WITH(make_compound({CompoundChild{make_plane(Vec3::UnitZ(), 0.0)}}),
                    Contains("plane"));
  CHECK_THROWS_AS(make_compound({CompoundChild{nullptr}}), Error);
}

TEST_CASE("OBJ meshes: v/f lines in every face form, negative indices, polygons fanned",
          "[shape][obj]") {
  // a unit cube: quads in the four face-vertex forms, one face with negative indices
  const std::string path = write_file("cube.obj", R"(# a cube
o cube
v -0.5 -0.5 -0.5
v  0.5 -0.5 -0.5
v  0.5  0.5 -0.5
v -0.5  0.5 -0.5
v -0.5 -0.5  0.5
v  0.5 -0.5  0.5
v  0.5  0.5  0.5
v -0.5  0.5  0.5
vt 0 0
vn 0 0 1
s off
f 1 4 3 2
f 5/1 6/1 7/1 8/1
f 1/1/1 2/1/1 6/1/1 5/1/1
f 2//1 3//1 7//1 6//1
f -5 -1 -2 -6
f 4 1 5 8
)");
  const auto mesh = load_mesh_file(path);
  REQUIRE(mesh->type == ShapeType::mesh);
  CHECK(mesh->source == path);
  CHECK(mesh->points.size() == 8);
  REQUIRE(mesh->triangles.size() == 12);
  // the 5th face, f -5 -1 -2 -6 with 8 vertices read, is 3 7 6 2 (0-based)... fanned:
  CHECK(mesh->triangles[8] == std::array<int, 3>{3, 7, 6});
  CHECK(mesh->triangles[9] == std::array<int, 3>{3, 6, 2});
  // closed and outward: the signed volume of the triangles is the cube's, 1
  double volume = 0.0;
  for (const auto& t : mesh->triangles)
    volume += mesh->points[t[0]].dot(mesh->points[t[1]].cross(mesh->points[t[2]])) / 6.0;
  CHECK(volume == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("OBJ errors name the file and the line", "[shape][obj]") {
  const std::string missing = (temp_dir() / "no_such_file.obj").string();
  CHECK_THROWS_WITH(load_mesh_file(missing), Contains("no_such_file.obj"));
  const std::string bad_index = write_file("bad_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n");
  CHECK_THROWS_WITH(load_mesh_file(bad_index),
                    Contains("bad_index.obj:4") && Contains("out of range"));
  const std::string zero_index =
      write_file("zero_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n");
  CHECK_THROWS_WITH(load_mesh_file(zero_index), Contains("zero_index.obj:4"));
  const std::string bad_number = write_file("bad_number.obj", "v 0 0 0\nv 1 x 0\n");
  CHECK_THROWS_WITH(load_mesh_file(bad_number), Contains("bad_number.obj:2") && Contains("\"x\""));
  const std::string short_face = write_file("short_face.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n");
  CHECK_THROWS_WITH(load_mesh_file(short_face), Contains("short_face.obj:3"));
  const std::string no_faces = write_file("no_faces.obj", "v 0 0 0\n");
  CHECK_THROWS_WITH(load_mesh_file(no_faces), Contains("no_faces.obj") && Contains("no faces"));
}

TEST_CASE("mass properties of the primitives match the closed forms", "[shape][mass]") {
  const double rho = 1250.0;
  SECTION("sphere: 2/5 m r^2") {
    const double r = 0.3;
    const auto mp = mass_properties(*make_sphere(r), rho);
    const double m = rho * 4.0 / 3.0 * pi * r * r * r;
    CHECK(mp.mass == Approx(m).epsilon(1e-14));
    CHECK(close_m(mp.inertia, Mat3::Identity() * 0.4 * m * r * r, 1e-14));
    CHECK(mp.com_S == Vec3::Zero());
  }
  SECTION("box: m (b^2 + c^2) / 12") {
    const Vec3 h(0.5, 1.0, 1.5);
    const auto mp = mass_properties(*make_box(h), rho);
    const double a = 1.0, b = 2.0, c = 3.0, m = rho * a * b * c;
    CHECK(mp.volume == Approx(6.0).epsilon(1e-14));
    CHECK(mp.mass == Approx(m).epsilon(1e-14));
    CHECK(close_m(mp.inertia,
                  Vec3(m * (b * b + c * c), m * (a * a + c * c), m * (a * a + b * b))
                          .asDiagonal()
                          .toDenseMatrix() /
                      12.0,
                  1e-14));
  }
  SECTION("cylinder: m r^2/2 about z, m (3r^2 + L^2)/12 across") {
    const double r = 0.2, h = 0.7, L = 2 * h;
    const auto mp = mass_properties(*make_cylinder(r, h), rho);
    const double m = rho * pi * r * r * L;
    CHECK(mp.mass == Approx(m).epsilon(1e-14));
    CHECK(close_m(mp.inertia,
                  Vec3(m * (3 * r * r + L * L) / 12, m * (3 * r * r + L * L) / 12, m * r * r / 2)
                      .asDiagonal(),
                  1e-14));
  }
  SECTION("ellipsoid: m (b^2 + c^2) / 5") {
    const Vec3 a(0.3, 0.5, 0.9);
    const auto mp = mass_properties(*make_ellipsoid(a), rho);
    const double m = rho * 4.0 / 3.0 * pi * a.x() * a.y() * a.z();
    CHECK(mp.mass == Approx(m).epsilon(1e-14));
    CHECK(close_m(mp.inertia,
                  Vec3(m * (a.y() * a.y() + a.z() * a.z()), m * (a.x() * a.x() + a.z() * a.z()),
                       m * (a.x() * a.x() + a.y() * a.y()))
                          .asDiagonal()
                          .toDenseMatrix() /
                      5.0,
                  1e-14));
  }
  SECTION("capsule: against slicing into discs, integrated numerically") {
    // radius of the slice at height z; a disc of radius s contributes π s² dz of volume,
    // π s⁴/2 dz to Izz and π s² (s²/4 + z²) dz to Ixx
    const double r = 0.25, h = 0.6;
    auto s = [&](double z) {
      const double over = std::abs(z) - h;
      return over <= 0.0 ? r : std::sqrt(std::max(0.0, r * r - over * over));
    };
    // integrate piecewise so the kinks at |z| = h do not cost accuracy; the caps' sqrt edge is
    // handled by substituting z = h + r sin(t)
    auto piece = [&](auto f) {
      const double mid = simpson([&](double z) { return f(z, s(z)); }, -h, h, 200);
      const double cap = simpson(
          [&](double t) {
            const double z = h + r * std::sin(t);
            return f(z, r * std::cos(t)) * r * std::cos(t);
          },
          0.0, pi / 2, 2000);
      return mid + 2.0 * cap;  // both caps are mirror images (even integrands)
    };
    const double V = piece([](double, double sr) { return pi * sr * sr; });
    const double Izz = rho * piece([](double, double sr) { return pi * std::pow(sr, 4) / 2.0; });
    const double Ixx =
        rho * piece([](double z, double sr) { return pi * sr * sr * (sr * sr / 4.0 + z * z); });
    const auto mp = mass_properties(*make_capsule(r, h), rho);
    CHECK(mp.volume == Approx(pi * r * r * 2 * h + 4.0 / 3.0 * pi * r * r * r).epsilon(1e-14));
    CHECK(mp.volume == Approx(V).epsilon(1e-10));
    CHECK(mp.inertia(2, 2) == Approx(Izz).epsilon(1e-10));
    CHECK(mp.inertia(0, 0) == Approx(Ixx).epsilon(1e-10));
    CHECK(mp.inertia(1, 1) == Approx(Ixx).epsilon(1e-10));
    CHECK(mp.com_S == Vec3::Zero());
  }
  SECTION("plane and mesh have no finite volume") {
    CHECK_THROWS_WITH(mass_properties(*make_plane(Vec3::UnitZ(), 0.0), rho), Contains("plane"));
    const auto mesh = make_mesh({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {{0, 1, 2}}, "");
    CHECK_THROWS_WITH(mass_properties_for_mass(*mesh, 1.0), Contains("mesh"));
    CHECK_THROWS_AS(mass_properties(*make_sphere(1.0), 0.0), Error);
    CHECK_THROWS_AS(mass_properties_for_mass(*make_sphere(1.0), -2.0), Error);
  }
}

TEST_CASE("mass_properties_for_mass scales to the given mass", "[shape][mass]") {
  const auto box = make_box(Vec3(0.1, 0.2, 0.3));
  const auto mp = mass_properties_for_mass(*box, 3.0);
  CHECK(mp.mass == 3.0);
  CHECK(mp.inertia(0, 0) == Approx(3.0 * (0.16 + 0.36) / 12.0).epsilon(1e-14));
  CHECK(mp.volume == Approx(0.048).epsilon(1e-14));
}

TEST_CASE("convex hulls: a box's corners give the box", "[shape][mass][convex]") {
  const Vec3 h(0.4, 0.7, 1.1), centre(0.3, -2.0, 5.0);
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i)
    corners.push_back(centre + Vec3((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(),
                                    (i & 4) ? h.z() : -h.z()));
  const auto hull = mass_properties(*make_convex(corners), 700.0);
  const auto box = mass_properties(*make_box(h), 700.0);
  CHECK(hull.mass == Approx(box.mass).epsilon(1e-12));
  CHECK(hull.volume == Approx(box.volume).epsilon(1e-12));
  CHECK(close_v(hull.com_S, centre, 1e-12));
  CHECK(close_m(hull.inertia, box.inertia, 1e-12));
}

TEST_CASE("convex hulls: random interior points and a cube's corners give the cube",
          "[shape][mass][convex]") {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-0.999, 0.999);
  std::vector<Vec3> points;
  for (int i = 0; i < 300; ++i) points.emplace_back(u(gen), u(gen), u(gen));
  for (int i = 0; i < 8; ++i)
    points.emplace_back((i & 1) ? 1.0 : -1.0, (i & 2) ? 1.0 : -1.0, (i & 4) ? 1.0 : -1.0);
  // points on the faces, edges too (coplanar with hull faces)
  for (int i = 0; i < 50; ++i) points.emplace_back(1.0, u(gen), u(gen));
  for (int i = 0; i < 50; ++i) points.emplace_back(u(gen), -1.0, 1.0);
  const auto hull = mass_properties(*make_convex(points), 1.0);
  const auto cube = mass_properties(*make_box(Vec3(1, 1, 1)), 1.0);
  CHECK(hull.volume == Approx(8.0).epsilon(1e-12));
  CHECK(close_v(hull.com_S, Vec3::Zero(), 1e-12));
  CHECK(close_m(hull.inertia, cube.inertia, 1e-12));
}

TEST_CASE("an off-centre tetrahedron against the affine-map formula", "[shape][mass][convex]") {
  // Independent formula: x = v0 + J ξ maps the canonical tetrahedron {ξ ≥ 0, Σξ ≤ 1} onto it,
  // so V = |det J|/6, com = mean of the vertices and the central second moment is
  // ρ |det J| J C0 Jᵀ with C0 = (1/480) [[3,-1,-1],[-1,3,-1],[-1,-1,3]] for the canonical one.
  const Vec3 v0(1.0, 2.0, 3.0), v1(2.5, 2.2, 3.1), v2(1.3, 3.9, 2.7), v3(0.8, 2.4, 4.6);
  const double rho = 2.7;
  Mat3 J;
  J << v1 - v0, v2 - v0, v3 - v0;
  Mat3 C0;
  C0 << 3, -1, -1, -1, 3, -1, -1, -1, 3;
  C0 /= 480.0;
  const Mat3 cov = rho * std::abs(J.determinant()) * J * C0 * J.transpose();
  const Mat3 inertia = cov.trace() * Mat3::Identity() - cov;
  const auto mp = mass_properties(*make_convex({v0, v1, v2, v3}), rho);
  CHECK(mp.volume == Approx(std::abs(J.determinant()) / 6.0).epsilon(1e-13));
  CHECK(mp.mass == Approx(rho * std::abs(J.determinant()) / 6.0).epsilon(1e-13));
  CHECK(close_v(mp.com_S, (v0 + v1 + v2 + v3) / 4.0, 1e-13));
  CHECK(close_m(mp.inertia, inertia, 1e-12));
}

TEST_CASE("a compound of two boxes equals one box", "[shape][mass][compound]") {
  // the +x half is given as a box (0.5, 0.25, 0.5) turned 90° about x, which is (0.5, 0.5, 0.25)
  const CompoundChild left{make_box(Vec3(0.5, 0.5, 0.25)), Vec3(-0.5, 0.0, 0.0), Quat::Identity()};
  const CompoundChild right{make_box(Vec3(0.5, 0.25, 0.5)), Vec3(0.5, 0.0, 0.0),
                            Quat(Eigen::AngleAxisd(pi / 2, Vec3::UnitX()))};
  const auto compound = mass_properties(*make_compound({left, right}), 3.0);
  const auto box = mass_properties(*make_box(Vec3(1.0, 0.5, 0.25)), 3.0);
  CHECK(compound.mass == Approx(box.mass).epsilon(1e-14));
  CHECK(close_v(compound.com_S, Vec3::Zero(), 1e-14));
  CHECK(close_m(compound.inertia, box.inertia, 1e-13));

  // shifted: the centre of mass moves with the children, the inertia about it does not
  const Vec3 shift(2.0, -1.0, 0.5);
  const CompoundChild l2{left.shape, left.position + shift, left.orientation};
  const CompoundChild r2{right.shape, right.position + shift, right.orientation};
  const auto moved = mass_properties_for_mass(*make_compound({l2, r2}), 10.0);
  CHECK(close_v(moved.com_S, shift, 1e-13));
  CHECK(close_m(moved.inertia,
                mass_properties_for_mass(*make_box(Vec3(1.0, 0.5, 0.25)), 10.0).inertia, 1e-13));
}

TEST_CASE("a compound's centre of mass is the mass-weighted mean of its children",
          "[shape][mass][compound]") {
  const auto big = make_sphere(1.0), small = make_sphere(0.5);
  const auto mp =
      mass_properties(*make_compound({{big, Vec3(0, 0, 0)}, {small, Vec3(3, 0, 0)}}), 1.0);
  // masses 1 : 1/8
  CHECK(close_v(mp.com_S, Vec3(3.0 / 9.0, 0, 0), 1e-14));
  const double m1 = 4.0 / 3.0 * pi, m2 = m1 / 8.0;
  const double d1 = 3.0 / 9.0, d2 = 3.0 - d1;
  CHECK(mp.inertia(1, 1) ==
        Approx(0.4 * m1 + 0.4 * m2 * 0.25 + m1 * d1 * d1 + m2 * d2 * d2).epsilon(1e-14));
  CHECK(mp.inertia(0, 0) == Approx(0.4 * m1 + 0.4 * m2 * 0.25).epsilon(1e-14));
}
