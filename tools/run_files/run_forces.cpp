#include "run_files/run_forces.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <array>
#include <type_traits>
#include <variant>

#include "pivot/engine/world.hpp"
#include "pivot/scenes/run_length.hpp"
#include "pivot/scenes/scene.hpp"

namespace pivot::cli {
namespace {

/// the anchor and axes of a joint's settings (world, at the initial poses) fixed in its bodies
JointFrame joint_frame(const SceneJoint& joint, const Pose& A0, const Pose& B0) {
  JointFrame f;
  const auto in_A = [&](const Vec3& d_W) { return Vec3(A0.q_WB.conjugate() * d_W); };
  const auto in_B = [&](const Vec3& d_W) { return Vec3(B0.q_WB.conjugate() * d_W); };
  std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        f.anchor_A = in_A(s.anchor_W - A0.p_WB);
        f.anchor_B = in_B(s.anchor_W - B0.p_WB);
        if constexpr (std::is_same_v<S, HingeJointSettings> ||
                      std::is_same_v<S, SliderJointSettings>) {
          f.axis_u_A = in_A(s.axis_W.normalized());
        } else if constexpr (std::is_same_v<S, UniversalJointSettings>) {
          f.axis_u_A = in_A(s.axis_a_W.normalized());
          f.axis_v_B = in_B(s.axis_b_W.normalized());
        } else if constexpr (std::is_same_v<S, PlanarJointSettings>) {
          f.axis_u_A = in_A(s.normal_W.normalized());
        }
      },
      joint.settings);
  return f;
}

std::string body_name(const World& world, int body) {
  return body == kWorldBody ? std::string("world") : world.bodies().body(body).name;
}

}  // namespace

ForceWriter::ForceWriter(const Scene& scene, const World& world, const std::vector<Pose>& initial,
                         const std::filesystem::path& contacts, const std::filesystem::path& joints)
    : contacts_(contacts), joints_(joints) {
  const auto initial_pose = [&](int body) {
    return body == kWorldBody ? world.pose(body) : initial.at(static_cast<std::size_t>(body));
  };
  contacts_.print("{}\n", kContactsHeader);
  joints_.print("{}\n", kJointsHeader);
  for (int j = 0; j < world.joint_count(); ++j) {
    const Joint& joint = world.joint(j);
    if (static_cast<std::size_t>(j) < scene.joints.size()) {
      frames_.push_back(joint_frame(scene.joints[static_cast<std::size_t>(j)],
                                    initial_pose(joint.body_a()), initial_pose(joint.body_b())));
      continue;
    }
    // joints after the scene's own: a character's ball joints and hinges (docs/character.md)
    JointFrame f;
    if (const auto* hinge = dynamic_cast<const HingeJoint*>(&joint)) {
      f.anchor_A = hinge->anchor_A();
      f.anchor_B = hinge->anchor_B();
      f.axis_u_A = hinge->axis_A();
    } else if (const auto* ball = dynamic_cast<const BallJoint*>(&joint)) {
      f.anchor_A = ball->anchor_A();
      f.anchor_B = ball->anchor_B();
    }
    frames_.push_back(f);
  }
}

void ForceWriter::write_frame(const World& world) {
  const double t = step_time(world.step_count(), world.settings().time_step);  // as trajectory.csv
  for (const ContactInfo& c : world.contacts()) {
    const Contact& g = c.contact;
    const Vec3 p = 0.5 * (g.p_WCa + g.p_WCb);
    const std::array<double, 11> v = {p.x(),
                                      p.y(),
                                      p.z(),
                                      g.n_BA_W.x(),
                                      g.n_BA_W.y(),
                                      g.n_BA_W.z(),
                                      g.gap,
                                      c.normal_impulse,
                                      c.tangent_impulse.x(),
                                      c.tangent_impulse.y(),
                                      c.tangent_impulse.z()};
    contacts_.print("{},{},{},{}\n", t, csv_field(body_name(world, g.body_a)),
                    csv_field(body_name(world, g.body_b)), fmt::join(v, ","));
  }
  ConstraintRows rows;
  for (int j = 0; j < world.joint_count(); ++j) {
    const Joint& joint = world.joint(j);
    const JointFrame& f = frames_[static_cast<std::size_t>(j)];
    const Pose A = world.pose(joint.body_a());
    const Pose B = world.pose(joint.body_b());
    // the equality rows' impulse on A, J_Aᵀ λ (angular first), with J_A at this frame's poses
    Vec6 impulse = Vec6::Zero();
    const Eigen::VectorXd& lambda = world.joint_impulse(j);
    joint.equality(A, B, rows);
    if (lambda.size() == rows.rows()) impulse = rows.J_A.transpose() * lambda;
    const Vec3 a = A.to_world(f.anchor_A), b = B.to_world(f.anchor_B);
    const Vec3 u = A.rotate(f.axis_u_A), w = B.rotate(f.axis_v_B);
    const std::array<double, 20> row = {a.x(),
                                        a.y(),
                                        a.z(),
                                        b.x(),
                                        b.y(),
                                        b.z(),
                                        u.x(),
                                        u.y(),
                                        u.z(),
                                        w.x(),
                                        w.y(),
                                        w.z(),
                                        impulse[3],
                                        impulse[4],
                                        impulse[5],
                                        impulse[0],
                                        impulse[1],
                                        impulse[2],
                                        world.joint_limit_impulse(j),
                                        world.joint_motor_impulse(j)};
    joints_.print("{},{},{},{},{},{}\n", t, csv_field(joint.name()), to_string(joint.type()),
                  csv_field(body_name(world, joint.body_a())),
                  csv_field(body_name(world, joint.body_b())), fmt::join(row, ","));
  }
}

void ForceWriter::close() {
  contacts_.close();
  joints_.close();
}

}  // namespace pivot::cli
