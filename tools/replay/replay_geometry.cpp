#include "replay/replay_geometry.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "pivot/collision/planar_shape.hpp"
#include "pivot/collision/smooth_surface.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/scene.hpp"

namespace pivot::cli {
namespace {

using ojson = nlohmann::ordered_json;

/// a number rounded to 1e-6 (a micrometre for lengths): drawn, never computed with
double rounded(double x) {
  return std::round(x * 1e6) / 1e6 + 0.0;  // + 0.0: no "-0.0"
}

ojson vec3(const Vec3& v) {
  return ojson::array({rounded(v.x()), rounded(v.y()), rounded(v.z())});
}

ojson quat_wxyz(const Quat& q) {
  return ojson::array({q.w(), q.x(), q.y(), q.z()});
}

ojson flat_points(const std::vector<Vec3>& points) {
  ojson out = ojson::array();
  for (const Vec3& p : points)
    for (int k = 0; k < 3; ++k) out.push_back(rounded(p[k]));
  return out;
}

/// a planar world's shape (docs/planar.md) as the 3-D part the viewer draws: extruded along y
/// by ±a quarter of its bounding radius (a circle a cylinder, a polygon a prism), a half-plane
/// as the plane through its boundary
void add_planar_part(const PlanarShape& shape, const Vec3& position, const Quat& orientation,
                     ojson& parts) {
  const auto lift = [](const Vec2& v) { return Vec3(v.x(), 0.0, v.y()); };
  ojson p;
  p["position"] = vec3(position);
  Quat q = orientation;
  const double depth =
      shape.type == PlanarShapeType::half_plane ? 0.0 : 0.25 * planar_bounding_radius(shape);
  switch (shape.type) {
    case PlanarShapeType::circle:  // a cylinder's axis is z: turned onto y
      p["type"] = "cylinder";
      p["radius"] = shape.radius;
      p["half_length"] = depth;
      q = orientation * Quat(Eigen::AngleAxisd(0.5 * EIGEN_PI, Vec3::UnitX()));
      break;
    case PlanarShapeType::capsule:  // a capsule's axis is z: turned onto x
      p["type"] = "capsule";
      p["radius"] = shape.radius;
      p["half_length"] = shape.half_length;
      q = orientation * Quat(Eigen::AngleAxisd(0.5 * EIGEN_PI, Vec3::UnitY()));
      break;
    case PlanarShapeType::box:
      p["type"] = "box";
      p["half_extents"] = vec3(Vec3(shape.half_extents.x(), depth, shape.half_extents.y()));
      break;
    case PlanarShapeType::polygon: {
      p["type"] = "convex";
      std::vector<Vec3> prism;
      for (const Vec2& v : shape.points)
        for (const double y : {-depth, depth}) prism.push_back(lift(v) + Vec3(0.0, y, 0.0));
      p["points"] = flat_points(prism);
      break;
    }
    case PlanarShapeType::half_plane:
      p["type"] = "plane";
      p["normal"] = vec3(lift(shape.normal));
      p["offset"] = shape.offset;
      break;
  }
  p["quat_wxyz"] = quat_wxyz(q);
  parts.push_back(std::move(p));
}

/// the parts of `shape` placed at (position, orientation) in the body frame; compounds are
/// flattened into their children
void add_parts(const Shape& shape, const Vec3& position, const Quat& orientation, ojson& parts) {
  if (shape.type == ShapeType::planar) {
    add_planar_part(*shape.planar, position, orientation, parts);
    return;
  }
  if (shape.type == ShapeType::compound) {
    for (const CompoundChild& c : shape.children)
      add_parts(*c.shape, position + orientation * c.position, orientation * c.orientation, parts);
    return;
  }
  ojson p;
  // the viewer draws an sdf shape as the closed mesh it was built from
  p["type"] = shape.type == ShapeType::sdf ? "mesh" : to_string(shape.type);
  p["position"] = vec3(position);
  p["quat_wxyz"] = quat_wxyz(orientation);
  switch (shape.type) {
    case ShapeType::sphere:
      p["radius"] = shape.radius;
      break;
    case ShapeType::box:
      p["half_extents"] = vec3(shape.half_extents);
      break;
    case ShapeType::capsule:
    case ShapeType::cylinder:
      p["radius"] = shape.radius;
      p["half_length"] = shape.half_length;
      break;
    case ShapeType::ellipsoid:
      p["radii"] = vec3(shape.radii);
      break;
    case ShapeType::convex:
      p["points"] = flat_points(shape.points);
      break;
    case ShapeType::plane:
      p["normal"] = vec3(shape.normal);
      p["offset"] = shape.offset;
      break;
    case ShapeType::mesh:
    case ShapeType::sdf: {
      p["vertices"] = flat_points(shape.points);
      ojson tris = ojson::array();
      for (const auto& t : shape.triangles)
        for (const int i : t) tris.push_back(i);
      p["triangles"] = tris;
      break;
    }
    case ShapeType::compound:
    case ShapeType::planar:  // handled above
      break;
  }
  parts.push_back(std::move(p));
}

/// One patch sampled on an n × n grid of its parameter box (one period of a periodic
/// coordinate), the points placed by `offset` (the shape frame's origin in the body frame);
/// two triangles per cell whose corners all lie in the domain. False for an unbounded,
/// non-periodic patch (a plane), which has no finite tessellation.
bool tessellate_patch(const SmoothSurface& surface, int patch, int n, const Vec3& offset,
                      std::vector<Vec3>& points, std::vector<int>& triangles) {
  const PatchDomain& d = surface.domain(patch);
  Vec2 lo = Vec2::Zero(), hi = Vec2::Zero();
  if (d.bounded()) {
    lo = hi = d.vertices.front();
    for (const Vec2& v : d.vertices) {
      lo = lo.cwiseMin(v);
      hi = hi.cwiseMax(v);
    }
  } else if (d.period.x() > 0.0 && d.period.y() > 0.0) {
    hi = d.period;
  } else {
    return false;
  }
  const int base = static_cast<int>(points.size());
  std::vector<bool> inside;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const Vec2 uv(lo.x() + (hi.x() - lo.x()) * i / n, lo.y() + (hi.y() - lo.y()) * j / n);
      points.push_back(surface.point(patch, uv) + offset);
      inside.push_back(d.contains(uv, 1e-9 * (1.0 + (hi - lo).norm())));
    }
  const auto at = [n](int i, int j) { return i * (n + 1) + j; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), e = at(i, j + 1);
      // counter-clockwise in (u, v): the normal along p_u × p_v, out of the solid
      for (const auto& tri : {std::array{a, b, c}, std::array{a, c, e}})
        if (inside[tri[0]] && inside[tri[1]] && inside[tri[2]])
          for (const int k : tri) triangles.push_back(base + k);
    }
  return true;
}

ojson surface_mesh(const SmoothSurface& surface, const Vec3& offset) {
  std::vector<Vec3> points;
  std::vector<int> triangles;
  // surfaces of many small patches (Loop surfaces: a patch per control triangle) get fewer
  // cells per patch, about 40 000 grid points in all; the few-patch surfaces keep kSurfaceCells
  const int cells =
      std::clamp(static_cast<int>(std::sqrt(40000.0 / std::max(1, surface.patch_count()))) - 1, 2,
                 kSurfaceCells);
  for (int patch = 0; patch < surface.patch_count(); ++patch) {
    const bool periodic = !surface.domain(patch).bounded();
    if (!tessellate_patch(surface, patch, periodic ? 2 * cells : cells, offset, points, triangles))
      return nullptr;
  }
  return {{"type", surface.name()}, {"vertices", flat_points(points)}, {"triangles", triangles}};
}

/// a body's visual geometry (SceneVisual) as parts placed in the body frame, each with its
/// colour; `offset`: the shape frame's origin in the body frame. A mesh is read here (its
/// coordinates scaled); a file that cannot be read is an error naming it
ojson visual_parts(const std::vector<SceneVisual>& visuals, const Vec3& offset) {
  ojson parts = ojson::array();
  for (const SceneVisual& v : visuals) {
    ojson p;
    p["type"] = to_string(v.type);
    p["position"] = vec3(offset + v.position);
    p["quat_wxyz"] = quat_wxyz(v.orientation);
    switch (v.type) {
      case ShapeType::box:
        p["half_extents"] = vec3(v.half_extents);
        break;
      case ShapeType::sphere:
        p["radius"] = v.radius;
        break;
      case ShapeType::cylinder:
        p["radius"] = v.radius;
        p["half_length"] = v.half_length;
        break;
      case ShapeType::mesh: {
        const ShapePtr mesh = load_mesh_file(v.file_path.string(), v.scale);
        p["vertices"] = flat_points(mesh->points);
        ojson tris = ojson::array();
        for (const auto& t : mesh->triangles)
          for (const int i : t) tris.push_back(i);
        p["triangles"] = tris;
        break;
      }
      default:
        continue;
    }
    if (v.colour) p["colour"] = *v.colour;
    parts.push_back(std::move(p));
  }
  return parts;
}

}  // namespace

ojson replay_shapes(const Scene& scene, const World& world) {
  ojson bodies = ojson::array();
  for (int i = 0; i < world.body_count(); ++i) {
    const RigidBody& body = world.bodies().body(i);
    const Pose pose = world.pose(i);
    ojson b;
    b["name"] = body.name;
    b["fixed"] = body.fixed;
    b["position"] = vec3(pose.p_WB);
    b["quat_wxyz"] = quat_wxyz(pose.q_WB);
    ojson parts = ojson::array();
    if (body.shape) add_parts(*body.shape, body.shape_offset, Quat::Identity(), parts);
    b["parts"] = parts;
    // the surface the scene gives (a sphere's or ellipsoid's own surface is its shape); bodies
    // after the scene's own (a character's, docs/character.md) have none
    const bool given = static_cast<std::size_t>(i) < scene.bodies.size() &&
                       scene.bodies[static_cast<std::size_t>(i)].smooth_surface;
    b["surface"] = given && body.smooth_surface
                       ? surface_mesh(*body.smooth_surface, body.shape_offset)
                       : ojson();
    // drawn instead of the parts (the viewer's "visual" toggle); only bodies that have some
    if (static_cast<std::size_t>(i) < scene.bodies.size() &&
        !scene.bodies[static_cast<std::size_t>(i)].visuals.empty())
      b["visual"] =
          visual_parts(scene.bodies[static_cast<std::size_t>(i)].visuals, body.shape_offset);
    bodies.push_back(std::move(b));
  }
  return {{"format", "pivot-shapes"},
          {"version", 1},
          {"dimension", scene.dimension},
          {"bodies", bodies}};
}

}  // namespace pivot::cli
