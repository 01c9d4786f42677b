// Long file: to be split into one file per concept (issue #25, in progress).
// Scene files, version 1: JSON → Scene (docs/scene-format.md). Strict: unknown keys, wrong
// types and bad values are errors naming the JSON pointer; nlohmann stays in this file.
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "pivot/collision/ellipsoid_surface.hpp"
#include "pivot/collision/paraboloid_surface.hpp"
#include "pivot/collision/plane_surface.hpp"
#include "pivot/collision/torus_surface.hpp"
#include "pivot/collision/transformed_surface.hpp"
#include "pivot/scenes/scene.hpp"

namespace pivot {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr double kDegree = std::numbers::pi / 180.0;  // rad per degree, for *_deg keys

// ---- reading values: every failure names the JSON pointer and what was expected ----

/// where the text came from, for messages and relative paths
struct Context {
  std::string source;
  fs::path base_dir;

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw Error(source, pointer.empty() ? "(document)" : pointer, what);
  }
};

/// an error that already names its place in the scene passes through unchanged
void rethrow_if_in_input(const std::exception& e) {
  if (const auto* error = dynamic_cast<const Error*>(&e); error && error->in_input()) throw *error;
}

/// a key as a JSON pointer token (RFC 6901): ~ → ~0, / → ~1
std::string escape_pointer_token(std::string_view key) {
  std::string out;
  for (const char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

/// a short description of a JSON value for "(got ...)"
std::string describe(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return j.get<bool>() ? "true" : "false";
    case json::value_t::string: {
      std::string s = j.get<std::string>();
      if (s.size() > 40) s = s.substr(0, 37) + "...";
      return fmt::format("the string \"{}\"", s);
    }
    case json::value_t::array:
      return fmt::format("an array of {}", j.size());
    case json::value_t::object:
      return "an object";
    case json::value_t::number_float:
      if (!std::isfinite(j.get<double>())) return "a number out of the range of a double";
      return j.dump();
    default:
      return j.dump();
  }
}

enum class Range { any, positive, non_negative, unit_interval };

double number(const Context& ctx, const json& j, const std::string& ptr, Range range) {
  if (!j.is_number()) ctx.fail(ptr, fmt::format("expected a number (got {})", describe(j)));
  const double x = j.get<double>();
  if (!std::isfinite(x))
    ctx.fail(ptr, fmt::format("expected a finite number (got {})", describe(j)));
  switch (range) {
    case Range::any:
      break;
    case Range::positive:
      if (!(x > 0.0))
        ctx.fail(ptr, fmt::format("expected a positive number (got {})", describe(j)));
      break;
    case Range::non_negative:
      if (!(x >= 0.0)) ctx.fail(ptr, fmt::format("expected a number >= 0 (got {})", describe(j)));
      break;
    case Range::unit_interval:
      if (!(x >= 0.0 && x <= 1.0))
        ctx.fail(ptr, fmt::format("expected a number in [0, 1] (got {})", describe(j)));
      break;
  }
  return x;
}

Vec3 vec3(const Context& ctx, const json& j, const std::string& ptr, Range range) {
  if (!j.is_array() || j.size() != 3)
    ctx.fail(ptr, fmt::format("expected an array of 3 numbers [x, y, z] (got {})", describe(j)));
  Vec3 v;
  for (int i = 0; i < 3; ++i) v[i] = number(ctx, j[i], ptr + "/" + std::to_string(i), range);
  return v;
}

Vec2 vec2(const Context& ctx, const json& j, const std::string& ptr, Range range) {
  if (!j.is_array() || j.size() != 2)
    ctx.fail(ptr, fmt::format("expected an array of 2 numbers (got {})", describe(j)));
  return {number(ctx, j[0], ptr + "/0", range), number(ctx, j[1], ptr + "/1", range)};
}

/// a JSON object whose keys must all be among `allowed`
class Object {
 public:
  Object(const Context& ctx, const json& j, std::string ptr, std::vector<std::string> allowed,
         bool check_keys = true)
      : ctx_(ctx), j_(j), ptr_(std::move(ptr)) {
    if (!j.is_object()) ctx.fail(ptr_, fmt::format("expected an object (got {})", describe(j)));
    if (!check_keys) return;
    for (const auto& item : j.items())
      if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
        ctx.fail(pointer(item.key()), fmt::format("unknown key \"{}\" (expected one of: {})",
                                                  item.key(), join(allowed)));
  }

  [[nodiscard]] bool has(std::string_view key) const { return j_.contains(key); }
  [[nodiscard]] std::string pointer(std::string_view key) const {
    return ptr_ + "/" + escape_pointer_token(key);
  }

  [[nodiscard]] const json& required(std::string_view key,
                                     std::string_view what = "a value") const {
    const auto it = j_.find(key);
    if (it == j_.end()) ctx_.fail(pointer(key), fmt::format("missing (expected {})", what));
    return *it;
  }
  [[nodiscard]] const json& required_array(std::string_view key) const {
    const json& v = required(key, "an array");
    if (!v.is_array())
      ctx_.fail(pointer(key), fmt::format("expected an array (got {})", describe(v)));
    return v;
  }
  [[nodiscard]] std::string required_string(std::string_view key) const {
    const json& v = required(key, "a string");
    if (!v.is_string())
      ctx_.fail(pointer(key), fmt::format("expected a string (got {})", describe(v)));
    return v.get<std::string>();
  }
  [[nodiscard]] std::string string(std::string_view key, const std::string& fallback) const {
    return has(key) ? required_string(key) : fallback;
  }
  [[nodiscard]] bool boolean(std::string_view key, bool fallback) const {
    if (!has(key)) return fallback;
    const json& v = required(key);
    if (!v.is_boolean())
      ctx_.fail(pointer(key), fmt::format("expected true or false (got {})", describe(v)));
    return v.get<bool>();
  }
  [[nodiscard]] int integer(std::string_view key, int fallback) const {
    if (!has(key)) return fallback;
    const json& v = required(key);
    if (!v.is_number_integer())
      ctx_.fail(pointer(key), fmt::format("expected an integer (got {})", describe(v)));
    const auto x = v.get<long long>();
    if (x < -1000000000LL || x > 1000000000LL)
      ctx_.fail(pointer(key), fmt::format("integer out of range (got {})", describe(v)));
    return static_cast<int>(x);
  }
  [[nodiscard]] double required_number(std::string_view key, Range range) const {
    return pivot::number(ctx_, required(key, "a number"), pointer(key), range);
  }
  [[nodiscard]] double number(std::string_view key, double fallback, Range range) const {
    return has(key) ? required_number(key, range) : fallback;
  }
  [[nodiscard]] Vec3 required_vec3(std::string_view key, Range range) const {
    return pivot::vec3(ctx_, required(key, "an array [x, y, z]"), pointer(key), range);
  }
  [[nodiscard]] Vec3 vec3(std::string_view key, const Vec3& fallback, Range range) const {
    return has(key) ? required_vec3(key, range) : fallback;
  }
  /// a direction, normalized; zero is an error
  [[nodiscard]] Vec3 unit_vec3(std::string_view key, const Vec3& fallback) const {
    if (!has(key)) return fallback;
    const Vec3 v = required_vec3(key, Range::any);
    if (!(v.norm() > 1e-12)) ctx_.fail(pointer(key), "expected a non-zero direction [x, y, z]");
    return v.normalized();
  }
  /// [w, x, y, z], within 1e-3 of unit length, normalized; identity by default
  [[nodiscard]] Quat quat(std::string_view key) const {
    if (!has(key)) return Quat::Identity();
    const json& v = required(key);
    const std::string ptr = pointer(key);
    if (!v.is_array() || v.size() != 4)
      ctx_.fail(ptr, fmt::format("expected a quaternion [w, x, y, z] (got {})", describe(v)));
    double c[4];
    for (int i = 0; i < 4; ++i)
      c[i] = pivot::number(ctx_, v[i], ptr + "/" + std::to_string(i), Range::any);
    // Eigen's constructor takes (w, x, y, z), the file's order; its coeffs() are x, y, z, w
    const Quat q(c[0], c[1], c[2], c[3]);
    const double n = q.norm();
    if (!(std::abs(n - 1.0) <= 1e-3))
      ctx_.fail(ptr, fmt::format("expected a unit quaternion [w, x, y, z] (got length {:.6g}; "
                                 "lengths within 1e-3 of 1 are normalized)",
                                 n));
    // already unit to rounding: kept as is, so that resolved output reads back unchanged
    if (std::abs(n - 1.0) <= 4.0 * std::numeric_limits<double>::epsilon()) return q;
    return q.normalized();
  }

 private:
  const Context& ctx_;
  const json& j_;
  std::string ptr_;
};

// ---- parsing the text: syntax errors as line:column, duplicate keys as pointers ----

/// line and column (1-based, columns in bytes) of the byte-th character (1-based) of text
std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t byte) {
  const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < end; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return {line, end - line_start + 1};
}

/// nlohmann's message without its "[json.exception...] parse error at ...: " prefix
std::string syntax_message(const std::string& what) {
  const std::size_t syntax = what.find("syntax error");
  if (syntax != std::string::npos) return what.substr(syntax);
  const std::size_t bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

/// the JSON path while parsing: one frame per open object or array
struct ParseFrame {
  bool array = false;
  std::size_t next_index = 0;            // arrays: index of the next element
  std::string token;                     // the key or index of the child being parsed
  std::unordered_set<std::string> keys;  // objects: keys seen so far
};

json parse_text(const Context& ctx, std::string_view text) {
  std::vector<ParseFrame> stack;
  auto pointer_of_top = [&stack] {
    std::string p;
    for (std::size_t i = 0; i + 1 < stack.size(); ++i) p += "/" + stack[i].token;
    return p;
  };
  auto enter_child = [&stack] {
    if (!stack.empty() && stack.back().array)
      stack.back().token = std::to_string(stack.back().next_index++);
  };
  const json::parser_callback_t callback = [&](int /*depth*/, json::parse_event_t event,
                                               json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        enter_child();
        stack.push_back(ParseFrame{event == json::parse_event_t::array_start, 0, {}, {}});
        break;
      case json::parse_event_t::key: {
        ParseFrame& top = stack.back();
        std::string key = parsed.get<std::string>();
        top.token = escape_pointer_token(key);
        if (!top.keys.insert(key).second)
          ctx.fail(
              pointer_of_top() + "/" + top.token,
              fmt::format("duplicate key \"{}\" (each key may appear once in an object)", key));
        break;
      }
      case json::parse_event_t::value:
        if (!stack.empty() && stack.back().array) ++stack.back().next_index;
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        stack.pop_back();
        break;
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), callback);
  } catch (const json::parse_error& e) {
    const auto [line, column] = line_column(text, e.byte);
    throw Error(ctx.source, fmt::format("line {}, column {}", line, column),
                syntax_message(e.what()));
  } catch (const json::out_of_range&) {
    // a number literal beyond the range of a double (e.g. 1e999): the value being parsed is
    // the next element of the innermost array, or the value of the last key of the object
    std::string pointer = pointer_of_top();
    if (!stack.empty())
      pointer +=
          "/" + (stack.back().array ? std::to_string(stack.back().next_index) : stack.back().token);
    ctx.fail(pointer, "expected a finite number (got a number out of the range of a double)");
  }
}

// ---- shapes ----

ShapeType shape_type(const Context& ctx, const Object& o) {
  static const std::vector<std::string> names = {
      "sphere", "box", "capsule", "cylinder", "ellipsoid", "convex", "plane", "mesh", "compound"};
  const std::string type = o.required_string("type");
  for (std::size_t i = 0; i < names.size(); ++i)
    if (type == names[i]) return static_cast<ShapeType>(i);
  ctx.fail(o.pointer("type"),
           fmt::format("unknown shape type \"{}\" (expected one of: {})", type, join(names)));
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
      return {"type", "points", "surface_samples"};
    case ShapeType::plane:
      return {"type", "normal", "offset"};
    case ShapeType::mesh:
      return {"type", "obj"};
    case ShapeType::compound:
      return {"type", "children"};
  }
  return {"type"};
}

/// `surface`: the body's smooth surface, for a convex shape sampled from it (null in compounds)
SceneShape read_shape(const Context& ctx, const json& j, const std::string& ptr, bool in_compound,
                      const SmoothSurface* surface) {
  // the type decides which keys are allowed: read it before checking the others
  const Object probe(ctx, j, ptr, {}, /*check_keys=*/false);
  SceneShape s;
  s.type = shape_type(ctx, probe);
  const Object o(ctx, j, ptr, shape_keys(s.type));
  if (in_compound && (s.type == ShapeType::plane || s.type == ShapeType::mesh))
    ctx.fail(o.pointer("type"), fmt::format("a {} cannot be part of a compound (it has no "
                                            "volume); use it as the shape of a fixed body",
                                            to_string(s.type)));
  switch (s.type) {
    case ShapeType::sphere:
      s.radius = o.required_number("radius", Range::positive);
      break;
    case ShapeType::box:
      s.half_extents = o.required_vec3("half_extents", Range::positive);
      break;
    case ShapeType::capsule:
      s.radius = o.required_number("radius", Range::positive);
      s.half_length = o.required_number("half_length", Range::non_negative);
      break;
    case ShapeType::cylinder:
      s.radius = o.required_number("radius", Range::positive);
      s.half_length = o.required_number("half_length", Range::positive);
      break;
    case ShapeType::ellipsoid:
      s.radii = o.required_vec3("radii", Range::positive);
      break;
    case ShapeType::convex: {
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
        s.points.push_back(
            vec3(ctx, points[i], o.pointer("points") + "/" + std::to_string(i), Range::any));
      break;
    }
    case ShapeType::plane:
      s.normal = o.unit_vec3("normal", Vec3::UnitZ());
      s.offset = o.number("offset", 0.0, Range::any);
      break;
    case ShapeType::mesh: {
      s.obj = o.required_string("obj");
      if (s.obj.empty()) ctx.fail(o.pointer("obj"), "expected the path of an OBJ file (got \"\")");
      fs::path path = fs::path(s.obj);
      if (path.is_relative()) path = ctx.base_dir / path;
      std::error_code ec;
      const fs::path absolute = fs::absolute(path, ec);
      s.obj_path = (ec ? path : absolute).lexically_normal();
      std::ifstream probe_file(s.obj_path);
      if (!probe_file)
        ctx.fail(o.pointer("obj"),
                 fmt::format("cannot read the mesh file \"{}\"", s.obj_path.string()));
      break;
    }
    case ShapeType::compound: {
      const json& children = o.required_array("children");
      if (children.empty()) ctx.fail(o.pointer("children"), "expected at least one child");
      for (std::size_t i = 0; i < children.size(); ++i) {
        const std::string cptr = o.pointer("children") + "/" + std::to_string(i);
        const Object c(ctx, children[i], cptr, {"shape", "position", "quat_wxyz"});
        SceneCompoundChild child;
        child.shape.push_back(
            read_shape(ctx, c.required("shape"), c.pointer("shape"), true, nullptr));
        child.position = c.vec3("position", Vec3::Zero(), Range::any);
        child.orientation = c.quat("quat_wxyz");
        s.children.push_back(std::move(child));
      }
      break;
    }
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
        s.built = load_obj_mesh(s.obj_path.string());
        break;
      case ShapeType::compound: {
        std::vector<CompoundChild> children;
        for (const SceneCompoundChild& c : s.children)
          children.push_back(CompoundChild{c.shape.front().built, c.position, c.orientation});
        s.built = make_compound(std::move(children));
        break;
      }
    }
  } catch (const std::exception& e) {
    rethrow_if_in_input(e);
    ctx.fail(s.type == ShapeType::mesh ? o.pointer("obj") : ptr, e.what());
  }
  return s;
}

// ---- smooth surfaces ----

constexpr std::array<const char*, 6> kSurfaceTypes = {"bezier",    "torus",  "paraboloid",
                                                      "ellipsoid", "sphere", "plane"};

std::vector<std::string> surface_keys(SceneSurfaceType type) {
  std::vector<std::string> keys = {"type", "position", "quat_wxyz"};
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
        fmt::format("unknown smooth surface type \"{}\" (expected one of: {})", type,
                    join(std::vector<std::string>(kSurfaceTypes.begin(), kSurfaceTypes.end()))));
  SceneSmoothSurface s;
  s.type = static_cast<SceneSurfaceType>(it - kSurfaceTypes.begin());
  const Object o(ctx, j, ptr, surface_keys(s.type));
  s.position = o.vec3("position", Vec3::Zero(), Range::any);
  s.orientation = o.quat("quat_wxyz");
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
    }
    s.built = place_surface(base, Pose{s.position, s.orientation});
  } catch (const std::exception& e) {
    rethrow_if_in_input(e);
    ctx.fail(ptr, e.what());
  }
  return s;
}

// ---- bodies ----

SceneBody read_body(const Context& ctx, const json& j, const std::string& ptr) {
  const Object o(ctx, j, ptr,
                 {"name", "fixed", "shape", "smooth_surface", "mass", "density", "inertia_diag",
                  "centre_of_mass", "position", "quat_wxyz", "velocity", "angular_velocity",
                  "angular_velocity_deg", "friction", "restitution"});
  SceneBody b;
  BodySettings& s = b.settings;
  s.name = o.required_string("name");
  if (s.name.empty()) ctx.fail(o.pointer("name"), "expected a non-empty name");
  if (s.name == "world")
    ctx.fail(o.pointer("name"), "\"world\" is reserved for the world in joints and springs");
  s.fixed = o.boolean("fixed", false);
  if (o.has("smooth_surface")) {
    b.smooth_surface =
        read_smooth_surface(ctx, o.required("smooth_surface"), o.pointer("smooth_surface"));
    s.smooth_surface = b.smooth_surface->built;
  }
  if (o.has("shape")) {
    b.shape =
        read_shape(ctx, o.required("shape"), o.pointer("shape"), false, s.smooth_surface.get());
    s.shape = b.shape->built;
    const ShapeType t = b.shape->type;
    if (!s.fixed && (t == ShapeType::plane || t == ShapeType::mesh))
      ctx.fail(o.pointer("shape"),
               fmt::format("a {} shape needs a fixed body (\"fixed\": true)", to_string(t)));
  }
  if (s.fixed) {
    for (const char* key : {"mass", "density", "inertia_diag", "centre_of_mass", "velocity",
                            "angular_velocity", "angular_velocity_deg"})
      if (o.has(key))
        ctx.fail(o.pointer(key),
                 "a fixed body has no mass and does not move: remove this key "
                 "or set \"fixed\": false");
  } else {
    if (o.has("mass") && o.has("density"))
      ctx.fail(ptr, "give either \"mass\" or \"density\", not both");
    if (o.has("density")) {
      if (!b.shape) ctx.fail(o.pointer("density"), "\"density\" needs a shape (give \"mass\")");
      s.density = o.required_number("density", Range::positive);
      b.has_density = true;
    } else if (o.has("mass")) {
      s.mass = o.required_number("mass", Range::positive);
    } else if (!b.shape) {
      ctx.fail(ptr, "a body without a shape needs \"mass\" (kg)");
    } else {
      s.mass = 1.0;
    }
    if (o.has("inertia_diag")) s.inertia_diag = o.required_vec3("inertia_diag", Range::positive);
    if (o.has("centre_of_mass")) {
      if (!b.shape)
        ctx.fail(o.pointer("centre_of_mass"),
                 "\"centre_of_mass\" is in the shape's frame: it "
                 "needs a shape");
      s.centre_of_mass = o.required_vec3("centre_of_mass", Range::any);
    }
    s.velocity = o.vec3("velocity", Vec3::Zero(), Range::any);
    if (o.has("angular_velocity") && o.has("angular_velocity_deg"))
      ctx.fail(ptr, "give either \"angular_velocity\" or \"angular_velocity_deg\", not both");
    if (o.has("angular_velocity_deg"))
      s.angular_velocity = o.required_vec3("angular_velocity_deg", Range::any) * (kDegree);
    else
      s.angular_velocity = o.vec3("angular_velocity", Vec3::Zero(), Range::any);
  }
  s.position = o.vec3("position", Vec3::Zero(), Range::any);
  s.orientation = o.quat("quat_wxyz");
  s.friction = o.number("friction", 0.5, Range::non_negative);
  s.restitution = o.number("restitution", 0.0, Range::unit_interval);
  return b;
}

// ---- joints ----

/// body_a (a body) and body_b (a body or "world", default "world") of a joint or spring
void read_body_pair(const Context& ctx, const Object& o, const Scene& scene, std::string& a,
                    std::string& b, int& ia, int& ib) {
  a = o.required_string("body_a");
  if (a == "world")
    ctx.fail(o.pointer("body_a"), "body_a must be a body (the world may only be body_b)");
  ia = scene.find_body(a);
  if (ia < 0) ctx.fail(o.pointer("body_a"), fmt::format("no body named \"{}\"", a));
  b = o.string("body_b", "world");
  if (b == "world") {
    ib = kWorldBody;
  } else {
    ib = scene.find_body(b);
    if (ib < 0)
      ctx.fail(o.pointer("body_b"), fmt::format("no body named \"{}\" (or \"world\")", b));
  }
  if (ia == ib) ctx.fail(o.pointer("body_b"), "body_b must differ from body_a");
}

std::optional<JointLimits> read_limits(const Context& ctx, const Object& o, bool angular) {
  const bool rad = o.has("limits"), deg = angular && o.has("limits_deg");
  if (rad && deg)
    ctx.fail(o.pointer("limits"), "give either \"limits\" or \"limits_deg\", not both");
  if (!rad && !deg) return std::nullopt;
  const char* key = rad ? "limits" : "limits_deg";
  const json& v = o.required_array(key);
  if (v.size() != 2)
    ctx.fail(o.pointer(key), fmt::format("expected [lower, upper] (got an array of {})", v.size()));
  const double scale = deg ? kDegree : 1.0;
  JointLimits l;
  l.lower = number(ctx, v[0], o.pointer(key) + "/0", Range::any) * scale;
  l.upper = number(ctx, v[1], o.pointer(key) + "/1", Range::any) * scale;
  if (l.lower > l.upper)
    ctx.fail(o.pointer(key),
             fmt::format("expected lower <= upper (got [{}, {}])", v[0].dump(), v[1].dump()));
  return l;
}

std::optional<JointMotor> read_motor(const Context& ctx, const Object& o, bool angular) {
  if (!o.has("motor")) return std::nullopt;
  std::vector<std::string> keys = {"target_velocity", "max_impulse"};
  if (angular) keys.emplace_back("target_velocity_deg");
  const Object m(ctx, o.required("motor"), o.pointer("motor"), keys);
  JointMotor motor;
  if (m.has("target_velocity") && m.has("target_velocity_deg"))
    ctx.fail(o.pointer("motor"),
             "give either \"target_velocity\" or \"target_velocity_deg\", not both");
  if (m.has("target_velocity_deg"))
    motor.target_velocity = m.required_number("target_velocity_deg", Range::any) * (kDegree);
  else
    motor.target_velocity = m.number("target_velocity", 0.0, Range::any);
  motor.max_impulse = m.required_number("max_impulse", Range::non_negative);
  return motor;
}

SceneJoint read_joint(const Context& ctx, const json& j, const std::string& ptr,
                      const Scene& scene) {
  const Object probe(ctx, j, ptr, {}, /*check_keys=*/false);
  const std::string type = probe.required_string("type");
  std::vector<std::string> keys = {"type", "name", "body_a", "body_b", "anchor", "collide"};
  if (type == "hinge")
    keys.insert(keys.end(), {"axis", "limits", "limits_deg", "motor"});
  else if (type == "slider")
    keys.insert(keys.end(), {"axis", "limits", "motor"});
  else if (type == "universal")
    keys.insert(keys.end(), {"axis_a", "axis_b"});
  else if (type != "ball" && type != "fixed")
    ctx.fail(probe.pointer("type"),
             fmt::format("unknown joint type \"{}\" (expected one of: ball, hinge, universal, "
                         "slider, fixed)",
                         type));
  const Object o(ctx, j, ptr, keys);
  SceneJoint out;
  read_body_pair(ctx, o, scene, out.body_a, out.body_b, out.body_a_index, out.body_b_index);
  const std::string name = o.string("name", "");
  out.collide = o.boolean("collide", false);
  if (type == "ball") {
    out.settings = BallJointSettings{name, o.required_vec3("anchor", Range::any)};
  } else if (type == "hinge") {
    HingeJointSettings s;
    s.name = name;
    s.anchor_W = o.required_vec3("anchor", Range::any);
    s.axis_W = o.unit_vec3("axis", Vec3::UnitZ());
    s.limits = read_limits(ctx, o, true);
    s.motor = read_motor(ctx, o, true);
    out.settings = s;
  } else if (type == "slider") {
    SliderJointSettings s;
    s.name = name;
    s.anchor_W = o.required_vec3("anchor", Range::any);
    s.axis_W = o.unit_vec3("axis", Vec3::UnitX());
    s.limits = read_limits(ctx, o, false);
    s.motor = read_motor(ctx, o, false);
    out.settings = s;
  } else if (type == "universal") {
    UniversalJointSettings s;
    s.name = name;
    s.anchor_W = o.required_vec3("anchor", Range::any);
    s.axis_a_W = o.unit_vec3("axis_a", Vec3::UnitX());
    s.axis_b_W = o.unit_vec3("axis_b", Vec3::UnitY());
    out.settings = s;
  } else {
    // any point serves a weld; by default the midpoint of the two bodies (body_a's position
    // when joined to the world) keeps the rows well scaled
    const Vec3 pa = scene.bodies[out.body_a_index].settings.position;
    const Vec3 fallback = out.body_b_index == kWorldBody
                              ? pa
                              : Vec3(0.5 * (pa + scene.bodies[out.body_b_index].settings.position));
    out.settings = FixedJointSettings{name, o.vec3("anchor", fallback, Range::any)};
  }
  return out;
}

// ---- springs ----

SceneSpring read_spring(const Context& ctx, const json& j, const std::string& ptr,
                        const Scene& scene) {
  const Object o(ctx, j, ptr,
                 {"body_a", "point_a", "body_b", "point_b", "stiffness", "damping", "rest_length"});
  SceneSpring out;
  read_body_pair(ctx, o, scene, out.body_a, out.body_b, out.settings.body_a, out.settings.body_b);
  out.settings.point_a = o.vec3("point_a", Vec3::Zero(), Range::any);
  out.settings.point_b = o.vec3("point_b", Vec3::Zero(), Range::any);
  out.settings.stiffness = o.required_number("stiffness", Range::non_negative);
  out.settings.damping = o.number("damping", 0.0, Range::non_negative);
  out.settings.rest_length = o.number("rest_length", 0.0, Range::non_negative);
  return out;
}

// ---- settings ----

/// the hybrid mode's settings: entry rule, reduced integrator, friction thresholds
void read_hybrid_settings(const Context& ctx, const Object& o, WorldSettings& w) {
  w.hybrid_entry_steps = o.integer("hybrid_entry_steps", w.hybrid_entry_steps);
  if (w.hybrid_entry_steps < 0)
    ctx.fail(o.pointer("hybrid_entry_steps"),
             fmt::format("expected an integer >= 0 (got {})", w.hybrid_entry_steps));
  w.hybrid_point_tolerance =
      o.number("hybrid_point_tolerance", w.hybrid_point_tolerance, Range::positive);
  w.hybrid_max_normal_speed =
      o.number("hybrid_max_normal_speed", w.hybrid_max_normal_speed, Range::non_negative);
  ReducedStepSettings& ri = w.hybrid_integrator;
  ri.dt_max = o.number("hybrid_dt_max", ri.dt_max, Range::positive);
  if (ri.dt_max < ri.dt_min)
    ctx.fail(
        o.pointer("hybrid_dt_max"),
        fmt::format("expected at least the smallest step {} s (got {})", ri.dt_min, ri.dt_max));
  ri.tolerance = o.number("hybrid_tolerance", ri.tolerance, Range::positive);
  ContactFriction& f = w.hybrid_friction;
  // null (the default): μ_static = the pair's μ
  if (o.has("hybrid_mu_static") && !o.required("hybrid_mu_static").is_null())
    f.mu_static = o.required_number("hybrid_mu_static", Range::non_negative);
  f.mu_spin_static = o.number("hybrid_mu_spin_static", f.mu_spin_static, Range::non_negative);
  f.slip_threshold = o.number("hybrid_slip_threshold", f.slip_threshold, Range::non_negative);
  f.spin_threshold = o.number("hybrid_spin_threshold", f.spin_threshold, Range::non_negative);
  f.min_slide_time = o.number("hybrid_min_slide_time", f.min_slide_time, Range::non_negative);
  f.rolling = o.boolean("hybrid_rolling", f.rolling);
  f.slip_regularization =
      o.number("hybrid_slip_regularization", f.slip_regularization, Range::non_negative);
}

SceneSettings read_settings(const Context& ctx, const json* j) {
  SceneSettings s;
  if (!j) return s;
  const Object o(ctx, *j, "/settings",
                 {"dt",
                  "duration",
                  "gravity",
                  "friction_directions",
                  "stabilization",
                  "hybrid",
                  "output_rate_hz",
                  "baumgarte_alpha",
                  "implicit_forces",
                  "contact_margin",
                  "restitution_threshold",
                  "post_step_cap",
                  "max_post_steps",
                  "limit_margin",
                  "hybrid_entry_steps",
                  "hybrid_point_tolerance",
                  "hybrid_max_normal_speed",
                  "hybrid_dt_max",
                  "hybrid_tolerance",
                  "hybrid_mu_static",
                  "hybrid_mu_spin_static",
                  "hybrid_slip_threshold",
                  "hybrid_spin_threshold",
                  "hybrid_min_slide_time",
                  "hybrid_rolling",
                  "hybrid_slip_regularization"});
  WorldSettings& w = s.world;
  w.time_step = o.number("dt", w.time_step, Range::positive);
  s.duration = o.number("duration", s.duration, Range::positive);
  s.output_rate_hz = o.number("output_rate_hz", s.output_rate_hz, Range::non_negative);
  s.hybrid = o.boolean("hybrid", s.hybrid);
  w.gravity = o.vec3("gravity", w.gravity, Range::any);
  w.friction_directions = o.integer("friction_directions", w.friction_directions);
  if (w.friction_directions < 2 || w.friction_directions > 64 || w.friction_directions % 2 != 0)
    ctx.fail(o.pointer("friction_directions"),
             fmt::format("expected an even number in [2, 64], e.g. 4, 8 or 16 (got {})",
                         w.friction_directions));
  const std::string stab = o.string("stabilization", to_string(w.stabilization));
  if (stab == "post")
    w.stabilization = Stabilization::post;
  else if (stab == "baumgarte")
    w.stabilization = Stabilization::baumgarte;
  else if (stab == "none")
    w.stabilization = Stabilization::none;
  else
    ctx.fail(o.pointer("stabilization"),
             fmt::format("expected \"post\", \"baumgarte\" or \"none\" (got \"{}\")", stab));
  w.baumgarte_alpha = o.number("baumgarte_alpha", w.baumgarte_alpha, Range::non_negative);
  w.implicit_forces = o.boolean("implicit_forces", w.implicit_forces);
  w.contact_margin = o.number("contact_margin", w.contact_margin, Range::non_negative);
  w.restitution_threshold =
      o.number("restitution_threshold", w.restitution_threshold, Range::non_negative);
  w.post_step_cap = o.number("post_step_cap", w.post_step_cap, Range::non_negative);
  w.max_post_steps = o.integer("max_post_steps", w.max_post_steps);
  if (w.max_post_steps < 1)
    ctx.fail(o.pointer("max_post_steps"),
             fmt::format("expected an integer >= 1 (got {})", w.max_post_steps));
  w.limit_margin = o.number("limit_margin", w.limit_margin, Range::non_negative);
  read_hybrid_settings(ctx, o, w);
  return s;
}

Scene parse_impl(std::string_view text, const fs::path& base_dir, std::string source,
                 std::string default_name) {
  const Context ctx{source, base_dir};
  const json doc = parse_text(ctx, text);
  const Object o(ctx, doc, "",
                 {"pivot_scene", "name", "description", "settings", "bodies", "joints", "springs"});
  if (!o.has("pivot_scene"))
    ctx.fail("/pivot_scene", fmt::format("missing: a scene file starts with \"pivot_scene\": {}",
                                         kSceneFormatVersion));
  const int version = o.integer("pivot_scene", 0);
  if (version != kSceneFormatVersion)
    ctx.fail("/pivot_scene", fmt::format("unsupported scene format version {} (this pivot reads "
                                         "version {})",
                                         version, kSceneFormatVersion));
  Scene scene;
  scene.source = std::move(source);
  scene.name = o.string("name", default_name);
  if (scene.name.empty()) ctx.fail("/name", "expected a non-empty name");
  scene.description = o.string("description", "");
  scene.settings = read_settings(ctx, o.has("settings") ? &o.required("settings") : nullptr);

  if (o.has("bodies")) {
    const json& bodies = o.required_array("bodies");
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const std::string ptr = "/bodies/" + std::to_string(i);
      SceneBody b = read_body(ctx, bodies[i], ptr);
      const auto [it, fresh] = seen.emplace(b.settings.name, i);
      if (!fresh)
        ctx.fail(ptr + "/name", fmt::format("duplicate body name \"{}\" (also /bodies/{}/name)",
                                            b.settings.name, it->second));
      scene.bodies.push_back(std::move(b));
    }
  }
  if (o.has("joints")) {
    const json& joints = o.required_array("joints");
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < joints.size(); ++i) {
      const std::string ptr = "/joints/" + std::to_string(i);
      SceneJoint jt = read_joint(ctx, joints[i], ptr, scene);
      if (!jt.name().empty()) {
        const auto [it, fresh] = seen.emplace(jt.name(), i);
        if (!fresh)
          ctx.fail(ptr + "/name", fmt::format("duplicate joint name \"{}\" (also /joints/{}/name)",
                                              jt.name(), it->second));
      }
      scene.joints.push_back(std::move(jt));
    }
  }
  if (o.has("springs")) {
    const json& springs = o.required_array("springs");
    for (std::size_t i = 0; i < springs.size(); ++i)
      scene.springs.push_back(read_spring(ctx, springs[i], "/springs/" + std::to_string(i), scene));
  }
  return scene;
}

}  // namespace

const char* to_string(SceneSurfaceType type) {
  return kSurfaceTypes[static_cast<std::size_t>(type)];
}

JointType SceneJoint::type() const {
  return std::visit(
      [](const auto& s) -> JointType {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, BallJointSettings>)
          return JointType::ball;
        else if constexpr (std::is_same_v<T, HingeJointSettings>)
          return JointType::hinge;
        else if constexpr (std::is_same_v<T, UniversalJointSettings>)
          return JointType::universal;
        else if constexpr (std::is_same_v<T, SliderJointSettings>)
          return JointType::slider;
        else
          return JointType::fixed;
      },
      settings);
}

const std::string& SceneJoint::name() const {
  return std::visit([](const auto& s) -> const std::string& { return s.name; }, settings);
}

int Scene::find_body(std::string_view name) const {
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].settings.name == name) return static_cast<int>(i);
  return -1;
}

Scene parse_scene(std::string_view json_text, const fs::path& base_dir, std::string_view source) {
  return parse_impl(json_text, base_dir, std::string(source), "unnamed");
}

Scene load_scene(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string(), "", "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(file.string(), "", "cannot read the file");
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  return parse_impl(text.str(), dir, file.string(), file.stem().string());
}

}  // namespace pivot
