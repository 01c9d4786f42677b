// Robots the project has never seen, written by the test into its temporary folder: a
// seven-joint arm of STL links on a fixed base (with the idioms of real robots' files: a
// `world` root, package:// and .dae meshes, joint origins with rpy, frames without inertia on
// fixed joints), a thirty-joint humanoid of primitives that falls and comes to rest, and the
// ground placement of a robot whose lowest geometry is a mesh.
#include <unistd.h>

#include <fmt/core.h>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "pivot/engine/world.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/urdf.hpp"
#include "support/box_mesh_files.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using pivot::Vec3;

using pivot::test::TempDir;

/// a binary STL of a closed cylinder of radius r along z from z0 to z1, n sides, outward
/// counter-clockwise triangles
void write_stl_cylinder(const fs::path& file, float r, float z0, float z1, int n) {
  std::vector<std::array<std::array<float, 3>, 3>> tris;
  const auto p = [&](int k, float z) {
    const double a = 2 * std::numbers::pi * k / n;
    return std::array<float, 3>{static_cast<float>(r * std::cos(a)),
                                static_cast<float>(r * std::sin(a)), z};
  };
  for (int k = 0; k < n; ++k) {
    const int k1 = (k + 1) % n;
    tris.push_back({p(k, z0), p(k1, z0), p(k1, z1)});  // side, outward
    tris.push_back({p(k, z0), p(k1, z1), p(k, z1)});
    tris.push_back({std::array<float, 3>{0, 0, z1}, p(k, z1), p(k1, z1)});  // top, +z
    tris.push_back({std::array<float, 3>{0, 0, z0}, p(k1, z0), p(k, z0)});  // bottom, −z
  }
  std::string bytes(80, ' ');
  const auto put = [&bytes](const auto value) {
    char raw[sizeof(value)];
    std::memcpy(raw, &value, sizeof(value));
    bytes.append(raw, sizeof(value));
  };
  put(static_cast<std::uint32_t>(tris.size()));
  for (const auto& t : tris) {
    for (int k = 0; k < 3; ++k) put(0.0f);
    for (const auto& v : t)
      for (const float c : v) put(c);
    put(static_cast<std::uint16_t>(0));
  }
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << bytes;
}

/// <inertial> of mass m with principal moments (ixx, iyy, izz) at xyz in the link frame
std::string inertial(double m, const Vec3& I, const Vec3& xyz = Vec3::Zero()) {
  return fmt::format(R"(<inertial><origin xyz="{} {} {}"/><mass value="{}"/>)"
                     R"(<inertia ixx="{}" iyy="{}" izz="{}" ixy="0" ixz="0" iyz="0"/></inertial>)",
                     xyz.x(), xyz.y(), xyz.z(), m, I.x(), I.y(), I.z());
}

/// the principal moments of a solid cylinder (axis z), box and sphere
Vec3 cylinder_I(double m, double r, double l) {
  const double t = m * (3 * r * r + l * l) / 12;
  return {t, t, m * r * r / 2};
}
Vec3 box_I(double m, const Vec3& s) {
  return m / 12 *
         Vec3(s.y() * s.y() + s.z() * s.z(), s.x() * s.x() + s.z() * s.z(),
              s.x() * s.x() + s.y() * s.y());
}
Vec3 sphere_I(double m, double r) {
  return Vec3::Constant(0.4 * m * r * r);
}

/// the seven-joint arm: a 5 kg pedestal on a `world` root, links 1–7 binary STL cylinders of
/// radius 0.05 m (package:// and relative paths), joints about z, y, z, y, z, y, z with
/// origins carrying rpy, a .dae box on link 7 and a massless tool frame welded to it
std::string arm_urdf(const TempDir& dir) {
  const double L[7] = {0.3, 0.3, 0.25, 0.25, 0.2, 0.15, 0.1};
  const double M[7] = {4, 3.5, 2.5, 2, 1.5, 1, 0.5};
  const char* axes[7] = {"0 0 1", "0 1 0", "0 0 1", "0 1 0", "0 0 1", "0 1 0", "0 0 1"};
  const char* rpy[7] = {"0 0 0", "0 0 0.5", "0.2 0 0", "0 0 -0.4", "0 0.1 0", "0 0 0.3", "0 0 0"};
  write_stl_cylinder(dir.path / "arm7_description" / "meshes" / "base.stl", 0.1f, 0.0f, 0.3f, 24);
  std::string x = R"(<robot name="arm7"><link name="world"/>
      <joint name="world_to_base" type="fixed"><parent link="world"/><child link="base_link"/>
        <origin xyz="0 0 0" rpy="0 0 0"/></joint>
      <link name="base_link">)" +
                  inertial(5, cylinder_I(5, 0.1, 0.3), Vec3(0, 0, 0.15)) +
                  R"(<visual><geometry><mesh filename="package://arm7_description/meshes/base.stl"/>
        </geometry><material name="grey"><color rgba="0.5 0.5 0.5 1"/></material></visual>
        <collision><geometry><mesh filename="package://arm7_description/meshes/base.stl"/>
        </geometry></collision></link>)";
  double parent_length = 0.3;
  std::string parent = "base_link";
  for (int i = 0; i < 7; ++i) {
    const std::string link = fmt::format("link_{}", i + 1);
    const std::string mesh = fmt::format("../meshes/{}.stl", link);  // from the urdf folder
    // a gap of 5 mm above the joint, so that a link does not touch its grandparent at rest
    write_stl_cylinder(dir.path / "arm7_description" / "meshes" / (link + ".stl"), 0.05f, 0.005f,
                       static_cast<float>(L[i]), 20);
    x += fmt::format(
        R"(<joint name="joint_{0}" type="revolute"><parent link="{1}"/><child link="{2}"/>
          <origin xyz="0 0 {3}" rpy="{4}"/><axis xyz="{5}"/>
          <limit lower="-2.9" upper="2.9" effort="100" velocity="2"/>{6}</joint>)",
        i + 1, parent, link, parent_length, rpy[i], axes[i],
        i % 2 == 0 ? R"(<dynamics damping="0.5" friction="0.05"/>)" : "");
    x += "<link name=\"" + link + "\">" +
         inertial(M[i], cylinder_I(M[i], 0.05, L[i]), Vec3(0, 0, L[i] / 2)) +
         "<visual><geometry><mesh filename=\"" + mesh + "\"/></geometry></visual>" +
         "<collision><geometry><mesh filename=\"" + mesh + "\"/></geometry></collision>";
    if (i == 6)
      x += R"(<collision><origin xyz="-0.04 -0.04 0.11"/><geometry>
          <mesh filename="../meshes/flange.dae"/></geometry></collision>)";
    x += "</link>";
    parent = link;
    parent_length = L[i];
  }
  pivot::test::write_box_mesh("dae",
                              (dir.path / "arm7_description" / "meshes" / "flange.dae").string(),
                              0.08f, 0.08f, 0.02f);
  x += R"(<joint name="flange_to_tool" type="fixed"><parent link="link_7"/><child link="tool0"/>
      <origin xyz="0 0 0.13" rpy="0 1.5708 0"/></joint><link name="tool0"/></robot>)";
  return x;
}

}  // namespace

TEST_CASE("urdf robots: a seven-joint arm of STL links stands on its base without joint drift",
          "[scenes][urdf_robots]") {
  const TempDir dir("arm");
  const fs::path file = dir.write("arm7_description/urdf/arm7.urdf", arm_urdf(dir));
  pivot::Scene scene = pivot::load_scene(file);
  CHECK(scene.warnings.empty());
  // ground, the pedestal (world, welded base), seven links (tool0 welded into link 7)
  REQUIRE(scene.bodies.size() == 9);
  REQUIRE(scene.joints.size() == 7);
  for (const pivot::SceneBody& b : scene.bodies)
    if (b.settings.name != "ground") CHECK_FALSE(b.visuals.empty());
  // the post-step is one linearized correction: a correction of size δ (a link's contact with
  // the ground corrected by ~1 mm) leaves a joint error O(δ²) (3.5e-6 m once measured without
  // a cap); a cap re-linearizes large corrections in passes of at most 1e-4 m
  scene.settings.world.post_step_cap = 1e-4;
  scene.settings.world.max_post_steps = 40;
  pivot::World world = pivot::build_world(scene);
  // the joint origins' roll and pitch lean the straight chain: it swings down under gravity
  // (damped joints 1, 3, 5, 7, free joints 2, 4, 6), against its limits and the ground
  const int n = 2500;
  double worst = 0.0, worst_late = 0.0;
  world.step();
  for (int k = 1; k < n; ++k) {
    world.step();
    const double e = world.max_joint_error();
    REQUIRE(std::isfinite(e));
    worst = std::max(worst, e);
    if (k > n / 2) worst_late = std::max(worst_late, e);
  }
  INFO("largest joint error " << worst << " m, in the second half " << worst_late << " m");
  INFO("arm: largest joint error " << worst << " m, in the second half " << worst_late << " m");
  CHECK(worst < 1e-8);
  CHECK(worst_late < 1e-8);
  const int link7 = world.find_body("link_7");
  REQUIRE(link7 >= 0);
  CHECK(world.pose(link7).p_WB.allFinite());
}

namespace {

/// a humanoid of 31 links and 30 revolute joints (limits; damping and friction on the legs and
/// the waist), 71.4 kg: pelvis (the floating base), waist (3 joints), head (1), per arm
/// shoulder 3 + elbow 1 + wrist 2, per leg hip 3 + knee 1 + ankle 2 + toe 1. Capsules are a
/// cylinder and two spheres; the small links between the axes of a multi-axis joint have mass
/// and no geometry
class HumanoidWriter {
 public:
  std::string text() const { return "<robot name=\"humanoid\">" + x_ + "</robot>"; }
  int joints() const { return joints_; }

  /// a link of mass m, principal moments I about its centre of mass `com` (link frame)
  void link(const std::string& name, double m, const Vec3& I, const std::string& geometry = "",
            const Vec3& com = Vec3::Zero()) {
    x_ += "<link name=\"" + name + "\">" + inertial(m, I, com) + geometry + "</link>";
  }
  void joint(const std::string& name, const std::string& parent, const std::string& child,
             const Vec3& xyz, const char* axis, double lower, double upper, bool dynamics) {
    x_ += fmt::format(
        R"(<joint name="{}" type="revolute"><parent link="{}"/><child link="{}"/>
           <origin xyz="{} {} {}"/><axis xyz="{}"/>
           <limit lower="{}" upper="{}" effort="200" velocity="5"/>{}</joint>)",
        name, parent, child, xyz.x(), xyz.y(), xyz.z(), axis, lower, upper,
        dynamics ? R"(<dynamics damping="2" friction="0.5"/>)" : "");
    ++joints_;
  }
  static std::string box(const Vec3& size, const Vec3& at) {
    return fmt::format(
        R"(<collision><origin xyz="{} {} {}"/><geometry><box size="{} {} {}"/></geometry></collision>)",
        at.x(), at.y(), at.z(), size.x(), size.y(), size.z());
  }
  static std::string sphere(double r, const Vec3& at) {
    return fmt::format(
        R"(<collision><origin xyz="{} {} {}"/><geometry><sphere radius="{}"/></geometry></collision>)",
        at.x(), at.y(), at.z(), r);
  }
  /// a capsule along −z from z = top to z = bottom (sphere centres), radius r
  static std::string capsule(double r, double top, double bottom) {
    return fmt::format(
               R"(<collision><origin xyz="0 0 {}"/><geometry><cylinder radius="{}" length="{}"/></geometry></collision>)",
               0.5 * (top + bottom), r, top - bottom) +
           sphere(r, Vec3(0, 0, top)) + sphere(r, Vec3(0, 0, bottom));
  }

 private:
  std::string x_;
  int joints_ = 0;
};

std::string humanoid_urdf() {
  HumanoidWriter h;
  const Vec3 small = sphere_I(0.3, 0.05);
  h.link("pelvis", 10, box_I(10, Vec3(0.3, 0.2, 0.15)),
         HumanoidWriter::box(Vec3(0.3, 0.2, 0.15), Vec3::Zero()));
  // waist: yaw, pitch, roll to the chest
  h.joint("waist_yaw", "pelvis", "waist_1", Vec3(0, 0, 0.1), "0 0 1", -0.8, 0.8, true);
  h.link("waist_1", 1, sphere_I(1, 0.05));
  h.joint("waist_pitch", "waist_1", "waist_2", Vec3::Zero(), "0 1 0", -0.5, 1.2, true);
  h.link("waist_2", 1, sphere_I(1, 0.05));
  h.joint("waist_roll", "waist_2", "chest", Vec3::Zero(), "1 0 0", -0.5, 0.5, true);
  h.link("chest", 20, box_I(20, Vec3(0.32, 0.2, 0.35)),
         HumanoidWriter::box(Vec3(0.32, 0.2, 0.35), Vec3(0, 0, 0.25)), Vec3(0, 0, 0.25));
  h.joint("neck_pitch", "chest", "head", Vec3(0, 0, 0.45), "0 1 0", -0.7, 0.7, false);
  h.link("head", 5, sphere_I(5, 0.1), HumanoidWriter::sphere(0.1, Vec3(0, 0, 0.15)),
         Vec3(0, 0, 0.15));
  for (const int s : {1, -1}) {
    const std::string side = s > 0 ? "left" : "right";
    const auto n = [&](const char* part) { return side + "_" + part; };
    h.joint(n("shoulder_pitch"), "chest", n("shoulder_1"), Vec3(0, s * 0.22, 0.38), "0 1 0", -3.0,
            1.0, false);
    h.link(n("shoulder_1"), 0.3, small);
    h.joint(n("shoulder_roll"), n("shoulder_1"), n("shoulder_2"), Vec3::Zero(), "1 0 0", -1.5, 1.5,
            false);
    h.link(n("shoulder_2"), 0.3, small);
    h.joint(n("shoulder_yaw"), n("shoulder_2"), n("upper_arm"), Vec3::Zero(), "0 0 1", -1.5, 1.5,
            false);
    h.link(n("upper_arm"), 2, cylinder_I(2, 0.04, 0.3), HumanoidWriter::capsule(0.04, -0.06, -0.28),
           Vec3(0, 0, -0.17));
    h.joint(n("elbow"), n("upper_arm"), n("forearm"), Vec3(0, 0, -0.32), "0 1 0", -2.5, 0.0, false);
    h.link(n("forearm"), 1.2, cylinder_I(1.2, 0.035, 0.27),
           HumanoidWriter::capsule(0.035, -0.05, -0.25), Vec3(0, 0, -0.15));
    h.joint(n("wrist_pitch"), n("forearm"), n("wrist_1"), Vec3(0, 0, -0.3), "0 1 0", -1.2, 1.2,
            false);
    h.link(n("wrist_1"), 0.1, sphere_I(0.1, 0.03));
    h.joint(n("wrist_roll"), n("wrist_1"), n("hand"), Vec3::Zero(), "1 0 0", -0.8, 0.8, false);
    h.link(n("hand"), 0.4, box_I(0.4, Vec3(0.08, 0.03, 0.1)),
           HumanoidWriter::box(Vec3(0.08, 0.03, 0.1), Vec3(0, 0, -0.08)), Vec3(0, 0, -0.08));
    h.joint(n("hip_yaw"), "pelvis", n("hip_1"), Vec3(0, s * 0.1, -0.1), "0 0 1", -0.7, 0.7, true);
    h.link(n("hip_1"), 0.5, sphere_I(0.5, 0.05));
    h.joint(n("hip_roll"), n("hip_1"), n("hip_2"), Vec3::Zero(), "1 0 0", -0.5, 0.5, true);
    h.link(n("hip_2"), 0.5, sphere_I(0.5, 0.05));
    h.joint(n("hip_pitch"), n("hip_2"), n("thigh"), Vec3::Zero(), "0 1 0", -2.0, 0.6, true);
    h.link(n("thigh"), 7, cylinder_I(7, 0.06, 0.42), HumanoidWriter::capsule(0.06, -0.07, -0.37),
           Vec3(0, 0, -0.22));
    h.joint(n("knee"), n("thigh"), n("shin"), Vec3(0, 0, -0.44), "0 1 0", 0.0, 2.4, true);
    h.link(n("shin"), 3.5, cylinder_I(3.5, 0.05, 0.4), HumanoidWriter::capsule(0.05, -0.05, -0.35),
           Vec3(0, 0, -0.2));
    h.joint(n("ankle_pitch"), n("shin"), n("ankle_1"), Vec3(0, 0, -0.42), "0 1 0", -0.8, 0.8, true);
    h.link(n("ankle_1"), 0.2, sphere_I(0.2, 0.03));
    h.joint(n("ankle_roll"), n("ankle_1"), n("foot"), Vec3::Zero(), "1 0 0", -0.4, 0.4, true);
    h.link(n("foot"), 1.0, box_I(1.0, Vec3(0.22, 0.1, 0.05)),
           HumanoidWriter::box(Vec3(0.22, 0.1, 0.05), Vec3(0.04, 0, -0.05)), Vec3(0.04, 0, -0.05));
    h.joint(n("toe"), n("foot"), n("toes"), Vec3(0.15, 0, -0.05), "0 1 0", -0.5, 0.8, true);
    h.link(n("toes"), 0.2, box_I(0.2, Vec3(0.06, 0.1, 0.04)),
           HumanoidWriter::box(Vec3(0.06, 0.1, 0.04), Vec3(0.04, 0, 0)), Vec3(0.04, 0, 0));
  }
  REQUIRE(h.joints() == 30);
  return h.text();
}

}  // namespace

TEST_CASE("urdf robots: a thirty-joint humanoid falls and comes to rest", "[scenes][urdf_robots]") {
  const TempDir dir("humanoid");
  const fs::path file = dir.write("humanoid.urdf", humanoid_urdf());
  pivot::Scene scene = pivot::load_scene(file);
  CHECK(scene.warnings.empty());
  REQUIRE(scene.joints.size() == 30);
  REQUIRE(scene.bodies.size() == 32);  // the ground and 31 links
  double mass = 0;
  for (const pivot::SceneBody& b : scene.bodies) mass += b.settings.fixed ? 0.0 : b.settings.mass;
  CHECK(mass == Approx(71.4).epsilon(1e-12));
  scene.settings.world.time_step = 2e-3;
  scene.settings.world.post_step_cap = 1e-4;  // as the arm's
  scene.settings.world.max_post_steps = 40;
  pivot::World world = pivot::build_world(scene);
  const int pelvis = world.find_body("pelvis");
  REQUIRE(pelvis >= 0);
  const double z0 = world.pose(pelvis).p_WB.z();
  // it stands on its feet (placed by its lowest geometry) and a push at the chest topples it
  const int chest = world.find_body("chest");
  world.apply_impulse(chest, Vec3(25.0, 0.0, 0.0), world.pose(chest).p_WB);
  const double T = 3.0;
  double worst = 0.0, worst_late = 0.0, ke = 0.0;
  while (world.time() < T - 1e-12) {
    world.step();
    const double e = world.max_joint_error();
    REQUIRE(std::isfinite(e));
    worst = std::max(worst, e);
    if (world.time() > T - 1.0) worst_late = std::max(worst_late, e);
    ke = world.kinetic_energy();
    REQUIRE(std::isfinite(ke));
  }
  CHECK(world.pose(pelvis).p_WB.z() < z0 - 0.3);  // fallen
  INFO("humanoid: pelvis from z " << z0 << " to " << world.pose(pelvis).p_WB.z()
                                  << " m; largest joint error " << worst
                                  << " m, in the last second " << worst_late
                                  << " m; final kinetic energy " << ke << " J");
  // the impacts leave a transient joint error (links squeezed between the ground and their
  // limits; measured 1.0e-4 m) that the next post-steps remove: at rest it is gone
  CHECK(worst < 1e-3);
  CHECK(worst_late < 1e-8);
  CHECK(ke < 1e-6);  // at rest
}

TEST_CASE("urdf robots: a robot whose lowest geometry is a mesh is placed on the ground",
          "[scenes][urdf_robots]") {
  // the root link's only collision: a binary STL box [0, 0.2]³ scaled by 2, turned by π about x
  // and placed 0.5 m below the link's origin: its vertices reach z = −0.5 − 2·0.2 = −0.9 in the
  // link frame, so the robot is raised by 0.9 m (its link origin, where the centre of mass is)
  const TempDir dir("ground");
  pivot::test::write_box_mesh("stl", (dir.path / "block.stl").string(), 0.2f, 0.2f, 0.2f);
  const fs::path file = dir.write(
      "block.urdf", R"(<robot name="block"><link name="base">)" + inertial(1, Vec3(0.1, 0.1, 0.1)) +
                        R"(<collision><origin xyz="0 0 -0.5" rpy="3.141592653589793 0 0"/>
        <geometry><mesh filename="block.stl" scale="2 2 2"/></geometry></collision></link></robot>)");
  pivot::Scene scene = pivot::load_scene(file);
  const int base = scene.find_body("base");
  REQUIRE(base >= 0);
  CHECK(scene.bodies[static_cast<std::size_t>(base)].settings.p_WS.z() == Approx(0.9).margin(1e-6));
  // and it rests there: the mesh's lowest face on the plane, not inside it
  pivot::World world = pivot::build_world(scene);
  const int b = world.find_body("base");
  for (int k = 0; k < 500; ++k) world.step();
  CHECK(world.pose(b).p_WB.z() == Approx(0.9).margin(1e-3));
}
