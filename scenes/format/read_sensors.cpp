// "sensors": each entry a sensor of engine/sensors.hpp, its body, joint and actuator resolved by
// name (docs/sensors.md "In a scene"; docs/scene-format.md "Sensors").
#include <unordered_map>

#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

namespace {

// a sensor name is a column prefix of sensors.csv ("NAME.FIELD"): no comma, quote or control
// character, so the header needs no quoting
void check_name(const Context& ctx, const Object& o, const std::string& name) {
  if (name.empty()) ctx.fail(o.pointer("name"), "expected a non-empty name");
  for (const char c : name)
    if (c == ',' || c == '"' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      ctx.fail(o.pointer("name"),
               fmt::format("the name {} holds a comma, a quote or a control character (it heads "
                           "columns of sensors.csv)",
                           pivot::quoted(name)));
}

int body_named(const Context& ctx, const Object& o, const char* key, const Scene& scene) {
  const std::string name = o.required_string(key);
  const int b = scene.find_body(name);
  if (b < 0) ctx.fail(o.pointer(key), fmt::format("no body named {}", pivot::quoted(name)));
  return b;
}

int joint_named(const Context& ctx, const Object& o, const Scene& scene) {
  const std::string name = o.required_string("joint");
  for (std::size_t i = 0; i < scene.joints.size(); ++i)
    if (scene.joints[i].name() == name) return static_cast<int>(i);
  ctx.fail(o.pointer("joint"), fmt::format("no joint named {}", pivot::quoted(name)));
}

int actuator_named(const Context& ctx, const Object& o, const Scene& scene) {
  const std::string name = o.required_string("actuator");
  for (std::size_t i = 0; i < scene.actuators.size(); ++i)
    if (scene.actuators[i].settings.name == name) return static_cast<int>(i);
  ctx.fail(o.pointer("actuator"), fmt::format("no actuator named {}", pivot::quoted(name)));
}

std::vector<std::string> keys_with(std::vector<std::string> keys,
                                   const std::vector<std::string>& more) {
  keys.insert(keys.end(), more.begin(), more.end());
  return keys;
}

SensorSettings read_sensor(const Context& ctx, const json& j, const std::string& ptr,
                           const Scene& scene) {
  const Object head(ctx, j, ptr, {}, false);
  const std::string type = head.required_string("type");
  const std::vector<std::string> common = {"name", "type", "period"};
  std::vector<std::string> allowed;
  if (type == "joint")
    allowed = keys_with(common, {"joint"});
  else if (type == "contact")
    allowed = keys_with(common, {"body", "other"});
  else if (type == "imu")
    allowed = keys_with(keys_with(common, {"body", "position"}), kOrientationKeys);
  else if (type == "range")
    allowed = keys_with(common, {"body", "position", "direction", "max_range"});
  else if (type == "actuator")
    allowed = keys_with(common, {"actuator"});
  else
    ctx.fail(head.pointer("type"), fmt::format("unknown sensor type {} (expected joint, contact, "
                                               "imu, range or actuator)",
                                               pivot::quoted(type)));
  const Object o(ctx, j, ptr, allowed);
  const std::string name = o.required_string("name");
  check_name(ctx, o, name);
  const double period = o.number("period", 0.0, Range::non_negative);
  if (type == "joint")
    return JointSensorSettings{.name = name, .joint = joint_named(ctx, o, scene), .period = period};
  if (type == "contact") {
    const int body = body_named(ctx, o, "body", scene);
    const int other = o.has("other") ? body_named(ctx, o, "other", scene) : -1;
    if (other == body)
      ctx.fail(o.pointer("other"),
               "expected a body other than \"body\" (a body has no contact "
               "with itself)");
    return ContactSensorSettings{.name = name, .body = body, .other = other, .period = period};
  }
  if (type == "imu")
    return ImuSensorSettings{
        .name = name,
        .body = body_named(ctx, o, "body", scene),
        .p_BS = within(ctx, o.pointer("position"), o.vec3("position", Vec3::Zero(), Range::any),
                       kMaxLength, "m"),
        .q_BS = o.orientation(),
        .period = period};
  if (type == "range")
    return RangeSensorSettings{
        .name = name,
        .body = body_named(ctx, o, "body", scene),
        .origin_B = within(ctx, o.pointer("position"), o.vec3("position", Vec3::Zero(), Range::any),
                           kMaxLength, "m"),
        .direction_B = o.unit_vec3("direction", Vec3::UnitX()),
        .max_range = within(ctx, o.pointer("max_range"),
                            o.number("max_range", 10.0, Range::positive), kMaxLength, "m"),
        .period = period};
  return ActuatorSensorSettings{
      .name = name, .actuator = actuator_named(ctx, o, scene), .period = period};
}

}  // namespace

std::vector<SensorSettings> read_sensors(const Context& ctx, const json& j, const Scene& scene) {
  if (!j.is_array()) ctx.fail("/sensors", fmt::format("expected an array (got {})", describe(j)));
  std::vector<SensorSettings> sensors;
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string ptr = "/sensors/" + std::to_string(i);
    SensorSettings s = read_sensor(ctx, j[i], ptr, scene);
    const std::string& name =
        std::visit([](const auto& x) -> const std::string& { return x.name; }, s);
    const auto [it, fresh] = seen.emplace(name, i);
    if (!fresh)
      ctx.fail(ptr + "/name", fmt::format("duplicate sensor name {} (also /sensors/{}/name)",
                                          pivot::quoted(name), it->second));
    sensors.push_back(std::move(s));
  }
  return sensors;
}

}  // namespace pivot::detail
