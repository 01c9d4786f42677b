#pragma once
// The bytes of a Python World's record (world_record.hpp): the op and shape codes, and the
// values of ops written and read back bit for bit. Internal to the module: world_ops.cpp writes
// ops, world_record.cpp reads them. It uses the engine's internal byte stream
// (engine/checkpoint_bytes.hpp), the module's one include beyond the public headers, so that a
// saved World's numbers are encoded as the engine's checkpoints encode theirs.

#include <optional>
#include <string>
#include <type_traits>

#include "pivot/core/error.hpp"
#include "pivot/engine/checkpoint_bytes.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/engine/world_settings_table.hpp"

namespace pivot::python::record {

using detail::ByteReader;
using detail::ByteWriter;

enum class Op : std::uint64_t {
  settings = 1,
  body,
  ball,
  hinge,
  slider,
  universal,
  fixed,
  force,
  spring,
  snapshot,
  actuator,
  sensor
};

enum class Recipe : std::uint64_t {
  sphere = 1,
  box,
  capsule,
  cylinder,
  ellipsoid,
  convex,
  plane,
  mesh
};

// ---- writing and reading the values of ops ----

inline void put(ByteWriter& w, double x) {
  w.f64(x);
}
inline void put(ByteWriter& w, int x) {
  w.i64(x);
}
inline void put(ByteWriter& w, bool x) {
  w.u64(x ? 1 : 0);
}
inline void put(ByteWriter& w, const Vec3& v) {
  for (int i = 0; i < 3; ++i) w.f64(v(i));
}
inline void put(ByteWriter& w, const Quat& q) {
  for (const double c : {q.w(), q.x(), q.y(), q.z()}) w.f64(c);
}
inline void put(ByteWriter& w, const std::string& s) {
  w.text(s);
}
inline void put(ByteWriter& w, Stabilization s) {
  w.u64(static_cast<std::uint64_t>(s));
}
inline void put(ByteWriter& w, Op op) {
  w.u64(static_cast<std::uint64_t>(op));
}

inline double f64(ByteReader& r) {
  return r.f64("an op's number");
}
inline int i32(ByteReader& r) {
  return static_cast<int>(r.i64("an op's integer"));
}
inline bool flag(ByteReader& r) {
  return r.u64("an op's flag") != 0;
}
inline Vec3 vec(ByteReader& r) {
  Vec3 v;
  for (int i = 0; i < 3; ++i) v(i) = f64(r);
  return v;
}
inline Quat quat(ByteReader& r) {
  const double w = f64(r), x = f64(r), y = f64(r), z = f64(r);
  return Quat(w, x, y, z);
}
inline std::string text(ByteReader& r) {
  const std::size_t n = r.count("an op's text", 1);
  return std::string(r.bytes(n, "an op's text"));
}

template <class T>
inline void get(ByteReader& r, T& out) {
  if constexpr (std::is_same_v<T, double>)
    out = f64(r);
  else if constexpr (std::is_same_v<T, bool>)
    out = flag(r);
  else if constexpr (std::is_same_v<T, int>)
    out = i32(r);
  else if constexpr (std::is_same_v<T, Vec3>)
    out = vec(r);
  else if constexpr (std::is_same_v<T, Stabilization>)
    out = static_cast<Stabilization>(r.u64("stabilization"));
  else
    static_assert(!sizeof(T), "a setting of a type the record does not write");
}

inline void put_settings(ByteWriter& w, const WorldSettings& s) {
  visit_settings(s, [&](const auto& field, const SettingInfo&) { put(w, field); });
}
inline WorldSettings get_settings(ByteReader& r) {
  WorldSettings s;
  visit_settings(s, [&](auto& field, const SettingInfo&) { get(r, field); });
  return s;
}

inline void put_limits_motor(ByteWriter& w, const std::optional<JointLimits>& l,
                             const std::optional<JointMotor>& m) {
  put(w, l.has_value());
  if (l) put(w, l->lower), put(w, l->upper);
  put(w, m.has_value());
  if (m) put(w, m->target_velocity), put(w, m->max_impulse);
}
template <class Settings>
Settings get_axis_joint(ByteReader& r) {
  Settings s;
  s.name = text(r);
  s.anchor_W = vec(r);
  s.axis_W = vec(r);
  if (flag(r)) {
    const double lo = f64(r), hi = f64(r);
    s.limits = JointLimits{lo, hi};
  }
  if (flag(r)) {
    const double v = f64(r), m = f64(r);
    s.motor = JointMotor{v, m};
  }
  return s;
}

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace pivot::python::record
