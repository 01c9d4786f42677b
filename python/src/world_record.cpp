// The record of a Python World's construction and World.save/load (world_record.hpp).
#include "world_record.hpp"

#include <filesystem>
#include <type_traits>
#include <variant>

#include "pivot/core/error.hpp"
#include "record_bytes.hpp"

namespace pivot::python {
namespace {

using namespace record;

constexpr std::string_view kMagic = "PIVOTPYW";
constexpr std::uint64_t kVersion = 1;

/// the shape of a recipe (the factory called again)
ShapePtr shape_from(ByteReader& r) {
  switch (static_cast<Recipe>(r.u64("a shape"))) {
    case Recipe::sphere:
      return make_sphere(f64(r));
    case Recipe::box:
      return make_box(vec(r));
    case Recipe::capsule: {
      const double radius = f64(r);
      return make_capsule(radius, f64(r));
    }
    case Recipe::cylinder: {
      const double radius = f64(r);
      return make_cylinder(radius, f64(r));
    }
    case Recipe::ellipsoid:
      return make_ellipsoid(vec(r));
    case Recipe::convex: {
      std::vector<Vec3> points(r.count("convex points", 24));
      for (Vec3& p : points) p = vec(r);
      return make_convex(std::move(points));
    }
    case Recipe::plane: {
      const Vec3 n = vec(r);
      return make_plane(n, f64(r));
    }
    case Recipe::mesh:
      return load_mesh_file(text(r));
  }
  throw Error("checkpoint: corrupt (an unknown shape)");
}

SensorSettings get_sensor(ByteReader& r) {
  const auto kind = r.u64("a sensor's kind");
  std::string name = text(r);
  switch (kind) {
    case 0: {
      JointSensorSettings s{.name = name};
      s.joint = i32(r);
      s.period = f64(r);
      return s;
    }
    case 1: {
      ContactSensorSettings s{.name = name};
      s.body = i32(r);
      s.other = i32(r);
      s.period = f64(r);
      return s;
    }
    case 2: {
      ImuSensorSettings s{.name = name};
      s.body = i32(r);
      s.p_BS = vec(r);
      s.q_BS = quat(r);
      s.period = f64(r);
      return s;
    }
    case 3: {
      RangeSensorSettings s{.name = name};
      s.body = i32(r);
      s.origin_B = vec(r);
      s.direction_B = vec(r);
      s.max_range = f64(r);
      s.period = f64(r);
      return s;
    }
    case 4: {
      ActuatorSensorSettings s{.name = name};
      s.actuator = i32(r);
      s.period = f64(r);
      return s;
    }
    default:
      throw Error("checkpoint: corrupt (an unknown sensor kind)");
  }
}

const std::string& sensor_name(const SensorSettings& s) {
  return std::visit([](const auto& x) -> const std::string& { return x.name; }, s);
}

/// adds a sensor after checking it against the World (its body or joint index), so that a bad
/// definition is refused here, naming the sensor, rather than at the next step
int add_sensor(const World& world, WorldSensors& sensors, const SensorSettings& s) {
  if (!sensor_name(s).empty() && sensors.set.find(sensor_name(s)) >= 0)
    throw Error("sensor \"" + sensor_name(s) + "\": the name is taken by another sensor");
  SensorSet trial = sensors.set;
  const int index = trial.add(s);
  (void)trial.read(world, index);
  sensors.set.add(s);
  sensors.settings.push_back(s);
  return index;
}

/// performs one op read from `r` on the World and its sensors; returns the index it made
int apply(World& w, WorldSensors& sensors, ByteReader& r) {
  switch (static_cast<Op>(r.u64("an op"))) {
    case Op::settings:
      w = World(get_settings(r));
      return -1;
    case Op::body: {
      BodySettings s;
      s.name = text(r);
      s.mass = f64(r);
      if (flag(r)) s.shape = shape_from(r);
      s.p_WS = vec(r);
      s.q_WB = quat(r);
      s.v_WB = vec(r);
      s.w_WB = vec(r);
      s.fixed = flag(r);
      s.density = f64(r);
      if (flag(r)) s.inertia_diag = vec(r);
      s.friction = f64(r);
      s.restitution = f64(r);
      return w.add_body(s);
    }
    case Op::ball: {
      BallJointSettings s{.name = text(r)};
      s.anchor_W = vec(r);
      const int a = i32(r);
      return w.add_joint(s, a, i32(r));
    }
    case Op::fixed: {
      FixedJointSettings s{.name = text(r)};
      s.anchor_W = vec(r);
      const int a = i32(r);
      return w.add_joint(s, a, i32(r));
    }
    case Op::hinge: {
      const auto s = get_axis_joint<HingeJointSettings>(r);
      const int a = i32(r);
      return w.add_joint(s, a, i32(r));
    }
    case Op::slider: {
      const auto s = get_axis_joint<SliderJointSettings>(r);
      const int a = i32(r);
      return w.add_joint(s, a, i32(r));
    }
    case Op::universal: {
      UniversalJointSettings s{.name = text(r)};
      s.anchor_W = vec(r);
      s.axis_a_W = vec(r);
      s.axis_b_W = vec(r);
      const int a = i32(r);
      return w.add_joint(s, a, i32(r));
    }
    case Op::force: {
      ConstantForceSettings s;
      s.body = i32(r);
      s.force = vec(r);
      s.torque = vec(r);
      w.add_force(s);
      return -1;
    }
    case Op::spring: {
      SpringSettings s;
      s.body_a = i32(r);
      s.p_APa = vec(r);
      s.body_b = i32(r);
      s.p_BPb = vec(r);
      s.stiffness = f64(r);
      s.damping = f64(r);
      s.rest_length = f64(r);
      w.add_spring(s);
      return -1;
    }
    case Op::snapshot:
      w.restore_state(text(r));
      return -1;
    case Op::actuator: {
      ActuatorSettings s;
      s.name = text(r);
      s.joint = i32(r);
      s.type = static_cast<ActuatorType>(r.u64("an actuator's type"));
      s.kp = f64(r);
      s.kd = f64(r);
      s.effort_limit = f64(r);
      s.keys.resize(r.count("an actuator's keys", 16));
      for (auto& [t, v] : s.keys) t = f64(r), v = f64(r);
      return w.add_actuator(s);
    }
    case Op::sensor:
      return add_sensor(w, sensors, get_sensor(r));
  }
  throw Error("checkpoint: corrupt (an unknown op)");
}

/// every op of `ops` in order
void apply_all(World& w, WorldSensors& sensors, std::string_view ops) {
  ByteReader r(ops);
  while (r.remaining() > 0) apply(w, sensors, r);
}

void scene_sensors(const World& w, WorldSensors& sensors, const Scene& scene) {
  for (const SensorSettings& s : scene.sensors) add_sensor(w, sensors, s);
}

/// the parts of save_world's bytes
struct Saved {
  bool has_scene = false;
  std::string scene_json, scene_source;
  std::string_view ops;
  std::vector<std::pair<std::vector<std::pair<double, double>>, double>> actuators;
  std::string_view state;
};

Saved parse_saved(std::string_view bytes) {
  if (bytes.size() < kMagic.size() + 16 || bytes.substr(0, kMagic.size()) != kMagic)
    throw Error("World.load: not the bytes of World.save()");
  const std::string_view body = bytes.substr(0, bytes.size() - 8);
  ByteReader tail(bytes.substr(bytes.size() - 8));
  if (detail::fnv1a(body) != tail.u64("the checksum"))
    throw Error("World.load: truncated or corrupt bytes (checksum mismatch)");
  ByteReader r(body.substr(kMagic.size()));
  if (const auto v = r.u64("the version"); v != kVersion)
    throw Error("World.load: format version " + std::to_string(v) + " (this build reads version " +
                std::to_string(kVersion) + ")");
  Saved s;
  s.has_scene = r.u64("the scene flag") != 0;
  if (s.has_scene) {
    s.scene_json = text(r);
    s.scene_source = text(r);
  }
  s.ops = r.bytes(r.count("the ops", 1), "the ops");
  s.actuators.resize(r.count("the actuators", 16));
  for (auto& [keys, effort] : s.actuators) {
    keys.resize(r.count("an actuator's keys", 16));
    for (auto& [t, v] : keys) t = f64(r), v = f64(r);
    effort = f64(r);
  }
  s.state = r.bytes(r.count("the state", 1), "the state");
  return s;
}

/// the actuators' targets and efforts, then the engine state
void put_state(World& w, const Saved& s) {
  if (static_cast<int>(s.actuators.size()) != w.actuator_count())
    throw Error("World.restore: the bytes are of a World with " +
                std::to_string(s.actuators.size()) + " actuators (this one has " +
                std::to_string(w.actuator_count()) + ")");
  w.restore_state(s.state);
  for (int a = 0; a < w.actuator_count(); ++a) {
    w.actuator(a).set_keys(s.actuators[static_cast<std::size_t>(a)].first);
    w.actuator(a).set_effort(s.actuators[static_cast<std::size_t>(a)].second);
  }
}

/// fresh sensors of the same settings, not yet observed: they read the values now until the
/// next step observes them first (at the state a program may still change, e.g. set_state)
void reset_sensors(const World& w, WorldSensors& sensors) {
  WorldSensors fresh;
  for (const SensorSettings& s : sensors.settings) add_sensor(w, fresh, s);
  sensors = std::move(fresh);
}

/// the scene's resolved JSON (resolved_scene_json), made once
const std::string& scene_json(WorldRecord& record) {
  if (record.scene_json.empty()) record.scene_json = resolved_scene_json(*record.scene);
  return record.scene_json;
}

}  // namespace

// ---- handles ----

std::unique_ptr<WorldHandle> new_world(const WorldSettings& settings) {
  ByteWriter w;
  put(w, Op::settings);
  put_settings(w, settings);
  WorldRecord record;
  record.ops = std::move(w.str());
  World world;
  WorldSensors unused;
  apply_all(world, unused, record.ops);
  return std::make_unique<WorldHandle>(std::move(world), std::move(record));
}

std::unique_ptr<WorldHandle> new_scene_world(std::shared_ptr<const Scene> scene) {
  World world = build_world(*scene);
  WorldRecord record;
  record.scene = scene;
  auto h = std::make_unique<WorldHandle>(std::move(world), std::move(record));
  const WorldHandle::Use u(*h);
  scene_sensors(*u, u.sensors(), *scene);
  return h;
}

std::unique_ptr<WorldHandle> ran_scene_world(World world, std::shared_ptr<const Scene> scene) {
  WorldRecord record;
  record.scene = scene;
  record.state_changed = true;
  auto h = std::make_unique<WorldHandle>(std::move(world), std::move(record));
  const WorldHandle::Use u(*h);
  scene_sensors(*u, u.sensors(), *scene);
  reset_sensors(*u, u.sensors());
  return h;
}

int record_op(const WorldHandle::Use& u, std::string op) {
  WorldRecord& record = u.record();
  if (record.state_changed && record.broken.empty()) {
    try {
      ByteWriter w;
      put(w, Op::snapshot);
      put(w, u->save_state());
      record.ops += w.str();
    } catch (const Error& e) {
      record.broken = e.what();
    }
  }
  record.state_changed = false;
  ByteReader r(op);
  const int index = apply(*u, u.sensors(), r);
  record.ops += op;
  return index;
}

void state_changed(const WorldHandle::Use& u) {
  u.record().state_changed = true;
}

std::string save_world(const WorldHandle::Use& u) {
  WorldRecord& record = u.record();
  if (!record.broken.empty())
    throw Error("World.save: a structural call followed a state that cannot be saved (" +
                record.broken + ")");
  ByteWriter w;
  w.bytes(kMagic);
  w.u64(kVersion);
  w.u64(record.scene ? 1 : 0);
  if (record.scene) {
    w.text(scene_json(record));
    w.text(record.scene->source);
  }
  w.text(record.ops);
  w.u64(static_cast<std::uint64_t>(u->actuator_count()));
  for (int a = 0; a < u->actuator_count(); ++a) {
    const Actuator& act = u->actuator(a);
    w.u64(act.settings().keys.size());
    for (const auto& [t, v] : act.settings().keys) w.f64(t), w.f64(v);
    w.f64(act.effort());
  }
  w.text(u->save_state());
  w.u64(detail::fnv1a(w.str()));
  return std::move(w.str());
}

std::unique_ptr<WorldHandle> load_world(std::string_view bytes) {
  const Saved s = parse_saved(bytes);
  std::unique_ptr<WorldHandle> h;
  if (s.has_scene)
    h = new_scene_world(std::make_shared<const Scene>(
        parse_scene(s.scene_json, std::filesystem::path("/"), s.scene_source)));
  else
    h = std::make_unique<WorldHandle>(World(), WorldRecord{});
  const WorldHandle::Use u(*h);
  apply_all(*u, u.sensors(), s.ops);
  u.record().ops = std::string(s.ops);
  u.record().scene_json = s.scene_json;
  put_state(*u, s);
  state_changed(u);
  reset_sensors(*u, u.sensors());
  return h;
}

void restore_world(const WorldHandle::Use& u, std::string_view bytes) {
  const Saved s = parse_saved(bytes);
  WorldRecord& record = u.record();
  if (s.ops != record.ops || s.has_scene != static_cast<bool>(record.scene) ||
      (s.has_scene && s.scene_json != scene_json(record)))
    throw Error(
        "World.restore: the bytes are of a World built by other calls (pivot.World.load makes a "
        "new World from them)");
  put_state(*u, s);
  state_changed(u);
  reset_sensors(*u, u.sensors());
}

}  // namespace pivot::python
