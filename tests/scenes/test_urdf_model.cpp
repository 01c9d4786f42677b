// URDF models (scenes/format/urdf.hpp, docs/models.md): forward kinematics of an imported chain
// against the URDF's joint origins composed here, the welded composite against the parallel-axis
// sum, a URDF pendulum's period against the closed form, models in scenes, mesh geometry as scene
// JSON, and a corpus of malformed files each refused naming the place.
#include <unistd.h>

#include <Eigen/Geometry>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>

#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/urdf.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace {

namespace fs = std::filesystem;
using pivot::Mat3;
using pivot::Vec3;

using pivot::test::TempDir;

// ---- an independent 4×4 homogeneous forward kinematics from the URDF's numbers ----

using Mat4 = Eigen::Matrix4d;

/// URDF rpy: fixed-axis roll about x, then pitch about y, then yaw about z: R = Rz Ry Rx
Mat3 rpy_matrix(double r, double p, double y) {
  const auto rx = [](double a) {
    Mat3 m;
    m << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a);
    return m;
  };
  const auto ry = [](double a) {
    Mat3 m;
    m << std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a);
    return m;
  };
  const auto rz = [](double a) {
    Mat3 m;
    m << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
    return m;
  };
  return rz(y) * ry(p) * rx(r);
}

Mat4 transform(const Vec3& xyz, const Mat3& R) {
  Mat4 T = Mat4::Identity();
  T.topLeftCorner<3, 3>() = R;
  T.topRightCorner<3, 1>() = xyz;
  return T;
}

/// Rodrigues: rotation by q about the unit axis k
Mat3 axis_rotation(const Vec3& k, double q) {
  Mat3 K;
  K << 0, -k.z(), k.y(), k.z(), 0, -k.x(), -k.y(), k.x(), 0;
  return Mat3::Identity() + std::sin(q) * K + (1 - std::cos(q)) * K * K;
}

std::string inertial_xml(double mass, const Vec3& xyz, const Vec3& rpy, const double I[6]) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<inertial><origin xyz=\"%.17g %.17g %.17g\" rpy=\"%.17g %.17g %.17g\"/>"
                "<mass value=\"%.17g\"/><inertia ixx=\"%.17g\" iyy=\"%.17g\" izz=\"%.17g\" "
                "ixy=\"%.17g\" ixz=\"%.17g\" iyz=\"%.17g\"/></inertial>",
                xyz.x(), xyz.y(), xyz.z(), rpy.x(), rpy.y(), rpy.z(), mass, I[0], I[1], I[2], I[3],
                I[4], I[5]);
  return buf;
}

Mat3 tensor(const double I[6]) {
  Mat3 T;
  T << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
  return T;
}

/// the world inertia tensor of a built body, R I_B Rᵀ
Mat3 world_inertia(const pivot::World& world, int body) {
  const Mat3 R = world.pose(body).q_WB.toRotationMatrix();
  return R * world.bodies().body(body).inertia_B * R.transpose();
}

}  // namespace

TEST_CASE("urdf: an imported chain's bodies follow the forward kinematics of its joint origins",
          "[scenes]") {
  // base (fixed) -j1 revolute- l1 -j2 revolute- l2 -j3 prismatic- l3, every origin rotated,
  // every inertial offset and rotated with a full tensor
  struct JointSpec {
    const char* type;
    Vec3 xyz, rpy, axis;
  };
  const JointSpec joints[3] = {
      {"revolute", {0.1, 0.0, 0.5}, {0.3, -0.2, 0.5}, {0, 0, 1}},
      {"revolute", {0.4, 0.1, 0.0}, {0.0, 1.2, 0.1}, {1, 1, 0}},
      {"prismatic", {0.0, 0.0, 0.3}, {0.2, 0.0, 0.0}, {0, 1, 0}},
  };
  const Vec3 com[3] = {{0.2, 0.05, 0.0}, {0.1, -0.1, 0.15}, {0.0, 0.2, -0.05}};
  const Vec3 com_rpy[3] = {{0.1, 0.2, 0.3}, {-0.4, 0.0, 0.2}, {0.0, 0.5, -0.1}};
  const double I[3][6] = {{0.02, 0.03, 0.04, 0.002, -0.001, 0.003},
                          {0.05, 0.04, 0.03, -0.004, 0.002, 0.001},
                          {0.01, 0.012, 0.015, 0.0, 0.001, -0.002}};
  const double mass[3] = {1.5, 1.0, 0.7};
  std::string xml = "<robot name=\"chain\"><link name=\"base\"/>";
  const char* parent = "base";
  const std::string names[3] = {"l1", "l2", "l3"};
  for (int i = 0; i < 3; ++i) {
    char buf[600];
    std::snprintf(buf, sizeof buf,
                  "<joint name=\"j%d\" type=\"%s\"><parent link=\"%s\"/><child link=\"%s\"/>"
                  "<origin xyz=\"%.17g %.17g %.17g\" rpy=\"%.17g %.17g %.17g\"/>"
                  "<axis xyz=\"%g %g %g\"/><limit lower=\"-3\" upper=\"3\" effort=\"1\" "
                  "velocity=\"1\"/></joint>",
                  i + 1, joints[i].type, parent, names[i].c_str(), joints[i].xyz.x(),
                  joints[i].xyz.y(), joints[i].xyz.z(), joints[i].rpy.x(), joints[i].rpy.y(),
                  joints[i].rpy.z(), joints[i].axis.x(), joints[i].axis.y(), joints[i].axis.z());
    xml += buf;
    xml += "<link name=\"" + names[i] + "\">" + inertial_xml(mass[i], com[i], com_rpy[i], I[i]) +
           "</link>";
    parent = names[i].c_str();
  }
  xml += "</robot>";
  const TempDir dir("fk");
  dir.write("chain.urdf", xml);
  // placed by the model entry: rotated about z by 0.4 rad and moved
  const double yaw = 0.4;
  const Vec3 origin(0.1, -0.2, 0.3);
  const std::string scene_text = R"({"pivot_scene": 1, "settings": {"duration": 0.4},
    "models": [{"urdf": "chain.urdf", "name": "r", "fixed_base": true,
                "position": [0.1, -0.2, 0.3], "quat_wxyz": [)" +
                                 std::to_string(std::cos(yaw / 2)) + ", 0, 0, " +
                                 std::to_string(std::sin(yaw / 2)) + "]}]}";
  const pivot::Scene scene = pivot::parse_scene(scene_text, dir.path, "fk.json");
  REQUIRE(scene.bodies.size() == 4);
  REQUIRE(scene.joints.size() == 3);
  pivot::World world = pivot::build_world(scene);
  // the quaternion as written (6 digits) is the model's rotation: normalize it as the reader does
  const Eigen::Quaterniond q_model(std::stod(std::to_string(std::cos(yaw / 2))), 0, 0,
                                   std::stod(std::to_string(std::sin(yaw / 2))));
  const Mat3 R_model = q_model.normalized().toRotationMatrix();
  // the forward kinematics at the joint positions q: T_W,child = T_W,parent T_origin T_motion
  const auto check = [&](const double q[3]) {
    Mat4 T = transform(origin, R_model);
    for (int i = 0; i < 3; ++i) {
      const Vec3 k = joints[i].axis.normalized();
      const Mat4 motion = std::string(joints[i].type) == "prismatic"
                              ? transform(q[i] * k, Mat3::Identity())
                              : transform(Vec3::Zero(), axis_rotation(k, q[i]));
      T = T *
          transform(joints[i].xyz,
                    rpy_matrix(joints[i].rpy.x(), joints[i].rpy.y(), joints[i].rpy.z())) *
          motion;
      const Mat4 T_inertial =
          T * transform(com[i], rpy_matrix(com_rpy[i].x(), com_rpy[i].y(), com_rpy[i].z()));
      const int b = world.find_body("r/" + names[i]);
      REQUIRE(b >= 0);
      const Vec3 expected_com = T_inertial.topRightCorner<3, 1>();
      CHECK((world.pose(b).p_WB - expected_com).norm() < 1e-7);
      const Mat3 R = T_inertial.topLeftCorner<3, 3>();
      const Mat3 expected_I = R * tensor(I[i]) * R.transpose();
      CHECK((world_inertia(world, b) - expected_I).norm() < 1e-7 * expected_I.norm());
    }
  };
  const double zero[3] = {0, 0, 0};
  check(zero);
  // swing under gravity, then compare at the joint positions the world reports
  while (world.time() < scene.settings.duration - 1e-12) world.step();
  double q[3];
  for (int j = 0; j < 3; ++j) {
    const pivot::Joint& joint = world.joint(j);
    CHECK(joint.name() == "r/j" + std::to_string(j + 1));
    q[j] = joint.coordinate(world.pose(joint.body_a()), world.pose(joint.body_b()));
  }
  CHECK(std::abs(q[0]) + std::abs(q[1]) + std::abs(q[2]) > 0.05);  // it moved
  check(q);
}

TEST_CASE("urdf: links welded by fixed joints have the parallel-axis sum's mass and inertia",
          "[scenes]") {
  const double Ia[6] = {0.02, 0.03, 0.04, 0.001, -0.002, 0.003};
  const double Ib[6] = {0.05, 0.06, 0.07, -0.01, 0.004, 0.002};
  const Vec3 ca(0.1, 0.0, 0.0), ra(0.1, 0.2, 0.3), cb(0.0, 0.05, -0.1), rb(0.0, -0.3, 0.6);
  const Vec3 jab_xyz(0.0, 0.3, 0.0), jab_rpy(0.5, 0.0, 0.0);
  const std::string xml =
      "<robot name=\"weld\"><link name=\"a\">" + inertial_xml(1.0, ca, ra, Ia) +
      "</link><joint name=\"ab\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/>"
      "<origin xyz=\"0 0.3 0\" rpy=\"0.5 0 0\"/></joint><link name=\"b\">" +
      inertial_xml(2.0, cb, rb, Ib) +
      "</link><joint name=\"bc\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/>"
      "<origin xyz=\"0.2 0 0\"/></joint><link name=\"c\"><collision><geometry>"
      "<box size=\"0.1 0.2 0.3\"/></geometry></collision></link></robot>";
  const TempDir dir("weld");
  const fs::path file = dir.write("weld.urdf", xml);
  const pivot::Scene scene = pivot::load_urdf_scene(file, {.ground = false});
  REQUIRE(scene.bodies.size() == 1);  // a, b and the massless c are one body
  CHECK(scene.bodies[0].settings.name == "a");
  const pivot::World world = pivot::build_world(scene);
  // the parallel-axis sum in the frame of link a (= world: the model is at the origin)
  const Mat4 Ta = transform(ca, rpy_matrix(ra.x(), ra.y(), ra.z()));
  const Mat4 Tb = transform(jab_xyz, rpy_matrix(jab_rpy.x(), jab_rpy.y(), jab_rpy.z())) *
                  transform(cb, rpy_matrix(rb.x(), rb.y(), rb.z()));
  const double m = 3.0;
  const Vec3 pa = Ta.topRightCorner<3, 1>(), pb = Tb.topRightCorner<3, 1>();
  const Vec3 c = (1.0 * pa + 2.0 * pb) / m;
  const auto shifted = [&](const Mat4& T, const double* I, double mi) {
    const Mat3 R = T.topLeftCorner<3, 3>();
    const Vec3 d = Vec3(T.topRightCorner<3, 1>()) - c;
    return Mat3(R * tensor(I) * R.transpose() +
                mi * (d.squaredNorm() * Mat3::Identity() - d * d.transpose()));
  };
  const Mat3 expected = shifted(Ta, Ia, 1.0) + shifted(Tb, Ib, 2.0);
  CHECK(world.bodies().body(0).mass == Approx(m).epsilon(1e-14));
  CHECK((world.pose(0).p_WB - c).norm() < 1e-12);
  CHECK((world_inertia(world, 0) - expected).norm() < 1e-12 * expected.norm());
  // c's box is the body's shape, placed where joint bc puts it: 0.2 m along b's x
  REQUIRE(scene.bodies[0].shape);
  REQUIRE(scene.bodies[0].shape->type == pivot::ShapeType::compound);
  const pivot::SceneCompoundChild& box = scene.bodies[0].shape->children.at(0);
  CHECK(box.shape.front().type == pivot::ShapeType::box);
  const Mat4 Tc = transform(jab_xyz, rpy_matrix(jab_rpy.x(), jab_rpy.y(), jab_rpy.z())) *
                  transform(Vec3(0.2, 0, 0), Mat3::Identity());
  CHECK((world.pose(0).to_world(box.position) - Vec3(Tc.topRightCorner<3, 1>())).norm() < 1e-12);
}

TEST_CASE("urdf: a compound pendulum's period is 2π √(I_pivot / (m g d))", "[scenes]") {
  // a bob of 2 kg whose centre of mass hangs d = 0.5 m below the hinge, I_c = 0.02 kg m² about
  // the hinge axis through it; I_pivot = I_c + m d²
  const double m = 2.0, d = 0.5, Ic = 0.02, g = 9.81, theta0 = 0.02;
  const std::string xml =
      R"(<robot name="pendulum"><link name="support"/>
         <joint name="hinge" type="continuous"><parent link="support"/><child link="bob"/>
           <axis xyz="0 1 0"/></joint>
         <link name="bob"><inertial><origin xyz="0 0 -0.5"/><mass value="2"/>
           <inertia ixx="0.02" iyy="0.02" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
         </link></robot>)";
  const TempDir dir("pendulum");
  dir.write("pendulum.urdf", xml);
  // the whole model tilted by θ0 about y: released θ0 from hanging straight down
  const std::string scene_text =
      R"({"pivot_scene": 1, "models": [{"urdf": "pendulum.urdf", "name": "p",
          "fixed_base": true, "axis_angle_deg": {"axis": [0, 1, 0], "angle": )" +
      std::to_string(theta0 * 180 / std::numbers::pi) + "}}]}";
  pivot::Scene scene = pivot::parse_scene(scene_text, dir.path, "pendulum.json");
  pivot::World world = pivot::build_world(scene);
  const int bob = world.find_body("p/bob");
  REQUIRE(bob >= 0);
  const double I_pivot = Ic + m * d * d;
  const double T = 2 * std::numbers::pi * std::sqrt(I_pivot / (m * g * d));
  // upward zero crossings of the bob's x (the equilibrium is x = 0), linearly interpolated
  std::vector<double> crossings;
  double x_prev = world.pose(bob).p_WB.x(), t_prev = 0;
  while (world.time() < 3.5 * T) {
    world.step();
    const double x = world.pose(bob).p_WB.x();
    if (x_prev < 0 && x >= 0)
      crossings.push_back(t_prev + (world.time() - t_prev) * -x_prev / (x - x_prev));
    x_prev = x;
    t_prev = world.time();
  }
  REQUIRE(crossings.size() >= 3);
  const double measured = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
  // small amplitude: the exact period is T (1 + θ0²/16 + ...), 2.5e-5 above T; the step (h =
  // 1 ms) adds less than 1e-4
  INFO("measured " << measured << " s, closed form " << T << " s");
  CHECK(measured == Approx(T).epsilon(2e-4));
}

TEST_CASE("urdf: a scene's models are copies with their own name prefixes", "[scenes]") {
  const fs::path arm = pivot::test::source_scenes_dir() / "robots" / "two_link_arm.urdf";
  const std::string text = R"({"pivot_scene": 1, "bodies": [{"name": "floor", "fixed": true,
      "shape": {"type": "plane"}}], "models": [
      {"urdf": ")" + arm.string() +
                           R"(", "name": "left", "position": [0, 1, 0],
       "fixed_base": true},
      {"urdf": ")" + arm.string() +
                           R"(", "name": "right", "position": [0, -1, 0],
       "collide_with_parent": true}]})";
  const pivot::Scene scene = pivot::parse_scene(text, ".", "two_arms.json");
  // floor, then each model's base, upper_arm, forearm (the hand is welded to the forearm)
  REQUIRE(scene.bodies.size() == 7);
  CHECK(scene.bodies[1].settings.name == "left/base");
  CHECK(scene.bodies[1].settings.fixed);
  CHECK(scene.bodies[4].settings.name == "right/base");
  CHECK_FALSE(scene.bodies[4].settings.fixed);
  CHECK(scene.bodies[2].settings.p_WS.isApprox(Vec3(0, 1, 0.65)));  // upper arm's centre of mass
  REQUIRE(scene.joints.size() == 4);
  CHECK(scene.joints[0].name() == "left/shoulder");
  CHECK(scene.joints[0].body_a == "left/base");
  CHECK(scene.joints[0].body_b == "left/upper_arm");
  CHECK_FALSE(scene.joints[0].collide);
  CHECK(scene.joints[2].collide);
  CHECK(scene.joints[0].effort_limit == 40.0);
  CHECK(scene.joints[0].velocity_limit == 3.0);
  // the same name twice, or a model body named like a body of the file, is refused
  const std::string twice = R"({"pivot_scene": 1, "models": [{"urdf": ")" + arm.string() +
                            R"(", "name": "a"}, {"urdf": ")" + arm.string() +
                            R"(", "name": "a"}]})";
  CHECK_THROWS_WITH(pivot::parse_scene(twice, ".", "x.json"),
                    Catch::Contains("x.json: /models/1/name: duplicate model name \"a\""));
  const std::string clash = R"({"pivot_scene": 1, "bodies": [{"name": "a/base", "mass": 1}],
      "models": [{"urdf": ")" +
                            arm.string() + R"(", "name": "a"}]})";
  CHECK_THROWS_WITH(pivot::parse_scene(clash, ".", "x.json"),
                    Catch::Contains("/models/0/name: the model's body \"a/base\""));
}

TEST_CASE("urdf: mesh geometry becomes mesh shapes with resolved files and scales", "[scenes]") {
  const TempDir dir("mesh");
  dir.write("my_pkg/meshes/part.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n");
  const fs::path file = dir.write("my_pkg/urdf/robot.urdf", R"(<robot name="m">
      <link name="a"><inertial><mass value="1"/>
        <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
        <collision><geometry><mesh filename="package://my_pkg/meshes/part.obj"
          scale="0.001 0.001 0.001"/></geometry></collision>
        <collision><origin xyz="0 0 1"/><geometry><mesh filename="../meshes/part.obj"
          scale="1 2 3"/></geometry></collision>
      </link></robot>)");
  const pivot::UrdfModel model = pivot::urdf_model(file);
  const nlohmann::json j = nlohmann::json::parse(model.json);
  const nlohmann::json& shape = j["bodies"][0]["shape"];
  REQUIRE(shape["type"] == "compound");
  const std::string part =
      fs::absolute(dir.path / "my_pkg/meshes/part.obj").lexically_normal().string();
  CHECK(shape["children"][0]["shape"] ==
        nlohmann::json({{"type", "mesh"}, {"file", part}, {"scale", 0.001}}));
  CHECK(shape["children"][1]["shape"] ==
        nlohmann::json({{"type", "mesh"}, {"file", part}, {"scale", {1.0, 2.0, 3.0}}}));
  CHECK(shape["children"][1]["position"] == nlohmann::json({0.0, 0.0, 1.0}));
}

TEST_CASE("urdf: visual geometry travels with its material colour, apart from the shape",
          "[scenes]") {
  const TempDir dir("visual");
  const fs::path file = dir.write("v.urdf", R"(<robot name="v">
      <material name="red"><color rgba="1 0 0 0.5"/></material>
      <link name="a"><inertial><origin xyz="0 0 0.1"/><mass value="1"/>
        <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
        <visual><origin xyz="0 0 0.3"/><geometry><sphere radius="0.2"/></geometry>
          <material name="red"/></visual>
        <visual><geometry><box size="0.2 0.4 0.6"/></geometry></visual>
        <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
      </link></robot>)");
  const pivot::Scene scene = pivot::load_urdf_scene(file, {.ground = false});
  REQUIRE(scene.bodies.size() == 1);
  const std::vector<pivot::SceneVisual>& v = scene.bodies[0].visuals;
  REQUIRE(v.size() == 2);
  // in the shape frame, whose origin is the centre of mass 0.1 m above the link's origin
  CHECK(v[0].type == pivot::ShapeType::sphere);
  CHECK(v[0].radius == 0.2);
  CHECK(v[0].position.isApprox(Vec3(0, 0, 0.2)));
  REQUIRE(v[0].colour);
  CHECK(*v[0].colour == std::array<double, 4>{1, 0, 0, 0.5});
  CHECK(v[1].type == pivot::ShapeType::box);
  CHECK(v[1].half_extents.isApprox(Vec3(0.1, 0.2, 0.3)));
  CHECK_FALSE(v[1].colour);
  // the collision shape is the collision box alone; the visuals read back from the resolved form
  CHECK(scene.bodies[0].shape->children.size() == 1);
  const std::string resolved = pivot::resolved_scene_json(scene);
  CHECK(pivot::resolved_scene_json(pivot::parse_scene(resolved, dir.path, "r")) == resolved);
}

TEST_CASE("urdf: joint dynamics become the joint's damping and friction, simulated", "[scenes]") {
  // a 1 kg link (I_zz = 0.02 kg m²) on a continuous joint about z from a fixed base, spun at
  // 3 rad/s, no gravity: the implicit damping d gives ω_{n+1} = ω_n / (1 + h d / I)
  const double I = 0.02, d = 0.5, h = 1e-3, w0 = 3.0;
  const TempDir dir("dynamics");
  const fs::path file = dir.write("w.urdf", R"(<robot name="w">
      <link name="a"><inertial><mass value="1"/>
        <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
      <joint name="j" type="continuous"><parent link="a"/><child link="b"/>
        <dynamics damping="0.5" friction="0.1"/></joint>
      <joint name="k" type="prismatic"><parent link="a"/><child link="c"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/><dynamics damping="2"/></joint>
      <link name="b"><inertial><mass value="1"/>
        <inertia ixx="0.02" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
      <link name="c"><inertial><mass value="1"/>
        <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
      </robot>)");
  pivot::Scene scene = pivot::load_scene(file);
  CHECK(scene.warnings.empty());
  REQUIRE(scene.joints.size() == 2);
  const auto& hinge = std::get<pivot::HingeJointSettings>(scene.joints[0].settings);
  CHECK(hinge.dynamics.damping == 0.5);
  CHECK(hinge.dynamics.friction == 0.1);
  const auto& slider = std::get<pivot::SliderJointSettings>(scene.joints[1].settings);
  CHECK(slider.dynamics.damping == 2.0);
  CHECK(slider.dynamics.friction == 0.0);
  // the writer keeps them: check's output reads back to itself
  const std::string resolved = pivot::resolved_scene_json(scene);
  CHECK(resolved.find("\"damping\": 0.5") != std::string::npos);
  CHECK(pivot::resolved_scene_json(pivot::parse_scene(resolved, dir.path, "r")) == resolved);

  // simulated: no friction, no gravity, on a fixed base
  const fs::path spin = dir.write("spin.urdf", R"(<robot name="s"><link name="world"/>
      <joint name="j" type="continuous"><parent link="world"/><child link="b"/>
        <axis xyz="0 0 1"/><dynamics damping="0.5"/></joint>
      <link name="b"><inertial><mass value="1"/>
        <inertia ixx="0.02" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
      </robot>)");
  pivot::Scene s2 = pivot::load_urdf_scene(spin, {.ground = false});
  s2.settings.world.gravity = Vec3::Zero();
  s2.settings.world.time_step = h;
  pivot::World world = pivot::build_world(s2);
  const int b = world.find_body("b");
  REQUIRE(b >= 0);
  pivot::Vec6 t = pivot::Vec6::Zero();
  t(2) = w0;
  world.set_state(b, world.pose(b), t);
  double w = w0;
  for (int n = 0; n < 200; ++n) {
    world.step();
    w /= 1.0 + h * d / I;
    REQUIRE(std::abs(world.twist(b).w().z() - w) < 1e-12);
  }
}

TEST_CASE("urdf: every malformed file of the corpus is refused naming the place", "[scenes]") {
  const std::string A = R"(<link name="a"><inertial><mass value="1"/>
      <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>)";
  const std::string B = R"(<link name="b"><inertial><mass value="1"/>
      <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>)";
  const auto joint = [](const std::string& type, const std::string& inner) {
    return "<joint name=\"j\" type=\"" + type + "\"><parent link=\"a\"/><child link=\"b\"/>" +
           inner + "</joint>";
  };
  const auto robot = [](const std::string& body) {
    return "<robot name=\"r\">" + body + "</robot>";
  };
  struct Case {
    const char* name;
    std::string xml;
    const char* expected;  // in the message, after "FILE: "
  };
  const Case cases[] = {
      {"truncated", "<robot name=\"r\"><link name=\"a\">", "urdf: Error reading"},
      {"empty", "", "urdf: Error document empty"},
      {"not_a_robot", "<foo/>", "Could not find the 'robot' element"},
      {"unknown_joint_type", robot(A + "</link>" + B + joint("hinge", "")),
       "Joint [j] has no known type [hinge]"},
      {"negative_mass",
       robot(R"(<link name="a"><inertial><mass value="-1"/><inertia ixx="1" iyy="1" izz="1"
             ixy="0" ixz="0" iyz="0"/></inertial></link>)"),
       "link \"a\": inertial: mass: value: expected a mass ≥ 0 kg (got -1)"},
      {"nan_mass",
       robot(R"(<link name="a"><inertial><mass value="nan"/><inertia ixx="1" iyy="1" izz="1"
             ixy="0" ixz="0" iyz="0"/></inertial></link>)"),
       "mass [nan] is not a float; Could not parse inertial element for Link [a]"},
      {"nan_origin", robot(A + "</link>" + B + joint("continuous", "<origin xyz=\"nan 0 0\"/>")),
       "Malformed parent origin element for joint [j]"},
      {"cyclic_joints",
       robot(A + "</link>" + B + joint("continuous", "") +
             R"(<joint name="k" type="continuous"><parent link="b"/><child link="a"/></joint>)"),
       "No root link found"},
      {"two_roots", robot(A + "</link>" + B), "Two root links found: [a] and [b]"},
      {"unknown_link",
       robot(A + "</link>" +
             R"(<joint name="j" type="fixed"><parent link="a"/><child link="zz"/></joint>)"),
       "child link [zz] of joint [j] not found"},
      {"missing_mesh",
       robot(A + R"(<collision><geometry><mesh filename="nothere.obj"/></geometry></collision>
             </link>)"),
       "link \"a\": collision 0: geometry: mesh: filename: cannot read the mesh file"},
      {"unknown_package",
       robot(A + R"(<collision><geometry><mesh filename="package://nopkg/m.obj"/></geometry>
             </collision></link>)"),
       "link \"a\": collision 0: geometry: mesh: filename: no folder of package \"nopkg\""},
      {"not_positive_definite",
       robot(R"(<link name="a"><inertial><mass value="1"/><inertia ixx="-1" iyy="1" izz="1"
             ixy="0" ixz="0" iyz="0"/></inertial></link>)"),
       "link \"a\": inertial: inertia is not positive definite"},
      {"triangle_inequality",
       robot(R"(<link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="3"
             ixy="0" ixz="0" iyz="0"/></inertial></link>)"),
       "link \"a\": inertial: inertia violates the triangle inequality"},
      {"negative_damping",
       robot(A + "</link>" + B + joint("continuous", "<dynamics damping=\"-1\"/>")),
       "joint \"j\": dynamics: damping: expected a number ≥ 0 (got -1)"},
      {"revolute_without_limit", robot(A + "</link>" + B + joint("revolute", "")),
       "Joint [j] is of type REVOLUTE but it does not specify limits"},
      {"lower_above_upper",
       robot(A + "</link>" + B +
             joint("revolute", R"(<limit lower="1" upper="-1" effort="1" velocity="1"/>)")),
       "joint \"j\": limit: lower: expected finite lower ≤ upper (got 1, -1)"},
      {"zero_axis", robot(A + "</link>" + B + joint("continuous", "<axis xyz=\"0 0 0\"/>")),
       "joint \"j\": axis: xyz: expected a finite non-zero direction"},
      {"massless_moving_link", robot(A + "</link><link name=\"b\"/>" + joint("continuous", "")),
       "link \"b\": has no mass (no <inertial> with a mass > 0 on it or on the links welded to "
       "it) but joint \"j\" moves it"},
      {"massless_base", robot("<link name=\"a\"/>"), "link \"a\": the model's base has no mass"},
      {"zero_box",
       robot(A + R"(<collision><geometry><box size="0 1 1"/></geometry></collision></link>)"),
       "link \"a\": collision 0: geometry: box: size: expected a positive number (got 0)"},
      {"cylinder_without_length",
       robot(A + R"(<collision><geometry><cylinder radius="1"/></geometry></collision></link>)"),
       "Cylinder shape must have both length and radius attributes; Could not parse collision "
       "element for Link [a]"},
  };
  const TempDir dir("corpus");
  for (const Case& c : cases) {
    const fs::path file = dir.write(std::string(c.name) + ".urdf", c.xml);
    INFO(c.name);
    CHECK_THROWS_WITH(pivot::load_scene(file),
                      Catch::StartsWith(file.string() + ": ") && Catch::Contains(c.expected));
  }
  CHECK(std::size(cases) >= 15);
}

TEST_CASE("urdf: the shipped robots load and the cart rests on its wheels", "[scenes]") {
  const fs::path robots = pivot::test::source_scenes_dir() / "robots";
  pivot::Scene cart = pivot::load_scene(robots / "wheeled_cart.urdf");
  CHECK(cart.warnings.empty());
  cart.settings.duration = 1.0;
  pivot::World world = pivot::build_world(cart);
  const int chassis = world.find_body("chassis");
  REQUIRE(chassis >= 0);
  const double z0 = world.pose(chassis).p_WB.z();
  while (world.time() < cart.settings.duration - 1e-12) world.step();
  // resting: the chassis where it started (wheels touching the ground at z = 0), still
  CHECK(std::abs(world.pose(chassis).p_WB.z() - z0) < 1e-3);
  CHECK(world.twist(chassis).norm() < 1e-3);
  const pivot::Scene arm = pivot::load_scene(robots / "two_link_arm.urdf");
  CHECK(arm.warnings.empty());
  CHECK(arm.bodies.size() == 4);  // ground, base, upper arm, forearm with the hand welded on
}
