#pragma once
// The strict JSON reader of the scene format (internal): where the text came from (Context),
// reading values with their JSON pointer and what was expected, objects whose unknown keys are
// errors (Object), and the parse of the text itself with syntax errors as line and column and
// duplicate keys as pointers. Every failure throws pivot::Error(source, pointer, what).
// nlohmann::json stays behind this header: the public scene.hpp does not include it.
#include <fmt/core.h>

#include <Eigen/Geometry>
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
#include "pivot/core/error.hpp"
#include "pivot/scenes/scene.hpp"

namespace pivot::detail {

using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr double kDegree = std::numbers::pi / 180.0;  // rad per degree, for *_deg keys

/// the keys that give an orientation (Object::orientation), one at most per object
inline const std::vector<std::string> kOrientationKeys = {"quat_wxyz", "axis_angle_deg",
                                                          "euler_deg"};

// ---- reading values: every failure names the JSON pointer and what was expected ----

/// where the text came from, for messages and relative paths
struct Context {
  std::string source;
  fs::path base_dir;

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw Error(source, pointer.empty() ? "(document)" : printable_pointer(pointer), what);
  }

  /// the pointer as shown in a message: each token with control characters escaped and cut to
  /// 64 bytes (pivot::quoted(), without the quotes), so a key holding a newline or a megabyte cannot
  /// break the message's one line or swell it
  static std::string printable_pointer(const std::string& pointer) {
    if (pointer.empty() || pointer[0] != '/') return pointer;
    std::string out;
    std::size_t start = 1;  // after the leading '/'
    while (start <= pointer.size()) {
      const std::size_t end = std::min(pointer.find('/', start), pointer.size());
      const std::string token = pivot::quoted(std::string_view(pointer).substr(start, end - start));
      const std::size_t close = token.rfind('"');
      out += '/';
      out.append(token, 1, close - 1);  // without the quotes
      out.append(token, close + 1);      // "... (N bytes)" when cut
      start = end + 1;
    }
    return out;
  }
};

/// an error that already names its place in the scene passes through unchanged
inline void rethrow_if_in_input(const std::exception& e) {
  if (const auto* error = dynamic_cast<const Error*>(&e); error && error->in_input()) throw *error;
}

/// a key as a JSON pointer token (RFC 6901): ~ → ~0, / → ~1
inline std::string escape_pointer_token(std::string_view key) {
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

inline std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

/// a short description of a JSON value for "(got ...)"
inline std::string describe(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return j.get<bool>() ? "true" : "false";
    case json::value_t::string: {
      return "the string " + pivot::quoted(j.get<std::string>(), 40);
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

inline double number(const Context& ctx, const json& j, const std::string& ptr, Range range) {
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

// ---- magnitude limits at load (docs/limits.md "Magnitudes") ----
// Beyond them the first step's products (m v², I ω², M⁻¹, the planes of a hull, the collision
// queries' squared distances) overflow or keep no significant digit, and the step fails or
// writes garbage; the scene is refused with the pointer and the limit instead.

inline constexpr double kMaxLength = 1e9;         ///< m: positions, sizes, points, offsets
inline constexpr double kMaxSpeed = 1e9;          ///< m/s, and rad/s for angular velocities
inline constexpr double kMaxAcceleration = 1e9;   ///< m/s²: gravity
inline constexpr double kMinMass = 1e-20;         ///< kg
inline constexpr double kMaxMass = 1e20;          ///< kg; also kg/m³ for densities
inline constexpr double kMinInertia = 1e-40;      ///< kg m²
inline constexpr double kMaxInertia = 1e40;       ///< kg m²

/// x itself when |x| ≤ limit, else an error at ptr naming the limit
inline double within(const Context& ctx, const std::string& ptr, double x, double limit,
                     const char* unit) {
  if (!(std::abs(x) <= limit))
    ctx.fail(ptr, fmt::format("{:g} {} is beyond the limit of {:g} {} (docs/limits.md: larger "
                              "values overflow the first step)",
                              x, unit, limit, unit));
  return x;
}

/// v itself when every |v_i| ≤ limit, else an error at ptr/i naming the limit
inline Vec3 within(const Context& ctx, const std::string& ptr, const Vec3& v, double limit,
                   const char* unit) {
  for (int i = 0; i < 3; ++i) (void)within(ctx, ptr + "/" + std::to_string(i), v[i], limit, unit);
  return v;
}

/// x itself when low ≤ x ≤ high, else an error at ptr naming the range
inline double between(const Context& ctx, const std::string& ptr, double x, double low,
                      double high, const char* unit) {
  if (!(x >= low && x <= high))
    ctx.fail(ptr, fmt::format("{:g} {} is outside the range [{:g}, {:g}] {} (docs/limits.md: "
                              "beyond it the first step overflows)",
                              x, unit, low, high, unit));
  return x;
}

inline Vec3 vec3(const Context& ctx, const json& j, const std::string& ptr, Range range) {
  if (!j.is_array() || j.size() != 3)
    ctx.fail(ptr, fmt::format("expected an array of 3 numbers [x, y, z] (got {})", describe(j)));
  Vec3 v;
  for (int i = 0; i < 3; ++i) v[i] = number(ctx, j[i], ptr + "/" + std::to_string(i), range);
  return v;
}

inline Vec2 vec2(const Context& ctx, const json& j, const std::string& ptr, Range range) {
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
        ctx.fail(pointer(item.key()), fmt::format("unknown key {} (expected one of: {})",
                                                  pivot::quoted(item.key()), join(allowed)));
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
    return detail::number(ctx_, required(key, "a number"), pointer(key), range);
  }
  [[nodiscard]] double number(std::string_view key, double fallback, Range range) const {
    return has(key) ? required_number(key, range) : fallback;
  }
  [[nodiscard]] Vec3 required_vec3(std::string_view key, Range range) const {
    return detail::vec3(ctx_, required(key, "an array [x, y, z]"), pointer(key), range);
  }
  [[nodiscard]] Vec3 vec3(std::string_view key, const Vec3& fallback, Range range) const {
    return has(key) ? required_vec3(key, range) : fallback;
  }
  /// a direction, normalized; zero is an error
  [[nodiscard]] Vec3 unit_vec3(std::string_view key, const Vec3& fallback) const {
    if (!has(key)) return fallback;
    const Vec3 v = required_vec3(key, Range::any);
    const double n = v.norm();
    if (!(n > 1e-12)) ctx_.fail(pointer(key), "expected a non-zero direction [x, y, z]");
    return unit_to_rounding(v);  // kept as is when already unit, so resolved output reads back
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
      c[i] = detail::number(ctx_, v[i], ptr + "/" + std::to_string(i), Range::any);
    // Eigen's constructor takes (w, x, y, z), the file's order; its coeffs() are x, y, z, w
    const Quat q(c[0], c[1], c[2], c[3]);
    const double n = q.norm();
    if (!(std::abs(n - 1.0) <= 1e-3))
      ctx_.fail(ptr, fmt::format("expected a unit quaternion [w, x, y, z] (got length {:.6g}; "
                                 "lengths within 1e-3 of 1 are normalized)",
                                 n));
    return unit_to_rounding(q);  // kept as is when already unit, so resolved output reads back
  }

  /// an orientation given by one of the keys of kOrientationKeys (docs/scene-format.md,
  /// "Orientations"); identity when none is given, an error when more than one is:
  ///   "quat_wxyz": [w, x, y, z]
  ///   "axis_angle_deg": {"axis": [x, y, z], "angle": degrees}   q = (cos θ/2, sin θ/2 n̂)
  ///   "euler_deg": {"intrinsic" or "extrinsic": "zyx", "angles": [a1, a2, a3] in degrees}
  /// intrinsic "abc": turn by a1 about a, then by a2 about the turned b, then by a3 about the
  /// twice-turned c: q = q_a(a1) q_b(a2) q_c(a3); extrinsic "abc": the same turns about the
  /// fixed axes a, b, c: q = q_c(a3) q_b(a2) q_a(a1)
  [[nodiscard]] Quat orientation() const {
    std::vector<std::string> given;
    for (const char* key : {"quat_wxyz", "axis_angle_deg", "euler_deg"})
      if (has(key)) given.emplace_back(key);
    if (given.size() > 1)
      ctx_.fail(ptr_, fmt::format("give one orientation, not {} (\"{}\" and \"{}\")", given.size(),
                                  given[0], given[1]));
    if (has("axis_angle_deg")) {
      const Object a(ctx_, required("axis_angle_deg"), pointer("axis_angle_deg"),
                     {"axis", "angle"});
      const Vec3 axis = a.required_vec3("axis", Range::any);
      if (!(axis.norm() > 1e-12))
        ctx_.fail(a.pointer("axis"), "expected a non-zero direction [x, y, z]");
      const double angle = a.required_number("angle", Range::any) * kDegree;
      return Quat(Eigen::AngleAxisd(angle, axis.normalized()));
    }
    if (has("euler_deg")) {
      const Object e(ctx_, required("euler_deg"), pointer("euler_deg"),
                     {"intrinsic", "extrinsic", "angles"});
      if (e.has("intrinsic") == e.has("extrinsic"))
        ctx_.fail(pointer("euler_deg"),
                  "expected the convention: \"intrinsic\" or \"extrinsic\" with the axis order, "
                  "e.g. \"intrinsic\": \"zyx\"");
      const bool intrinsic = e.has("intrinsic");
      const char* key = intrinsic ? "intrinsic" : "extrinsic";
      const std::string order = e.required_string(key);
      const bool valid = order.size() == 3 &&
                         std::all_of(order.begin(), order.end(),
                                     [](char c) { return c == 'x' || c == 'y' || c == 'z'; }) &&
                         order[0] != order[1] && order[1] != order[2];
      if (!valid)
        ctx_.fail(e.pointer(key), fmt::format("expected an axis order of three of x, y, z with no "
                                              "axis twice in a row, e.g. \"zyx\" or \"zxz\" (got "
                                              "\"{}\")",
                                              order));
      const json& angles = e.required("angles", "an array of 3 angles in degrees");
      const Vec3 a = detail::vec3(ctx_, angles, e.pointer("angles"), Range::any) * kDegree;
      Quat q = Quat::Identity();
      for (int i = 0; i < 3; ++i) {
        const Quat turn(Eigen::AngleAxisd(a[i], Vec3::Unit(order[i] - 'x')));
        q = intrinsic ? Quat(q * turn) : Quat(turn * q);
      }
      return q.normalized();
    }
    return quat("quat_wxyz");
  }

 private:
  const Context& ctx_;
  const json& j_;
  std::string ptr_;
};

// ---- parsing the text: syntax errors as line:column, duplicate keys as pointers ----

/// line and column (1-based, columns in bytes) of the byte-th character (1-based) of text
inline std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t byte) {
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
inline std::string syntax_message(const std::string& what) {
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

inline json parse_text(const Context& ctx, std::string_view text) {
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
              fmt::format("duplicate key {} (each key may appear once in an object)", pivot::quoted(key)));
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
  // JSON text holds no NUL byte (RFC 8259: control characters must be escaped, and none may
  // stand between tokens); nlohmann's reader would stop at one and accept what came before,
  // so a valid scene followed by a NUL and garbage would load
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const auto [line, column] = line_column(text, nul + 1);
    throw Error(ctx.source, fmt::format("line {}, column {}", line, column),
                "a NUL byte: a scene is JSON text (is this a binary file, or has something been "
                "appended to the JSON?)");
  }
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
    if (!stack.empty()) {
      pointer += '/';
      pointer += stack.back().array ? std::to_string(stack.back().next_index) : stack.back().token;
    }
    ctx.fail(pointer, "expected a finite number (got a number out of the range of a double)");
  }
}

}  // namespace pivot::detail
