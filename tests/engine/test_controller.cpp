// The actuator sensor against closed forms (a velocity servo's implicit decay, an effort
// actuator's clamp, a position servo's angle from the pose) and the control loop
// (engine/controller.hpp): a controller commanding the exact gravity torque holds a pendulum.
#include <catch2/catch.hpp>
#include <cmath>

#include "pivot/engine/controller.hpp"
#include "pivot/engine/world.hpp"
#include "support/spinner.hpp"

using namespace pivot;

namespace {
constexpr double kG = 9.81;

using pivot::test::make_spinner;
using pivot::test::Spinner;
}  // namespace

TEST_CASE("an actuator sensor on a velocity servo follows the implicit step's closed form",
          "[sensors][controller]") {
  // I (θ̇⁺ − θ̇) = h kd (ω_r − θ̇⁺)  ⇒  ω_r − θ̇_N = ω_r r^N,  r = I / (I + h kd);
  // the effort is kd (ω_r − θ̇_N) while it stays below the limit
  const double h = 1e-3, I = 0.05, kd = 2.0, omega_r = 3.0;
  Spinner s = make_spinner(h, I);
  const int a = s.world.add_actuator({.name = "spin",
                                      .joint = s.hinge,
                                      .type = ActuatorType::velocity,
                                      .kd = kd,
                                      .effort_limit = 100.0,
                                      .keys = {{0.0, omega_r}}});
  SensorSet sensors;
  const int k = sensors.add(ActuatorSensorSettings{.name = "servo", .actuator = a});
  CHECK(sensors.fields(k) == std::vector<std::string>{"target", "value", "error", "effort"});
  sensors.observe(s.world);
  const double r = I / (I + h * kd);
  for (int n = 1; n <= 200; ++n) {
    control_step(s.world, sensors, {});
    const double error = omega_r * std::pow(r, n);
    const auto& v = sensors.latest(k).values;
    REQUIRE(v[0] == omega_r);
    REQUIRE(v[1] == Approx(omega_r - error).epsilon(1e-10));
    REQUIRE(v[2] == Approx(error).epsilon(1e-8));
    REQUIRE(v[3] == Approx(kd * error).epsilon(1e-8));
  }
}

TEST_CASE(
    "an actuator sensor on an effort actuator reads the clamped effort, on a position "
    "servo the joint angle",
    "[sensors][controller]") {
  Spinner s = make_spinner(1e-3, 0.05);
  const int effort = s.world.add_actuator({.name = "push",
                                           .joint = s.hinge,
                                           .type = ActuatorType::effort,
                                           .effort_limit = 2.0,
                                           .keys = {{0.0, 5.0}}});
  SensorSet sensors;
  const int k = sensors.add(ActuatorSensorSettings{.name = "push", .actuator = effort});
  sensors.observe(s.world);
  for (int n = 0; n < 10; ++n) control_step(s.world, sensors, {});
  CHECK(sensors.latest(k).values == std::vector<double>{5.0, 2.0, 3.0, 2.0});

  Spinner p = make_spinner(1e-3, 0.05);
  const int servo = p.world.add_actuator({.name = "hold",
                                          .joint = p.hinge,
                                          .type = ActuatorType::position,
                                          .kp = 50.0,
                                          .kd = 1.0,
                                          .effort_limit = 100.0,
                                          .keys = {{0.0, 0.0}, {1.0, 0.8}}});
  SensorSet ps;
  const int j = ps.add(ActuatorSensorSettings{.name = "hold", .actuator = servo});
  ps.observe(p.world);
  for (int n = 0; n < 300; ++n) control_step(p.world, ps, {});
  const Quat q = p.world.pose(p.rod).q_WB;
  const double theta = -2.0 * std::atan2(q.z(), q.w());  // the rod's turn about z, negated
  const auto& v = ps.latest(j).values;
  CHECK(v[0] == Approx(0.8 * p.world.time()).epsilon(1e-12));
  CHECK(v[1] == Approx(theta).margin(1e-12));
  CHECK(v[2] == v[0] - v[1]);
  CHECK(v[3] == p.world.actuator(servo).effort());
  CHECK_THROWS_WITH(ps.add(ActuatorSensorSettings{.name = "hold", .actuator = servo}),
                    Catch::Contains("used twice"));
  SensorSet bad;
  bad.add(ActuatorSensorSettings{.name = "none", .actuator = 3});
  CHECK_THROWS_WITH(bad.observe(p.world),
                    Catch::Contains("actuator index 3 is not an actuator of the world"));
}

namespace {
// a bob of mass m at distance l below-and-aside a hinge about world y at the origin, at ψ0 from
// the downward vertical; A = bob, B = world. The bob's turn φ about +y moves it to ψ = ψ0 − φ
// and the hinge angle is θ = −φ (B's turn relative to A), so ψ = ψ0 + θ, V = −m g l cos(ψ0 + θ)
// and the generalized gravity force along θ is −m g l sin(ψ0 + θ): an effort u = m g l sin(ψ0 + θ)
// cancels it.
struct Pendulum {
  World world;
  int bob = 0, hinge = 0, motor = 0;
};
constexpr double kMass = 1.3, kLength = 0.7, kPsi0 = 0.6;
Pendulum make_pendulum() {
  Pendulum p{World({.time_step = 1e-3}), 0, 0, 0};
  p.bob =
      p.world.add_body({.name = "bob",
                        .mass = kMass,
                        .inertia_diag = Vec3(1e-3, 1e-3, 1e-3),
                        .p_WS = Vec3(kLength * std::sin(kPsi0), 0.0, -kLength * std::cos(kPsi0))});
  p.hinge = p.world.add_joint(
      HingeJointSettings{.name = "pivot", .anchor_W = Vec3::Zero(), .axis_W = Vec3::UnitY()}, p.bob,
      kWorldBody);
  p.motor = p.world.add_actuator(
      {.name = "motor", .joint = p.hinge, .type = ActuatorType::effort, .effort_limit = 100.0});
  return p;
}
double psi_of(const Pendulum& p) {
  const Vec3 r = p.world.pose(p.bob).p_WB;
  return std::atan2(r.x(), -r.z());
}
}  // namespace

TEST_CASE("a controller commanding the gravity torque m g l sin(psi) holds a pendulum still",
          "[controller]") {
  Pendulum p = make_pendulum();
  SensorSet sensors;
  sensors.add(JointSensorSettings{.name = "pivot", .joint = p.hinge});
  sensors.observe(p.world);
  const Controller hold = [](ControlContext& c) {
    c.set_target("motor", kMass * kG * kLength * std::sin(kPsi0 + c.value("pivot", "q")));
  };
  double worst = 0.0;
  for (int n = 0; n < 1000; ++n) {
    control_step(p.world, sensors, hold);
    worst = std::max(worst, std::abs(psi_of(p) - kPsi0));
  }
  CHECK(p.world.time() == Approx(1.0));
  CHECK(worst <= 1e-9);
  CHECK(std::abs(p.world.actuator(p.motor).effort() - kMass * kG * kLength * std::sin(kPsi0)) <
        1e-9);

  // without the controller the pendulum swings: after 0.2 s it has left ψ0 by far more
  Pendulum free = make_pendulum();
  SensorSet none;
  for (int n = 0; n < 200; ++n) control_step(free.world, none, {});
  CHECK(std::abs(psi_of(free) - kPsi0) > 1e-2);
}

TEST_CASE("a controller names unknown sensors, fields and actuators", "[controller]") {
  Pendulum p = make_pendulum();
  SensorSet sensors;
  sensors.add(JointSensorSettings{.name = "pivot", .joint = p.hinge});
  ControlContext c(p.world, sensors);
  CHECK_THROWS_WITH(c.value("pivot", "q"), Catch::Contains("no sample yet"));
  sensors.observe(p.world);
  CHECK(c.value("pivot", "q") == 0.0);
  CHECK_THROWS_WITH(c.value("imu", "ax"), Catch::Contains("no sensor named \"imu\""));
  CHECK_THROWS_WITH(c.value("pivot", "ax"), Catch::Contains("has no field \"ax\""));
  CHECK_THROWS_WITH(c.set_target("elbow", 1.0), Catch::Contains("no actuator named \"elbow\""));
  CHECK_THROWS(c.set_target("motor", std::nan("")));
}
