// The "shape" of a body (docs/scene-format.md, "Shapes"): primitives, hulls, meshes, compounds.
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

// ---- shapes ----

ShapeType shape_type(const Context& ctx, const Object& o) {
  const std::string type = o.required_string("type");
  if (const std::optional<ShapeType> known = shape_type_from_name(type)) return *known;
  std::vector<std::string> names;
  for (const ShapeTypeName& entry : kShapeTypeNames) names.emplace_back(entry.name);
  ctx.fail(o.pointer("type"),
           fmt::format("unknown shape type {} (expected one of: {})", pivot::quoted(type), join(names)));
}

std::vector<std::string> shape_keys(ShapeType type) {
  switch (type) {
    case ShapeType::sphere:
      return {"type", "radius"};
    case ShapeType::box:
      return {"type", "half_extents"};
    case ShapeType::capsule:
    case ShapeType::cylinder:
      return {"type", "radius", "half_length"};
    case ShapeType::ellipsoid:
      return {"type", "radii"};
    case ShapeType::convex:
      return {"type", "points", "surface_samples", "file", "scale"};
    case ShapeType::plane:
      return {"type", "normal", "offset"};
    case ShapeType::mesh:
      return {"type", "file", "obj", "scale", "collision", "voxel", "points", "node_budget"};
    case ShapeType::compound:
      return {"type", "children"};
    case ShapeType::sdf:
      return {"type", "file", "mesh", "scale", "voxel", "points", "node_budget"};
    case ShapeType::planar:  // not a 3-D scene's type (read_planar.cpp)
      break;
  }
  return {"type"};
}

std::string read_mesh_path(const Context& ctx, const Object& o, const char* legacy,
                           std::string& as_written, fs::path& resolved) {
  if (o.has("file") && legacy != nullptr && o.has(legacy))
    ctx.fail(o.pointer(legacy), fmt::format("give either \"file\" or \"{}\" (its older name), "
                                            "not both",
                                            legacy));
  const std::string key = legacy != nullptr && o.has(legacy) ? legacy : "file";
  as_written = o.required_string(key);
  if (as_written.empty())
    ctx.fail(o.pointer(key), "expected the path of a mesh file (got \"\")");
  fs::path path = fs::path(as_written);
  if (path.is_relative()) path = ctx.base_dir / path;
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  resolved = (ec ? path : absolute).lexically_normal();
  std::ifstream probe_file(resolved);
  if (!probe_file)
    ctx.fail(o.pointer(key),
             fmt::format("cannot read the mesh file {}", pivot::quoted(resolved.string(), 256)));
  return key;
}

Vec3 read_mesh_scale(const Context& ctx, const Object& o) {
  if (!o.has("scale")) return Vec3::Ones();
  const json& j = o.required("scale");
  const Vec3 scale = j.is_number()
                         ? Vec3::Constant(o.required_number("scale", Range::positive))
                         : vec3(ctx, j, o.pointer("scale"), Range::positive);
  if (!(scale.minCoeff() > 0.0))
    ctx.fail(o.pointer("scale"), "expected a positive number or [sx, sy, sz] of positive numbers");
  return within(ctx, o.pointer("scale"), scale, kMaxLength, "");
}

/// `surface`: the body's smooth surface, for a convex shape sampled from it (null in compounds)
SceneShape read_shape(const Context& ctx, const json& j, const std::string& ptr, bool in_compound,
                      const SmoothSurface* surface, bool fixed) {
  // the type decides which keys are allowed: read it before checking the others
  const Object probe(ctx, j, ptr, {}, /*check_keys=*/false);
  SceneShape s;
  s.type = shape_type(ctx, probe);
  const Object o(ctx, j, ptr, shape_keys(s.type));
  if (in_compound && s.type == ShapeType::sdf)
    ctx.fail(o.pointer("type"), "an sdf shape cannot be part of a compound (it is a body's whole "
                                "shape)");
  // the key that names the mesh file, for the messages of its reader
  std::string file_key = "file";
  const auto mesh_file = [&](const char* legacy) {
    file_key = read_mesh_path(ctx, o, legacy, s.obj, s.obj_path);
    s.scale = read_mesh_scale(ctx, o);
  };
  if (in_compound && s.type == ShapeType::plane)
    ctx.fail(o.pointer("type"), "a plane cannot be part of a compound (it has no volume); use it "
                                "as the shape of a fixed body");
  const auto sdf_settings = [&] {
    if (o.has("voxel"))
      s.sdf.voxel = within(ctx, o.pointer("voxel"), o.required_number("voxel", Range::positive),
                           kMaxLength, "m");
    if (o.has("points")) {
      s.sdf.points = o.integer("points", 0);
      if (s.sdf.points < 8 || s.sdf.points > kSdfMaxPoints)
        ctx.fail(o.pointer("points"), fmt::format("expected an integer in [8, {}] (got {})",
                                                  kSdfMaxPoints, s.sdf.points));
    }
    if (o.has("node_budget")) {
      s.sdf.node_budget = o.integer("node_budget", 0);
      if (s.sdf.node_budget < 0)
        ctx.fail(o.pointer("node_budget"),
                 fmt::format("expected an integer ≥ 0 (got {})", s.sdf.node_budget));
    }
  };
  switch (s.type) {
    case ShapeType::sphere:
      s.radius = within(ctx, o.pointer("radius"), o.required_number("radius", Range::positive),
                        kMaxLength, "m");
      break;
    case ShapeType::box:
      s.half_extents = within(ctx, o.pointer("half_extents"),
                              o.required_vec3("half_extents", Range::positive), kMaxLength, "m");
      break;
    case ShapeType::capsule:
    case ShapeType::cylinder:
      s.radius = within(ctx, o.pointer("radius"), o.required_number("radius", Range::positive),
                        kMaxLength, "m");
      // a capsule of half length 0 is a sphere (legitimate); a cylinder needs a height
      s.half_length = within(
          ctx, o.pointer("half_length"),
          o.required_number("half_length",
                            s.type == ShapeType::capsule ? Range::non_negative : Range::positive),
          kMaxLength, "m");
      break;
    case ShapeType::ellipsoid:
      s.radii = within(ctx, o.pointer("radii"), o.required_vec3("radii", Range::positive),
                       kMaxLength, "m");
      break;
    case ShapeType::convex: {
      if (o.has("file")) {
        if (o.has("points") || o.has("surface_samples"))
          ctx.fail(o.pointer("file"),
                   "give one of \"points\", \"surface_samples\" and \"file\", not several");
        mesh_file(nullptr);
        try {
          s.points = load_mesh_points(s.obj_path.string(), s.scale);
        } catch (const std::exception& e) {
          rethrow_if_in_input(e);
          ctx.fail(o.pointer("file"), e.what());
        }
        break;
      }
      if (o.has("scale")) ctx.fail(o.pointer("scale"), "a scale goes with a mesh \"file\"");
      if (o.has("surface_samples")) {
        if (o.has("points"))
          ctx.fail(o.pointer("surface_samples"),
                   "give either \"points\" or \"surface_samples\", not both");
        s.surface_samples = o.integer("surface_samples", 0);
        if (s.surface_samples < 2 || s.surface_samples > 256)
          ctx.fail(o.pointer("surface_samples"),
                   fmt::format("expected an integer in [2, 256] (got {})", s.surface_samples));
        if (!surface)
          ctx.fail(o.pointer("surface_samples"),
                   in_compound ? "not inside a compound (the samples are in the body's shape frame)"
                               : "needs the body's \"smooth_surface\"");
        try {
          s.points = surface_grid_points(*surface, s.surface_samples);
        } catch (const std::exception& e) {
          ctx.fail(o.pointer("surface_samples"), e.what());
        }
        break;
      }
      const json& points = o.required_array("points");
      if (points.size() < 4)
        ctx.fail(o.pointer("points"),
                 fmt::format("expected at least 4 points [x, y, z] (got {})", points.size()));
      for (std::size_t i = 0; i < points.size(); ++i)
        s.points.push_back(within(
            ctx, o.pointer("points") + "/" + std::to_string(i),
            vec3(ctx, points[i], o.pointer("points") + "/" + std::to_string(i), Range::any),
            kMaxLength, "m"));
      break;
    }
    case ShapeType::plane:
      s.normal = o.unit_vec3("normal", Vec3::UnitZ());
      s.offset = within(ctx, o.pointer("offset"), o.number("offset", 0.0, Range::any), kMaxLength,
                        "m");
      break;
    case ShapeType::mesh: {
      mesh_file("obj");
      if (o.has("collision")) {
        const std::string name = o.required_string("collision");
        s.collision = mesh_collision_from_name(name);
        if (!s.collision)
          ctx.fail(o.pointer("collision"),
                   fmt::format("unknown mesh collision {} (expected one of: triangles, hull, "
                               "sdf, decomposition)",
                               pivot::quoted(name)));
        if (*s.collision == MeshCollision::triangles && (!fixed || in_compound))
          ctx.fail(o.pointer("collision"),
                   in_compound ? "a compound's part collides as \"hull\" or \"decomposition\""
                               : "triangles collide only on a fixed body (\"fixed\": true); a "
                                 "moving body's mesh collides as \"hull\", \"sdf\" or "
                                 "\"decomposition\"");
        if (*s.collision == MeshCollision::sdf && in_compound)
          ctx.fail(o.pointer("collision"), "an sdf mesh cannot be part of a compound (it is a "
                                           "body's whole shape)");
      }
      const MeshCollision collision = s.collision.value_or(
          fixed && !in_compound ? MeshCollision::triangles : MeshCollision::hull);
      for (const char* key : {"voxel", "points", "node_budget"})
        if (o.has(key) && collision != MeshCollision::sdf)
          ctx.fail(o.pointer(key), "only with \"collision\": \"sdf\"");
      sdf_settings();
      break;
    }
    case ShapeType::sdf:
      mesh_file("mesh");
      sdf_settings();
      break;
    case ShapeType::compound: {
      const json& children = o.required_array("children");
      if (children.empty()) ctx.fail(o.pointer("children"), "expected at least one child");
      for (std::size_t i = 0; i < children.size(); ++i) {
        const std::string cptr = o.pointer("children") + "/" + std::to_string(i);
        std::vector<std::string> keys = {"shape", "position"};
        keys.insert(keys.end(), kOrientationKeys.begin(), kOrientationKeys.end());
        const Object c(ctx, children[i], cptr, keys);
        SceneCompoundChild child;
        child.shape.push_back(
            read_shape(ctx, c.required("shape"), c.pointer("shape"), true, nullptr, fixed));
        child.position = within(ctx, c.pointer("position"),
                                c.vec3("position", Vec3::Zero(), Range::any), kMaxLength, "m");
        child.orientation = c.orientation();
        s.children.push_back(std::move(child));
      }
      break;
    }
    case ShapeType::planar:  // not a 3-D scene's type (read_planar.cpp)
      break;
  }
  // build the collision shape now: the factories' checks become errors at this pointer
  try {
    switch (s.type) {
      case ShapeType::sphere:
        s.built = make_sphere(s.radius);
        break;
      case ShapeType::box:
        s.built = make_box(s.half_extents);
        break;
      case ShapeType::capsule:
        s.built = make_capsule(s.radius, s.half_length);
        break;
      case ShapeType::cylinder:
        s.built = make_cylinder(s.radius, s.half_length);
        break;
      case ShapeType::ellipsoid:
        s.built = make_ellipsoid(s.radii);
        break;
      case ShapeType::convex:
        s.built = make_convex(s.points);
        break;
      case ShapeType::plane:
        s.built = make_plane(s.normal, s.offset);
        break;
      case ShapeType::mesh:
        s.built = load_mesh_shape(
            s.obj_path.string(),
            s.collision.value_or(fixed && !in_compound ? MeshCollision::triangles
                                                       : MeshCollision::hull),
            s.scale, s.sdf);
        break;
      case ShapeType::sdf:
        s.built = load_sdf_shape(s.obj_path.string(), s.sdf, s.scale);
        break;
      case ShapeType::compound: {
        std::vector<CompoundChild> children;
        for (const SceneCompoundChild& c : s.children)
          children.push_back(CompoundChild{c.shape.front().built, c.position, c.orientation});
        s.built = make_compound(std::move(children));
        break;
      }
      case ShapeType::planar:
        break;
    }
  } catch (const std::exception& e) {
    rethrow_if_in_input(e);
    ctx.fail(s.type == ShapeType::mesh || s.type == ShapeType::sdf ? o.pointer(file_key) : ptr,
             e.what());
  }
  return s;
}

}  // namespace pivot::detail
