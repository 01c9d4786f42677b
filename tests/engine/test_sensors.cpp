// Sensors (engine/sensors.hpp) against closed forms: an IMU at rest and in free fall, the
// contact force of a resting stack, a pendulum's joint coordinate and reaction, a ray's range.
#include <catch2/catch.hpp>
#include <cmath>

#include "pivot/engine/sensors.hpp"
#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {
constexpr double kG = 9.81;

int add_ground(World& world) {
  return world.add_body(
      {.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0), .friction = 0.5});
}

int add_box(World& world, const std::string& name, double mass, double z) {
  return world.add_body({.name = name,
                         .mass = mass,
                         .shape = make_box(Vec3(0.1, 0.1, 0.05)),
                         .p_WS = Vec3(0.0, 0.0, z)});
}

void run(World& world, SensorSet& sensors, double seconds) {
  while (world.time() < seconds - 1e-12) {
    world.step();
    sensors.observe(world);
  }
}
}  // namespace

TEST_CASE("an IMU at rest on the ground reads -g in its frame, also when turned", "[sensors]") {
  World world({.time_step = 1e-3});
  add_ground(world);
  const int box = add_box(world, "box", 2.0, 0.05);
  SensorSet sensors;
  const int level =
      sensors.add(ImuSensorSettings{.name = "level", .body = box, .p_BS = Vec3(0.05, -0.03, 0.02)});
  // the sensor frame turned +90° about the body's x: its y axis is the body's z (world up)
  const int turned = sensors.add(ImuSensorSettings{
      .name = "turned", .body = box, .q_BS = Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitX()))});
  sensors.observe(world);
  run(world, sensors, 1.0);
  const auto& a = sensors.latest(level).values;
  // a resting body has a = 0, so a − g = (0, 0, +9.81): −g, up, in a frame aligned with world
  CHECK(a[0] == Approx(0.0).margin(1e-6));
  CHECK(a[1] == Approx(0.0).margin(1e-6));
  CHECK(a[2] == Approx(kG).epsilon(1e-9));
  CHECK(a[6] == Approx(1.0).epsilon(1e-12));  // q_WS = identity
  const auto& b = sensors.latest(turned).values;
  CHECK(b[0] == Approx(0.0).margin(1e-6));
  CHECK(b[1] == Approx(kG).epsilon(1e-9));
  CHECK(b[2] == Approx(0.0).margin(1e-6));
  // q_WS = rotation of +90° about x: (cos 45°, sin 45°, 0, 0)
  CHECK(b[6] == Approx(std::sqrt(0.5)).epsilon(1e-12));
  CHECK(b[7] == Approx(std::sqrt(0.5)).epsilon(1e-12));
}

TEST_CASE("an IMU in free fall reads zero specific force and its angular velocity", "[sensors]") {
  World world({.time_step = 1e-3});
  const int body = world.add_body(
      {.name = "b", .mass = 1.0, .p_WS = Vec3(0, 0, 10), .v_WB = Vec3(1.0, 0.0, 2.0)});
  SensorSet sensors;
  const int imu = sensors.add(
      ImuSensorSettings{.name = "imu", .body = body, .p_BS = Vec3(0.1, 0.2, 0.3), .period = 0.05});
  sensors.observe(world);
  run(world, sensors, 0.5);
  const auto& f = sensors.latest(imu).values;
  CHECK(std::abs(f[0]) < 1e-9);
  CHECK(std::abs(f[1]) < 1e-9);
  CHECK(std::abs(f[2]) < 1e-9);
  CHECK(sensors.latest(imu).time == Approx(0.5).epsilon(1e-12));
}

TEST_CASE("contact sensors of a resting stack carry the weight above each body", "[sensors]") {
  // each step's contact impulses hold the weight still: a body of mass m_i under a load of
  // mass m_above gets m_above g h from above and (m_i + m_above) g h from below, per step
  const double h = 1e-3, m_low = 2.0, m_top = 0.5;
  World world({.time_step = h});
  const int ground = add_ground(world);
  const int low = add_box(world, "low", m_low, 0.05);
  const int top = add_box(world, "top", m_top, 0.15);
  SensorSet sensors;
  const int low_ground =
      sensors.add(ContactSensorSettings{.name = "lg", .body = low, .other = ground});
  const int low_top = sensors.add(ContactSensorSettings{.name = "lt", .body = low, .other = top});
  const int low_all = sensors.add(ContactSensorSettings{.name = "la", .body = low});
  const int top_all = sensors.add(ContactSensorSettings{.name = "ta", .body = top});
  const int ground_all = sensors.add(ContactSensorSettings{.name = "g", .body = ground});
  run(world, sensors, 1.0);
  const auto impulse_z = [&](int s) { return sensors.latest(s).values[2] * h; };
  CHECK(impulse_z(low_ground) == Approx((m_low + m_top) * kG * h).epsilon(1e-9));
  CHECK(impulse_z(low_top) == Approx(-m_top * kG * h).epsilon(1e-9));
  CHECK(impulse_z(low_all) == Approx(m_low * kG * h).epsilon(1e-9));
  CHECK(impulse_z(top_all) == Approx(m_top * kG * h).epsilon(1e-9));
  CHECK(impulse_z(ground_all) == Approx(-(m_low + m_top) * kG * h).epsilon(1e-9));
  // a centred stack: no horizontal force, no torque about the COM
  for (int k : {0, 1, 3, 4, 5}) CHECK(std::abs(sensors.latest(top_all).values[k]) < 1e-9);
}

TEST_CASE("a joint sensor reads a pendulum's angle, rate and reaction", "[sensors]") {
  const double m = 1.5;
  World world({.time_step = 1e-3});
  // a point mass on a hinge about world y at (0, 0, 1), started horizontal at (1, 0, 1)
  const int bob = world.add_body({.name = "bob",
                                  .mass = m,
                                  .inertia_diag = Vec3(1e-3, 1e-3, 1e-3),
                                  .p_WS = Vec3(1.0, 0.0, 1.0)});
  const int hinge = world.add_joint(
      HingeJointSettings{.name = "pivot", .anchor_W = Vec3(0, 0, 1), .axis_W = Vec3::UnitY()}, bob,
      kWorldBody);
  SensorSet sensors;
  const int s = sensors.add(JointSensorSettings{.name = "j", .joint = hinge});
  run(world, sensors, 0.3);
  // the bob's turn φ about +y from its start, from its position: (1,0,0) ↦ (cos φ, 0, −sin φ);
  // θ is B's (the world's) turn relative to A (the bob), so θ = −φ and θ̇ = −ω_y
  const Vec3 r = world.pose(bob).p_WB - Vec3(0, 0, 1);
  const double phi = std::atan2(-r.z(), r.x());
  const auto& v = sensors.latest(s).values;
  CHECK(phi > 0.3);
  CHECK(v[0] == Approx(-phi).margin(1e-6));
  CHECK(v[1] == Approx(-world.twist(bob).w().y()).margin(1e-9));
}

TEST_CASE("a hanging pendulum at rest: the joint holds its weight m g", "[sensors]") {
  const double m = 1.5;
  World world({.time_step = 1e-3});
  const int bob = world.add_body({.name = "bob", .mass = m, .p_WS = Vec3(0.0, 0.0, 0.0)});
  const int hinge = world.add_joint(
      HingeJointSettings{.name = "pivot", .anchor_W = Vec3(0, 0, 1), .axis_W = Vec3::UnitY()}, bob,
      kWorldBody);
  SensorSet sensors;
  const int s = sensors.add(JointSensorSettings{.name = "j", .joint = hinge});
  run(world, sensors, 0.1);
  const auto& v = sensors.latest(s).values;
  CHECK(v[2] == Approx(0.0).margin(1e-9));
  CHECK(v[3] == Approx(0.0).margin(1e-9));
  CHECK(v[4] == Approx(m * kG).epsilon(1e-9));               // up, on the bob (body A)
  for (int k = 5; k < 8; ++k) CHECK(std::abs(v[k]) < 1e-9);  // torque about the anchor
}

TEST_CASE("a range sensor measures the distance to a box face", "[sensors]") {
  World world({.time_step = 1e-3, .gravity = Vec3::Zero()});
  world.add_body({.name = "wall",
                  .fixed = true,
                  .shape = make_box(Vec3(0.5, 0.5, 0.5)),
                  .p_WS = Vec3(2.0, 0.0, 0.5)});
  // the sensor body turned +90° about z: its −y axis is world +x
  const int probe = world.add_body({.name = "probe",
                                    .mass = 1.0,
                                    .p_WS = Vec3(0.3, 0.1, 0.4),
                                    .q_WB = Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()))});
  SensorSet sensors;
  const int hit = sensors.add(RangeSensorSettings{.name = "r",
                                                  .body = probe,
                                                  .origin_B = Vec3(0.0, -0.2, 0.0),
                                                  .direction_B = -Vec3::UnitY(),
                                                  .max_range = 5.0});
  const int miss = sensors.add(RangeSensorSettings{
      .name = "m", .body = probe, .direction_B = Vec3::UnitY(), .max_range = 5.0});
  sensors.observe(world);
  // origin (0.5, 0.1, 0.4) in world, the face at x = 1.5: 1.0 m
  CHECK(sensors.latest(hit).values[0] == Approx(1.0).margin(1e-9));
  CHECK(sensors.latest(miss).values[0] == 5.0);
}

TEST_CASE("sensors sample at their own period", "[sensors]") {
  World world({.time_step = 1e-3});
  const int body = world.add_body({.name = "b", .mass = 1.0});
  SensorSet sensors;
  const int every = sensors.add(ImuSensorSettings{.name = "every", .body = body});
  const int slow = sensors.add(ImuSensorSettings{.name = "slow", .body = body, .period = 0.01});
  int n_every = 0, n_slow = 0;
  sensors.observe(world);
  n_every += sensors.sampled(every);
  n_slow += sensors.sampled(slow);
  for (int k = 0; k < 100; ++k) {
    world.step();
    sensors.observe(world);
    n_every += sensors.sampled(every);
    n_slow += sensors.sampled(slow);
  }
  CHECK(n_every == 101);  // t = 0 and after each of 100 steps
  CHECK(n_slow == 11);    // t = 0, 0.01, …, 0.1
  CHECK_THROWS_WITH(sensors.add(ImuSensorSettings{.name = "bad", .body = body, .period = -1.0}),
                    Catch::Contains("sensor \"bad\"") && Catch::Contains("period"));
}
