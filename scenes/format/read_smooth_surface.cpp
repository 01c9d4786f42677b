// The "smooth_surface" of a body (docs/scene-format.md, "Smooth surfaces"), for the hybrid mode.
#include <filesystem>
#include <fstream>

#include "pivot/collision/loop_surface.hpp"
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

// ---- smooth surfaces ----

constexpr std::array<const char*, 7> kSurfaceTypes = {"bezier", "torus", "paraboloid", "ellipsoid",
                                                      "sphere", "plane", "loop"};

std::vector<std::string> surface_keys(SceneSurfaceType type) {
  std::vector<std::string> keys = {"type", "position"};
  keys.insert(keys.end(), kOrientationKeys.begin(), kOrientationKeys.end());
  switch (type) {
    case SceneSurfaceType::bezier:
      keys.insert(keys.end(), {"patches", "scale"});
      break;
    case SceneSurfaceType::torus:
      keys.insert(keys.end(), {"major_radius", "minor_radius"});
      break;
    case SceneSurfaceType::paraboloid:
      keys.insert(keys.end(), {"curvature_radii", "half_extents"});
      break;
    case SceneSurfaceType::ellipsoid:
      keys.emplace_back("radii");
      break;
    case SceneSurfaceType::sphere:
      keys.emplace_back("radius");
      break;
    case SceneSurfaceType::plane:
      keys.insert(keys.end(), {"normal", "offset"});
      break;
    case SceneSurfaceType::loop:
      keys.insert(keys.end(), {"file", "obj", "scale"});
      break;
  }
  return keys;
}

BezierPatch read_patch(const Context& ctx, const json& j, const std::string& ptr) {
  if (!j.is_array() || j.size() != 16)
    ctx.fail(ptr, fmt::format("expected the 16 control points [x, y, z] of a bicubic patch, "
                              "P_ij at index 4 i + j (got {})",
                              describe(j)));
  BezierPatch P;
  for (std::size_t k = 0; k < 16; ++k)
    P[k] = vec3(ctx, j[k], ptr + "/" + std::to_string(k), Range::any);
  return P;
}

SceneSmoothSurface read_smooth_surface(const Context& ctx, const json& j, const std::string& ptr) {
  const Object probe(ctx, j, ptr, {}, /*check_keys=*/false);
  const std::string type = probe.required_string("type");
  const auto it = std::find(kSurfaceTypes.begin(), kSurfaceTypes.end(), type);
  if (it == kSurfaceTypes.end())
    ctx.fail(
        probe.pointer("type"),
        fmt::format("unknown smooth surface type {} (expected one of: {})", pivot::quoted(type),
                    join(std::vector<std::string>(kSurfaceTypes.begin(), kSurfaceTypes.end()))));
  SceneSmoothSurface s;
  s.type = static_cast<SceneSurfaceType>(it - kSurfaceTypes.begin());
  const Object o(ctx, j, ptr, surface_keys(s.type));
  s.position = within(ctx, o.pointer("position"), o.vec3("position", Vec3::Zero(), Range::any),
                      kMaxLength, "m");
  s.orientation = o.orientation();
  SmoothSurfacePtr base;
  try {
    switch (s.type) {
      case SceneSurfaceType::bezier: {
        const json& patches = o.required_array("patches");
        if (patches.empty()) ctx.fail(o.pointer("patches"), "expected at least one patch");
        for (std::size_t k = 0; k < patches.size(); ++k)
          s.patches.push_back(
              read_patch(ctx, patches[k], o.pointer("patches") + "/" + std::to_string(k)));
        s.scale = o.vec3("scale", Vec3::Ones(), Range::positive);
        // scale, then turn and move: Bézier patches are affine invariant
        const Mat3 A = s.orientation.toRotationMatrix() * s.scale.asDiagonal();
        std::vector<BezierPatch> placed;
        for (const BezierPatch& P : s.patches)
          placed.push_back(transform_bezier_patch(P, A, s.position));
        s.built = std::make_shared<BezierSurface>(std::move(placed));
        return s;
      }
      case SceneSurfaceType::torus:
        s.major_radius = o.required_number("major_radius", Range::positive);
        s.minor_radius = o.required_number("minor_radius", Range::positive);
        if (!(s.minor_radius < s.major_radius))
          ctx.fail(o.pointer("minor_radius"),
                   fmt::format("expected minor_radius < major_radius (got {} >= {})",
                               s.minor_radius, s.major_radius));
        base = std::make_shared<TorusSurface>(s.major_radius, s.minor_radius);
        break;
      case SceneSurfaceType::paraboloid:
        s.curvature_radii = vec2(ctx, o.required("curvature_radii", "[R_u, R_v]"),
                                 o.pointer("curvature_radii"), Range::positive);
        s.half_extents = vec2(ctx, o.required("half_extents", "[a, b]"), o.pointer("half_extents"),
                              Range::positive);
        base = std::make_shared<ParaboloidSurface>(s.curvature_radii.x(), s.curvature_radii.y(),
                                                   s.half_extents.x(), s.half_extents.y());
        break;
      case SceneSurfaceType::ellipsoid:
        s.radii = o.required_vec3("radii", Range::positive);
        base = make_ellipsoid_surface(s.radii);
        break;
      case SceneSurfaceType::sphere:
        s.radius = o.required_number("radius", Range::positive);
        base = make_sphere_surface(s.radius);
        break;
      case SceneSurfaceType::plane:
        s.normal = o.unit_vec3("normal", Vec3::UnitZ());
        s.offset = o.number("offset", 0.0, Range::any);
        base = make_plane_surface(s.normal, s.offset);
        break;
      case SceneSurfaceType::loop: {
        // the control mesh, a mesh file relative to the scene (as mesh shapes)
        const std::string key = read_mesh_path(ctx, o, "obj", s.obj, s.obj_path);
        s.scale = read_mesh_scale(ctx, o);
        try {
          base = load_loop_surface(s.obj_path.string(), s.scale);
        } catch (const Error& e) {
          ctx.fail(o.pointer(key), e.what());
        }
        break;
      }
    }
    s.built = detail::place_surface(base, Pose{s.position, s.orientation});
  } catch (const std::exception& e) {
    rethrow_if_in_input(e);
    ctx.fail(ptr, e.what());
  }
  return s;
}

}  // namespace pivot::detail

namespace pivot {

const char* to_string(SceneSurfaceType type) {
  return detail::kSurfaceTypes[static_cast<std::size_t>(type)];
}

}  // namespace pivot

namespace pivot::detail {}  // namespace pivot::detail
