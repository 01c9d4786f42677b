#include "pivot/collision/shape.hpp"

#include <cmath>
#include <numbers>
#include <optional>

#include <fmt/core.h>

#include "pivot/collision/convex_decomposition.hpp"
#include "pivot/collision/convex_hull.hpp"
#include "pivot/collision/mesh_file.hpp"
#include "pivot/collision/planar_shape.hpp"
#include "pivot/collision/sdf_model.hpp"
#include "pivot/core/error.hpp"

namespace pivot {

const char* to_string(ShapeType type) {
  if (type == ShapeType::planar) return "planar";
  for (const ShapeTypeName& entry : kShapeTypeNames)
    if (entry.type == type) return entry.name;
  return "unknown";
}

std::optional<ShapeType> shape_type_from_name(std::string_view name) {
  for (const ShapeTypeName& entry : kShapeTypeNames)
    if (name == entry.name) return entry.type;
  return std::nullopt;
}

namespace {

void check_size(const char* shape, const char* what, double value) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw Error(fmt::format("{}: {} must be positive and finite (got {})", shape, what, value));
}

void check_sizes(const char* shape, const char* what, const Vec3& v) {
  if (!(v.minCoeff() > 0.0) || !v.allFinite())
    throw Error(fmt::format("{}: {} must be positive and finite (got [{}, {}, {}])", shape, what,
                            v.x(), v.y(), v.z()));
}

}  // namespace

ShapePtr make_sphere(double radius) {
  check_size("sphere", "radius", radius);
  auto s = std::make_shared<Shape>();
  s->type = ShapeType::sphere;
  s->radius = radius;
  return s;
}

ShapePtr make_box(const Vec3& half_extents) {
  check_sizes("box", "half extents", half_extents);
  auto s = std::make_shared<Shape>();
  s->type = ShapeType::box;
  s->half_extents = half_extents;
  return s;
}

ShapePtr make_capsule(double radius, double half_length) {
  check_size("capsule", "radius", radius);
  // half length 0 is a sphere-shaped capsule (docs/scene-format.md): legitimate
  if (!(half_length >= 0.0) || !std::isfinite(half_length))
    throw Error(fmt::format("capsule: half length must be finite and >= 0 (got {})", half_length));
  auto s = std::make_shared<Shape>();
  s->type = ShapeType::capsule;
  s->radius = radius;
  s->half_length = half_length;
  return s;
}

ShapePtr make_cylinder(double radius, double half_length) {
  check_size("cylinder", "radius", radius);
  check_size("cylinder", "half length", half_length);
  auto s = std::make_shared<Shape>();
  s->type = ShapeType::cylinder;
  s->radius = radius;
  s->half_length = half_length;
  return s;
}

ShapePtr make_ellipsoid(const Vec3& radii) {
  check_sizes("ellipsoid", "radii", radii);
  auto s = std::make_shared<Shape>();
  s->type = ShapeType::ellipsoid;
  s->radii = radii;
  return s;
}

ShapePtr make_convex(std::vector<Vec3> points) {
  auto s = std::make_shared<Shape>();
  try {
    // validates (≥ 4 finite points, not coplanar, within the hull's bounds) and is kept: the
    // mass properties and the collision shape use this one hull instead of building their own
    s->hull = std::make_shared<const detail::ConvexHull>(detail::convex_hull(points));
  } catch (const Error& e) {
    throw Error(fmt::format("convex shape: {}", e.what()));
  }
  s->type = ShapeType::convex;
  s->points = std::move(points);
  return s;
}

namespace detail {
const ConvexHull& hull_of(const Shape& shape, ConvexHull& storage) {
  if (shape.hull) return *shape.hull;
  storage = convex_hull(shape.points);
  return storage;
}
}  // namespace detail

ShapePtr make_planar(std::shared_ptr<const PlanarShape> shape) {
  if (!shape) throw Error("planar shape: null");
  auto s = std::make_shared<Shape>();
  s->type = ShapeType::planar;
  s->planar = std::move(shape);
  return s;
}

ShapePtr make_plane(const Vec3& normal, double offset) {
  if (!normal.allFinite() || !std::isfinite(offset))
    throw Error("plane: normal and offset must be finite");
  const double length = normal.norm();
  if (!(length > 1e-12))
    throw Error(fmt::format("plane: normal must not be zero (got [{}, {}, {}])", normal.x(),
                            normal.y(), normal.z()));
  auto s = std::make_shared<Shape>();
  s->type = ShapeType::plane;
  // n·x = offset with n unit: the offset is a distance along the normalized normal
  s->normal = normal / length;
  s->offset = offset;
  return s;
}

namespace {
/// every vertex finite and every triangle's indices in range, else pivot::Error naming `who`
void check_triangles(const std::string& who, const std::vector<Vec3>& vertices,
                     const std::vector<std::array<int, 3>>& triangles) {
  for (std::size_t i = 0; i < vertices.size(); ++i)
    if (!vertices[i].allFinite()) throw Error(fmt::format("{}: vertex {} is not finite", who, i));
  const int nv = static_cast<int>(vertices.size());
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (const int i : triangles[t])
      if (i < 0 || i >= nv)
        throw Error(
            fmt::format("{}: triangle {} has vertex index {} out of range [0, {})", who, t, i, nv));
}
}  // namespace

ShapePtr make_mesh(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles,
                   std::string source) {
  const std::string who = source.empty() ? std::string("mesh") : fmt::format("mesh \"{}\"", source);
  if (vertices.empty() || triangles.empty())
    throw Error(fmt::format("{}: needs at least one triangle (got {} vertices, {} triangles)", who,
                            vertices.size(), triangles.size()));
  check_triangles(who, vertices, triangles);
  auto s = std::make_shared<Shape>();
  s->type = ShapeType::mesh;
  s->points = std::move(vertices);
  s->triangles = std::move(triangles);
  s->source = std::move(source);
  return s;
}

std::vector<Vec3> load_mesh_points(const std::string& path, const Vec3& scale) {
  return detail::read_mesh_file(path, scale).vertices;
}

ShapePtr load_mesh_file(const std::string& path, const Vec3& scale) {
  detail::TriangleMesh mesh = detail::read_mesh_file(path, scale);
  return make_mesh(std::move(mesh.vertices), std::move(mesh.triangles), path);
}

ShapePtr make_compound(std::vector<CompoundChild> children) {
  if (children.empty()) throw Error("compound: needs at least one child");
  for (std::size_t i = 0; i < children.size(); ++i) {
    const CompoundChild& c = children[i];
    if (!c.shape) throw Error(fmt::format("compound: child {} has no shape", i));
    if (c.shape->type == ShapeType::plane || c.shape->type == ShapeType::mesh)
      throw Error(fmt::format("compound: child {} is a {} (only solid shapes can be children)", i,
                              to_string(c.shape->type)));
    if (c.shape->type == ShapeType::sdf)
      throw Error(
          fmt::format("compound: child {} is an sdf shape (an sdf shape is a body's whole "
                      "shape, not a part)",
                      i));
    if (!c.position.allFinite() || !c.orientation.coeffs().allFinite())
      throw Error(fmt::format("compound: child {} has a non-finite position or orientation", i));
    if (c.orientation.norm() < 1e-6)
      throw Error(
          fmt::format("compound: child {} orientation quaternion has (nearly) zero length", i));
  }
  for (CompoundChild& c : children) c.orientation.normalize();
  auto s = std::make_shared<Shape>();
  s->type = ShapeType::compound;
  s->children = std::move(children);
  return s;
}

namespace {

constexpr double pi = std::numbers::pi;

/// a diagonal inertia
MassProperties diagonal(double mass, double volume, double ixx, double iyy, double izz) {
  MassProperties mp;
  mp.mass = mass;
  mp.volume = volume;
  mp.inertia = Vec3(ixx, iyy, izz).asDiagonal();
  return mp;
}

// Mass properties of a closed, outward-oriented triangle surface by the divergence theorem
// (Mirtich 1996; Eberly, "Polyhedral Mass Properties"): each triangle (a, b, c) and a reference
// point r span a signed tetrahedron with
//   V = det[a−r, b−r, c−r] / 6,   ∫x dV = V (a+b+c−3r)/4 (relative to r),
//   ∫x xᵀ dV = V/20 [Σ xᵢxᵢᵀ + (Σxᵢ)(Σxᵢ)ᵀ]   (xᵢ the corners relative to r, r itself is 0),
// summed over the triangles. Then I_r = tr(C) 1 − C and the parallel-axis shift to the COM.
MassProperties polyhedron(const std::vector<Vec3>& vertices,
                          const std::vector<std::array<int, 3>>& triangles, double density) {
  Vec3 r = Vec3::Zero();
  for (const Vec3& v : vertices) r += v;
  r /= static_cast<double>(vertices.size());
  double volume = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (const auto& t : triangles) {
    const Vec3 a = vertices[static_cast<std::size_t>(t[0])] - r;
    const Vec3 b = vertices[static_cast<std::size_t>(t[1])] - r;
    const Vec3 c = vertices[static_cast<std::size_t>(t[2])] - r;
    const double v = a.dot(b.cross(c)) / 6.0;
    const Vec3 s = a + b + c;
    volume += v;
    first += v * s / 4.0;
    second +=
        v / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  if (!(volume > 0.0)) throw Error("convex shape: the hull has no volume");
  const Vec3 com_rel = first / volume;
  // covariance about the COM: C_com = C_r − V c cᵀ
  const Mat3 cov = density * (second - volume * com_rel * com_rel.transpose());
  MassProperties mp;
  mp.volume = volume;
  mp.mass = density * volume;
  mp.com_S = r + com_rel;
  mp.inertia = cov.trace() * Mat3::Identity() - cov;
  mp.inertia = 0.5 * (mp.inertia + mp.inertia.transpose());
  return mp;
}

}  // namespace

ShapePtr make_sdf_shape(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles,
                        const SdfShapeSettings& settings, std::string source) {
  const std::string who =
      source.empty() ? std::string("sdf shape") : fmt::format("sdf shape \"{}\"", source);
  check_triangles(who, vertices, triangles);
  if (triangles.size() < 4)
    throw Error(fmt::format("{}: needs a closed mesh of at least 4 triangles", who));
  detail::TriangleMesh mesh{std::move(vertices), std::move(triangles)};
  auto s = std::make_shared<Shape>();
  s->type = ShapeType::sdf;
  s->sdf = detail::build_sdf_model(mesh, settings, who);
  s->points = std::move(mesh.vertices);
  s->triangles = std::move(mesh.triangles);
  s->source = std::move(source);
  return s;
}

ShapePtr load_sdf_shape(const std::string& path, const SdfShapeSettings& settings,
                        const Vec3& scale) {
  detail::TriangleMesh mesh = detail::read_mesh_file(path, scale);
  return make_sdf_shape(std::move(mesh.vertices), std::move(mesh.triangles), settings, path);
}

namespace {
constexpr std::array<std::pair<MeshCollision, const char*>, 4> kMeshCollisionNames = {{
    {MeshCollision::triangles, "triangles"},
    {MeshCollision::hull, "hull"},
    {MeshCollision::sdf, "sdf"},
    {MeshCollision::decomposition, "decomposition"},
}};
}  // namespace

const char* to_string(MeshCollision collision) {
  for (const auto& [value, name] : kMeshCollisionNames)
    if (value == collision) return name;
  return "unknown";
}

std::optional<MeshCollision> mesh_collision_from_name(std::string_view name) {
  for (const auto& [value, text] : kMeshCollisionNames)
    if (name == text) return value;
  return std::nullopt;
}

ShapePtr make_mesh_shape(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles,
                         MeshCollision collision, const SdfShapeSettings& sdf, std::string source) {
  if (collision == MeshCollision::triangles)
    return make_mesh(std::move(vertices), std::move(triangles), std::move(source));
  if (collision == MeshCollision::sdf)
    return make_sdf_shape(std::move(vertices), std::move(triangles), sdf, std::move(source));
  const std::string who = source.empty() ? std::string("mesh") : fmt::format("mesh \"{}\"", source);
  check_triangles(who, vertices, triangles);
  auto solid = std::make_shared<detail::TriangleMesh>(
      detail::TriangleMesh{std::move(vertices), std::move(triangles)});
  (void)detail::check_closed_mesh(*solid, who);
  std::shared_ptr<Shape> s;
  if (collision == MeshCollision::hull) {
    s = std::make_shared<Shape>(*make_convex(solid->vertices));
  } else {
    std::vector<CompoundChild> parts;
    for (detail::ConvexHull& part : detail::convex_decomposition(*solid, {}, who)) {
      auto convex = std::make_shared<Shape>();
      convex->type = ShapeType::convex;
      convex->points = part.vertices;
      convex->hull = std::make_shared<const detail::ConvexHull>(std::move(part));
      parts.push_back(CompoundChild{std::move(convex), Vec3::Zero(), Quat::Identity()});
    }
    s = std::make_shared<Shape>(*make_compound(std::move(parts)));
  }
  s->source = std::move(source);
  s->solid = std::move(solid);
  return s;
}

ShapePtr load_mesh_shape(const std::string& path, MeshCollision collision, const Vec3& scale,
                         const SdfShapeSettings& sdf) {
  detail::TriangleMesh mesh = detail::read_mesh_file(path, scale);
  return make_mesh_shape(std::move(mesh.vertices), std::move(mesh.triangles), collision, sdf, path);
}

MassProperties mass_properties(const Shape& shape, double density) {
  if (!(density > 0.0) || !std::isfinite(density))
    throw Error(fmt::format("{} shape: density must be positive and finite (got {})",
                            to_string(shape.type), density));
  // a hull or convex parts of a closed mesh weigh what the mesh encloses
  if (shape.solid) return polyhedron(shape.solid->vertices, shape.solid->triangles, density);
  switch (shape.type) {
    case ShapeType::sphere: {
      const double r = shape.radius;
      const double V = 4.0 / 3.0 * pi * r * r * r;
      const double m = density * V;
      const double i = 0.4 * m * r * r;
      return diagonal(m, V, i, i, i);
    }
    case ShapeType::box: {
      const Vec3 e = 2.0 * shape.half_extents;  // full edge lengths
      const double V = e.x() * e.y() * e.z();
      const double m = density * V;
      return diagonal(m, V, m * (e.y() * e.y() + e.z() * e.z()) / 12.0,
                      m * (e.x() * e.x() + e.z() * e.z()) / 12.0,
                      m * (e.x() * e.x() + e.y() * e.y()) / 12.0);
    }
    case ShapeType::cylinder: {
      const double r = shape.radius, h = shape.half_length;
      const double V = pi * r * r * 2.0 * h;
      const double m = density * V;
      const double ixx = m * (r * r / 4.0 + h * h / 3.0);  // m(3r² + L²)/12, L = 2h
      return diagonal(m, V, ixx, ixx, 0.5 * m * r * r);
    }
    case ShapeType::capsule: {
      // cylinder (radius r, length 2h) plus two hemispheres (together a sphere of mass m_s).
      // A hemisphere's transverse inertia about its flat face's centre is 2/5 m_h r², its COM
      // sits 3r/8 from that face; moved to the capsule centre (distance h + 3r/8):
      //   m_h (2/5 r² − (3r/8)² + (h + 3r/8)²) = m_h (2/5 r² + h² + 3/4 h r)
      const double r = shape.radius, h = shape.half_length;
      const double V_c = pi * r * r * 2.0 * h;
      const double V_s = 4.0 / 3.0 * pi * r * r * r;
      const double m_c = density * V_c, m_s = density * V_s;
      const double ixx =
          m_c * (r * r / 4.0 + h * h / 3.0) + m_s * (0.4 * r * r + h * h + 0.75 * h * r);
      const double izz = 0.5 * m_c * r * r + 0.4 * m_s * r * r;
      return diagonal(m_c + m_s, V_c + V_s, ixx, ixx, izz);
    }
    case ShapeType::ellipsoid: {
      const Vec3& a = shape.radii;
      const double V = 4.0 / 3.0 * pi * a.x() * a.y() * a.z();
      const double m = density * V;
      return diagonal(m, V, m * (a.y() * a.y() + a.z() * a.z()) / 5.0,
                      m * (a.x() * a.x() + a.z() * a.z()) / 5.0,
                      m * (a.x() * a.x() + a.y() * a.y()) / 5.0);
    }
    case ShapeType::convex: {
      detail::ConvexHull storage;
      const detail::ConvexHull& hull = detail::hull_of(shape, storage);
      return polyhedron(hull.vertices, hull.triangles, density);
    }
    case ShapeType::sdf:  // the closed mesh itself (the divergence theorem needs no convexity)
      return polyhedron(shape.points, shape.triangles, density);
    case ShapeType::compound: {
      // Σ children: I = Σ [R_i I_i R_iᵀ + m_i (|d_i|² 1 − d_i d_iᵀ)], d_i = c_i − c
      MassProperties total;
      std::vector<MassProperties> parts;
      parts.reserve(shape.children.size());
      Vec3 moment = Vec3::Zero();
      for (const CompoundChild& child : shape.children) {
        MassProperties mp = mass_properties(*child.shape, density);
        const Mat3 R = child.orientation.normalized().toRotationMatrix();
        mp.com_S = child.position + R * mp.com_S;
        mp.inertia = R * mp.inertia * R.transpose();
        total.mass += mp.mass;
        total.volume += mp.volume;
        moment += mp.mass * mp.com_S;
        parts.push_back(mp);
      }
      total.com_S = moment / total.mass;
      for (const MassProperties& mp : parts) {
        const Vec3 d = mp.com_S - total.com_S;
        total.inertia +=
            mp.inertia + mp.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
      }
      total.inertia = 0.5 * (total.inertia + total.inertia.transpose());
      return total;
    }
    case ShapeType::planar: {
      // a lamina in the shape frame's x–z plane, density per area (kg/m²); `volume` is the area
      const PlanarMassProperties p = planar_mass_properties(*shape.planar, density);
      MassProperties mp;
      mp.mass = p.mass;
      mp.com_S = Vec3(p.centroid.x(), 0.0, p.centroid.y());
      mp.inertia = p.inertia;
      mp.volume = p.area;
      return mp;
    }
    case ShapeType::plane:
    case ShapeType::mesh:
      throw Error(
          fmt::format("a {} shape has no finite volume: it has no mass properties (use it "
                      "on a fixed body, or give the inertia explicitly)",
                      to_string(shape.type)));
  }
  throw Error("mass properties: unknown shape type");
}

MassProperties mass_properties_for_mass(const Shape& shape, double mass) {
  if (!(mass > 0.0) || !std::isfinite(mass))
    throw Error(fmt::format("{} shape: mass must be positive and finite (got {})",
                            to_string(shape.type), mass));
  const MassProperties unit = mass_properties(shape, 1.0);
  MassProperties mp = unit;
  const double density = mass / unit.volume;
  mp.mass = mass;
  mp.inertia = density * unit.inertia;
  return mp;
}

}  // namespace pivot
