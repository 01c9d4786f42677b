// Fuzz target: the Python module's argument paths (docs/python.md, docs/reliability.md).
//
// pivot.World's bindings (python/src/bind_world.cpp) convert Python values with pybind11 (a
// value of the wrong type is pybind11's TypeError, before any Pivot code runs) and pass them,
// unchanged, through python/src/world_args.hpp to the engine. This target runs those same
// conversions and calls on the values a Python caller can pass and pybind11 lets through:
// any double (NaN, ±inf, ±0, subnormals, 1e300), any int (indices out of range, -1 for the
// world), any string among the documented ones and others. No interpreter: what can break is
// the C++ below the binding, which is what this reaches, at libFuzzer's speed and under ASan.
//
// The input decodes into a WorldSettings and a sequence of up to 48 calls (World(settings),
// the shapes, add_body, the joints, add_force, add_spring, step, set_state, apply_impulse,
// joint_impulse, set_hybrid, find_body, and the readers positions/twists/contacts/report/
// energies/state_hash). Contract: every call returns or throws pivot::Error with a message
// (pivot.Error, a ValueError); any other exception (a RuntimeError or IndexError in Python), a
// crash or a sanitizer report is a finding; after a step the state is finite or the step
// reported a failure. Seeds: tests/fuzz/corpus/python_args.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_support.hpp"
#include "pivot/scenes/scene.hpp"
#include "world_args.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

namespace {

using pivot::Vec3;
using pivot::fuzz::finding;

/// a double as a Python caller may pass one: special values often, ordinary ones otherwise
double value(pivot::fuzz::ByteReader& r) {
  switch (r.below(10)) {
    case 0:
      return std::numeric_limits<double>::quiet_NaN();
    case 1:
      return std::numeric_limits<double>::infinity() * (r.flag() ? 1.0 : -1.0);
    case 2:
      return (r.flag() ? 1.0 : -1.0) * r.magnitude(100.0, 308.0);
    case 3:
      return (r.flag() ? 1.0 : -1.0) * 4.9e-324 * (1 + r.below(100));
    case 4:
      return r.flag() ? 0.0 : -0.0;
    default:
      return r.unit_ish() * r.magnitude(-6.0, 6.0);
  }
}
Vec3 vec3(pivot::fuzz::ByteReader& r) {
  return {value(r), value(r), value(r)};
}
/// a body or joint index: mostly valid ones, -1 (the world) and anything else
int index(pivot::fuzz::ByteReader& r, int count) {
  switch (r.below(4)) {
    case 0:
      return -1;
    case 1:
      return r.int16();
    default:
      return count > 0 ? r.below(count) : 0;
  }
}
std::optional<std::pair<double, double>> pair_or_none(pivot::fuzz::ByteReader& r) {
  if (r.flag()) return std::nullopt;
  return std::pair{value(r), value(r)};
}

pivot::ShapePtr shape(pivot::fuzz::ByteReader& r) {
  switch (r.below(8)) {
    case 0:
      return pivot::make_sphere(value(r));
    case 1:
      return pivot::make_box(vec3(r));
    case 2:
      return pivot::make_capsule(value(r), value(r));
    case 3:
      return pivot::make_cylinder(value(r), value(r));
    case 4:
      return pivot::make_ellipsoid(vec3(r));
    case 5: {
      std::vector<Vec3> points(static_cast<std::size_t>(r.below(9)));
      for (Vec3& p : points) p = vec3(r);
      return pivot::make_convex(std::move(points));
    }
    case 6:
      return pivot::make_plane(vec3(r), value(r));
    default:
      return nullptr;  // shape=None
  }
}

bool finite_state(const pivot::World& w) {
  for (int i = 0; i < w.body_count(); ++i)
    if (!w.pose(i).p_WB.allFinite() || !w.pose(i).q_WB.coeffs().allFinite() ||
        !w.twist(i).allFinite())
      return false;
  return true;
}

/// one call of the API on `w`, chosen and filled from the bytes
void call(pivot::World& w, pivot::fuzz::ByteReader& r) {
  namespace py = pivot::python;
  const int bodies = w.body_count();
  switch (r.below(14)) {
    case 0:
    case 1: {
      std::string name;
      if (r.flag()) name.append("b").append(std::to_string(r.below(4)));
      const double mass = value(r);
      pivot::ShapePtr s = shape(r);
      const Vec3 p = vec3(r);
      const Eigen::Vector4d q(value(r), value(r), value(r), value(r));
      const Vec3 v = vec3(r), om = vec3(r);
      const bool fixed = r.flag();
      const double density = r.flag() ? 0.0 : value(r);
      const std::optional<Vec3> inertia = r.flag() ? std::nullopt : std::optional(vec3(r));
      const double friction = r.flag() ? 0.5 : value(r), restitution = r.flag() ? 0.0 : value(r);
      (void)w.add_body(py::body_settings(name, mass, std::move(s), p, q, v, om, fixed, density,
                                         inertia, friction, restitution));
      return;
    }
    case 2: {
      const int a = index(r, bodies), b = index(r, bodies);
      const Vec3 anchor = vec3(r);
      switch (r.below(5)) {
        case 0:
          (void)w.add_joint(pivot::BallJointSettings{.name = "", .anchor_W = anchor}, a, b);
          return;
        case 1:
          (void)w.add_joint(py::axis_joint<pivot::HingeJointSettings>(
                                anchor, vec3(r), pair_or_none(r), pair_or_none(r), ""),
                            a, b);
          return;
        case 2:
          (void)w.add_joint(py::axis_joint<pivot::SliderJointSettings>(
                                anchor, vec3(r), pair_or_none(r), pair_or_none(r), ""),
                            a, b);
          return;
        case 3:
          (void)w.add_joint(
              pivot::UniversalJointSettings{
                  .name = "", .anchor_W = anchor, .axis_a_W = vec3(r), .axis_b_W = vec3(r)},
              a, b);
          return;
        default:
          (void)w.add_joint(pivot::FixedJointSettings{.name = "", .anchor_W = anchor}, a, b);
          return;
      }
    }
    case 3:
      w.add_force(pivot::ConstantForceSettings{
          .body = index(r, bodies), .force = vec3(r), .torque = vec3(r)});
      return;
    case 4:
      w.add_spring(pivot::SpringSettings{.body_a = index(r, bodies),
                                         .p_APa = vec3(r),
                                         .body_b = index(r, bodies),
                                         .p_BPb = vec3(r),
                                         .stiffness = value(r),
                                         .damping = value(r),
                                         .rest_length = value(r)});
      return;
    case 5:
    case 6: {
      const int n = 1 + r.below(3);
      for (int k = 0; k < n; ++k) {
        const pivot::StepReport& report = w.step();
        if (report.failures == 0 && !finite_state(w))
          finding("a step without a reported failure left a non-finite state");
      }
      return;
    }
    case 7: {
      const int b = index(r, bodies);
      const Vec3 p = vec3(r);
      const Eigen::Vector4d q(value(r), value(r), value(r), value(r));
      pivot::Vec6 twist;
      for (int i = 0; i < 6; ++i) twist(i) = value(r);
      w.set_state(b, pivot::Pose{p, py::quat_from_wxyz(q)}, twist);
      return;
    }
    case 8:
      w.apply_impulse(index(r, bodies), vec3(r), vec3(r));
      return;
    case 9:
      (void)w.joint_impulse(index(r, w.joint_count()));
      return;
    case 10:
      w.set_hybrid(r.flag());
      return;
    case 11:
      (void)w.find_body(r.flag() ? "b0" : "");
      return;
    default: {
      // the readers: positions, quaternions_wxyz, twists, contacts, report, the energies, hash
      double sink = 0.0;
      for (int i = 0; i < w.body_count(); ++i) {
        sink += w.pose(i).p_WB.sum() + w.pose(i).q_WB.w() + w.twist(i).sum();
      }
      for (const pivot::ContactInfo& c : w.contacts()) sink += c.normal_impulse + c.contact.gap;
      sink += w.last_report().time + w.kinetic_energy() + w.potential_energy() +
              w.max_joint_error() + w.max_penetration();
      (void)pivot::hash_to_hex(pivot::state_hash(w));
      (void)sink;
      return;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pivot::fuzz::ByteReader r(data, size);
  // pivot.WorldSettings(**keywords): the binding sets the fields as given
  pivot::WorldSettings s;
  if (r.flag()) s.time_step = value(r);
  if (r.flag()) s.gravity = vec3(r);
  if (r.flag()) {
    static const char* const kNames[] = {"post", "baumgarte", "none", "sometimes", ""};
    try {
      s.stabilization = pivot::python::stabilization_from(kNames[r.below(5)]);
    } catch (const pivot::Error&) {
    }
  }
  if (r.flag()) s.baumgarte_alpha = value(r);
  if (r.flag()) s.post_step_cap = value(r);
  if (r.flag()) s.max_post_steps = r.int16();
  if (r.flag()) s.friction_directions = r.int16();
  if (r.flag()) s.contact_margin = value(r);
  if (r.flag()) s.restitution_threshold = value(r);
  if (r.flag()) s.limit_margin = value(r);
  s.hybrid = r.flag();
  if (r.flag()) s.hybrid_entry_steps = r.int16();
  s.threads = 1;
  std::optional<pivot::World> world;
  try {
    world.emplace(s);
  } catch (const pivot::Error& e) {
    if (std::string_view(e.what()).empty()) finding("World(settings): an empty message");
    return 0;
  } catch (const std::exception& e) {
    finding(std::string("World(settings) threw a non-pivot exception: ") + e.what());
  }
  for (int calls = 0; calls < 48 && !r.exhausted(); ++calls) {
    try {
      call(*world, r);
    } catch (const pivot::Error& e) {
      if (std::string_view(e.what()).empty()) finding("a call's pivot::Error has no message");
    } catch (const std::exception& e) {
      finding(std::string("a call threw a non-pivot exception (not pivot.Error in Python): ") +
              e.what());
    }
  }
  return 0;
}
