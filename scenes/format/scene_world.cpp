// Scene → World, and the final-state hash of a world.
#include <fmt/core.h>
#include <algorithm>
#include <bit>

#include "pivot/engine/trajectory_coupling.hpp"
#include "pivot/scenes/scene.hpp"

namespace pivot {
namespace {

[[noreturn]] void fail(const Scene& scene, const std::string& pointer, const std::exception& e) {
  throw Error(scene.source, pointer, e.what());
}

}  // namespace

World build_world(const Scene& scene) {
  // the engine's errors (pivot::Error, or std::exceptions of lower layers) get the pointer of
  // the entry that caused them
  World world = [&scene] {
    try {
      return World(scene.settings.world);
    } catch (const std::exception& e) {
      fail(scene, "/settings", e);
    }
  }();
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    try {
      world.add_body(scene.bodies[i].settings);
    } catch (const std::exception& e) {
      fail(scene, "/bodies/" + std::to_string(i), e);
    }
  }
  for (std::size_t i = 0; i < scene.joints.size(); ++i) {
    const SceneJoint& jt = scene.joints[i];
    try {
      const int index = std::visit(
          [&](const auto& s) { return world.add_joint(s, jt.body_a_index, jt.body_b_index); },
          jt.settings);
      if (jt.collide) world.set_joint_collision(index, true);
    } catch (const std::exception& e) {
      fail(scene, "/joints/" + std::to_string(i), e);
    }
  }
  for (std::size_t i = 0; i < scene.springs.size(); ++i) {
    try {
      world.add_spring(scene.springs[i].settings);
    } catch (const std::exception& e) {
      fail(scene, "/springs/" + std::to_string(i), e);
    }
  }
  for (std::size_t i = 0; i < scene.actuators.size(); ++i) {
    try {
      world.add_actuator(scene.actuators[i].settings);
    } catch (const std::exception& e) {
      fail(scene, "/actuators/" + std::to_string(i), e);
    }
  }
  for (std::size_t i = 0; i < scene.manipulanda.size(); ++i) {
    const SceneManipulandum& m = scene.manipulanda[i];
    try {
      // G from the COM in body axes: the shape frame's origin plus the point (same axes)
      const Vec3 p_BG = world.bodies().body(m.body_index).shape_offset + m.point;
      world.add_force(std::make_unique<TrajectoryCoupling>(
          TrajectoryCouplingSettings{.body = m.body_index,
                                     .path = m.path,
                                     .p_BG = p_BG,
                                     .stiffness = m.stiffness,
                                     .damping = m.damping,
                                     .rotational_stiffness = m.rotational_stiffness,
                                     .rotational_damping = m.rotational_damping,
                                     .lead = scene.settings.world.time_step}));
    } catch (const std::exception& e) {
      fail(scene, "/manipulanda/" + std::to_string(i), e);
    }
  }
  if (scene.character) {
    try {
      (void)add_character(world, scene.character->motion, scene.character->settings);
    } catch (const std::exception& e) {
      fail(scene, "/character", e);
    }
  }
  return world;
}

double character_tracking_error(const World& world, const SceneCharacter& character) {
  const BvhClip& clip = character.motion->clip();
  const auto J = character.motion->evaluate(world.time());
  std::vector<int> body(clip.joints.size());
  for (std::size_t j = 0; j < clip.joints.size(); ++j)
    body[j] = world.find_body(character.settings.name + "/" + clip.joints[j].name);
  double worst = 0.0;
  for (std::size_t j = 1; j < clip.joints.size(); ++j) {
    const int b = body[j], p = body[clip.joints[j].parent];
    if (b < 0 || p < 0) continue;
    const Quat q_PC = world.pose(p).q_WB.conjugate() * world.pose(b).q_WB;
    worst = std::max(worst, quat_log(Quat(J[j].R_PJ) * q_PC.conjugate()).norm());
  }
  return worst;
}

std::uint64_t state_hash(const World& world) {
  // FNV-1a 64 over little-endian IEEE-754 bytes (see scene.hpp)
  std::uint64_t h = 0xcbf29ce484222325ULL;
  auto add = [&h](double x) {
    const auto bits = std::bit_cast<std::uint64_t>(x);
    for (int byte = 0; byte < 8; ++byte) {
      h ^= (bits >> (8 * byte)) & 0xffU;
      h *= 0x100000001b3ULL;
    }
  };
  const Eigen::VectorXd& p = world.bodies().positions();
  const Eigen::VectorXd& v = world.bodies().velocities();
  for (int i = 0; i < world.body_count(); ++i) {
    for (int k = 0; k < 7; ++k) add(p[7 * i + k]);
    for (int k = 0; k < 6; ++k) add(v[6 * i + k]);
  }
  return h;
}

std::string hash_to_hex(std::uint64_t hash) {
  return fmt::format("{:016x}", hash);
}

}  // namespace pivot
