#include "pivot/scenes/character.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include "pivot/core/error.hpp"
#include "pivot/engine/rigid_body.hpp"

namespace pivot {
namespace {

int rotation_channels(const BvhJoint& j) {
  return static_cast<int>(std::count_if(j.channels.begin(), j.channels.end(), is_rotation));
}

// the free axes of a joint in its parent's frame: a hinge's one channel axis, or x, y, z
std::vector<Vec3> free_axes(const BvhJoint& j) {
  if (rotation_channels(j) == 1)
    for (BvhChannel c : j.channels)
      if (is_rotation(c)) return {channel_axis(c)};
  return {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()};
}

void check_skeleton(const BvhClip& clip) {
  for (std::size_t j = 1; j < clip.joints.size(); ++j) {
    const BvhJoint& joint = clip.joints[j];
    const int r = rotation_channels(joint);
    const std::string where = "joint " + pivot::quoted(joint.name) + " (line " + std::to_string(joint.line) + ")";
    if (r != 1 && r != 3)
      throw Error(clip.source, "line " + std::to_string(joint.line),
                  where + " has " + std::to_string(r) +
                      " rotation channels: a character joint has 3 (ball) or 1 (hinge)");
    if (static_cast<int>(joint.channels.size()) != r)
      throw Error(clip.source, "line " + std::to_string(joint.line),
                  where + " has position channels: only the root may move freely");
  }
}

void add_blob(std::vector<Vec3>& points, const Vec3& c, double r) {
  // a cuboctahedron of circumradius r: the 12 edge midpoints of a cube
  const double a = r / std::sqrt(2.0);
  for (int i = 0; i < 3; ++i)
    for (int s1 : {-1, 1})
      for (int s2 : {-1, 1}) {
        Vec3 p = Vec3::Zero();
        p[(i + 1) % 3] = s1 * a;
        p[(i + 2) % 3] = s2 * a;
        points.push_back(c + p);
      }
}

}  // namespace

ShapePtr segment_shape(const BvhClip& clip, int joint, double scale, double thickness) {
  std::vector<Vec3> ends;
  for (const BvhJoint& k : clip.joints)
    if (k.parent == joint) ends.push_back(scale * k.offset);
  if (clip.joints[joint].end_site) ends.push_back(scale * *clip.joints[joint].end_site);
  double longest = 0.0;
  for (const Vec3& e : ends) longest = std::max(longest, e.norm());
  const double r = std::clamp(thickness * longest, 0.02, 0.08);
  std::vector<Vec3> points;
  add_blob(points, Vec3::Zero(), r);
  for (const Vec3& e : ends) add_blob(points, e, r);
  return make_convex(std::move(points));
}

MuscleTable inverse_dynamics(const BvhMotion& motion, const std::vector<SegmentMass>& segments,
                             const Vec3& gravity, double dt) {
  const BvhClip& clip = motion.clip();
  const auto n = static_cast<int>(clip.joints.size());
  if (static_cast<int>(segments.size()) != n) throw Error("inverse dynamics: one segment per joint");
  if (!(dt > 0.0)) throw Error("inverse dynamics: the time step must be positive");
  if (motion.duration() / dt > static_cast<double>(kMaxCharacterSamples))
    throw Error(fmt::format("inverse dynamics: {:.3g} samples; at most {}", motion.duration() / dt,
                            kMaxCharacterSamples));
  MuscleTable table;
  table.t0 = 0.0;
  table.dt = dt;
  const long samples = static_cast<long>(std::ceil(motion.duration() / dt - 1e-9)) + 1;
  table.samples.resize(samples);
  std::vector<Vec3> f(n), tau(n), x(n);
  for (long k = 0; k < samples; ++k) {
    const auto J = motion.evaluate(static_cast<double>(k) * dt);
    // from the leaves to the root: joints come after their parents in clip order
    for (int j = n - 1; j >= 1; --j) {
      const SegmentMass& s = segments[j];
      const Vec3 c_W = J[j].R_WJ * s.com_J;
      x[j] = J[j].p_WJ + c_W;
      const Vec3& w = J[j].w_W;
      const Vec3& dw = J[j].dw_W;
      const Vec3 a = J[j].a_WJ + dw.cross(c_W) + w.cross(w.cross(c_W));
      const Mat3 I = J[j].R_WJ * s.inertia_J * J[j].R_WJ.transpose();
      f[j] = s.mass * (a - gravity);
      tau[j] = I * dw + w.cross(I * w);
      for (int c = j + 1; c < n; ++c)
        if (clip.joints[c].parent == j) {
          f[j] += f[c];
          tau[j] += tau[c] + (J[c].p_WJ - x[j]).cross(f[c]);
        }
      tau[j] -= (J[j].p_WJ - x[j]).cross(f[j]);
    }
    auto& row = table.samples[k];
    row.resize(n - 1);
    for (int j = 1; j < n; ++j) {
      const JointState& P = J[clip.joints[j].parent];
      const Vec3 tau_P = P.R_WJ.transpose() * tau[j];
      MuscleSample& m = row[j - 1];
      m.psi_P = Vec3::Zero();
      for (const Vec3& axis : free_axes(clip.joints[j])) m.psi_P += axis * axis.dot(tau_P);
      m.q_PC = Quat(J[j].R_PJ);
      m.w_PC_P = J[j].w_rel_P;
    }
  }
  return table;
}

double Character::tracking_error(const World& world) const {
  double e = 0.0;
  for (double x : joint_errors(world)) e = std::max(e, x);
  return e;
}

std::vector<double> Character::joint_errors(const World& world) const {
  std::vector<double> out(muscle.size(), 0.0);
  for (std::size_t j = 0; j < muscle.size(); ++j)
    if (muscle[j] >= 0) out[j] = muscles->angle_error(world.bodies(), muscle[j], world.time());
  return out;
}

Character add_character(World& world, std::shared_ptr<const BvhMotion> motion,
                        const CharacterSettings& s) {
  if (!motion) throw Error("character: no motion");
  if (!(s.density > 0.0) || !std::isfinite(s.density))
    throw Error("character " + pivot::quoted(s.name) + ": density must be positive");
  if (!(s.thickness > 0.0) || !std::isfinite(s.thickness))
    throw Error("character " + pivot::quoted(s.name) + ": thickness must be positive");
  // the motion's time is the World's, from 0: the root's track and the feed-forward table
  // start there
  if (world.time() != 0.0 || world.step_count() != 0)
    throw Error("character " + pivot::quoted(s.name) + ": add it before the World's first step");
  const BvhClip& clip = motion->clip();
  check_skeleton(clip);
  const double h = world.settings().time_step;
  // the root's track and the muscle table hold one sample per step of the clip
  if (motion->duration() / h > static_cast<double>(kMaxCharacterSamples))
    throw Error(fmt::format(
        "character {}: the clip of {:g} s at time step {:g} s needs {:.3g} samples per joint; at "
        "most {} (a longer time step or a shorter clip)",
        pivot::quoted(s.name), motion->duration(), h, motion->duration() / h, kMaxCharacterSamples));
  const double t0 = 0.0;
  const auto n = static_cast<int>(clip.joints.size());
  const auto J0 = motion->evaluate(t0);

  // Everything that can throw comes before the World changes (a character is added whole or
  // not at all): the bodies' models and mass properties, the names, the root's track and the
  // inverse dynamics; then bodies, states, joints and the muscles are added.
  std::vector<BodySettings> bodies(n);
  std::vector<SegmentMass> segments(n);
  for (int j = 0; j < n; ++j) {
    BodySettings& b = bodies[j];
    b.name = s.name + "/" + clip.joints[j].name;
    if (world.find_body(b.name) >= 0)
      throw Error(fmt::format("character {}: a body named {} is already in the World",
                              pivot::quoted(s.name), pivot::quoted(b.name)));
    for (int k = 0; k < world.joint_count(); ++k)
      if (world.joint(k).name() == b.name)
        throw Error(fmt::format("character {}: a joint named {} is already in the World",
                                pivot::quoted(s.name), pivot::quoted(b.name)));
    b.density = s.density;
    b.shape = segment_shape(clip, j, motion->mapping().scale, s.thickness);
    b.p_WS = J0[j].p_WJ;
    b.q_WB = Quat(J0[j].R_WJ);
    b.friction = s.friction;
    b.restitution = s.restitution;
    b.collision_group = 2;
    b.collision_mask = ~std::uint32_t{2};
    if (j == 0) {
      // the root follows the capture path: a key frame at every time step of the clip
      auto track = std::make_shared<KinematicTrack>();
      const long frames = static_cast<long>(std::ceil(motion->duration() / h - 1e-9)) + 1;
      for (long k = 0; k < frames; ++k) {
        const double t = static_cast<double>(k) * h;
        const JointState root = motion->evaluate(t)[0];
        track->keyframes.push_back({t, root.p_WJ, Quat(root.R_WJ)});
      }
      b.kinematic = track;
    }
    const RigidBody model = make_rigid_body(b);
    segments[j].mass = model.mass;
    segments[j].com_J = -model.shape_offset;
    segments[j].inertia_J = model.inertia_B;
  }
  const Vec3 g = world.settings().gravity;
  MuscleTable table = inverse_dynamics(*motion, segments, g, h);

  Character c;
  c.motion = motion;
  c.body.assign(n, -1);
  c.joint.assign(n, -1);
  c.muscle.assign(n, -1);
  for (int j = 0; j < n; ++j) c.body[j] = world.add_body(bodies[j]);
  // the body's state on the motion at t0 (velocities at t0 − h/2 when staggered)
  for (int j = 1; j < n; ++j) {
    const JointState& J = J0[j];
    const Vec3 c_W = J.R_WJ * segments[j].com_J;
    Vec3 w = J.w_W;
    Vec3 v = J.v_WJ + w.cross(c_W);
    if (s.staggered_start) {
      w -= 0.5 * h * J.dw_W;
      v -= 0.5 * h * (J.a_WJ + J.dw_W.cross(c_W) + J.w_W.cross(J.w_W.cross(c_W)));
    }
    Vec6 twist;
    twist << w, v;
    world.set_state(c.body[j], world.pose(c.body[j]), twist);
  }
  // joints: ball or hinge per the channels, at the joint origin
  std::vector<MuscleJoint> muscles;
  for (int j = 1; j < n; ++j) {
    const BvhJoint& joint = clip.joints[j];
    const int parent = joint.parent;
    const std::string name = s.name + "/" + joint.name;
    const std::vector<Vec3> axes = free_axes(joint);
    if (axes.size() == 1) {
      c.joint[j] = world.add_joint(HingeJointSettings{.name = name, .anchor_W = J0[j].p_WJ,
                                                      .axis_W = J0[parent].R_WJ * axes[0]},
                                   c.body[j], c.body[parent]);
    } else {
      c.joint[j] = world.add_joint(BallJointSettings{.name = name, .anchor_W = J0[j].p_WJ},
                                   c.body[j], c.body[parent]);
    }
    c.muscle[j] = static_cast<int>(muscles.size());
    muscles.push_back({.parent = c.body[parent], .child = c.body[j], .axes_P = axes});
  }
  // the feedback's desired values where the step evaluates the feedback (muscle_force.hpp):
  // implicit, at (p(t+h), v(t+h/2)); explicit, at (p(t), v(t−h/2))
  table.position_lead = world.settings().implicit_forces ? h : 0.0;
  table.velocity_lead = world.settings().implicit_forces ? 0.5 * h : -0.5 * h;
  auto force = std::make_unique<MuscleForce>(std::move(muscles), std::move(table), s.gains);
  c.muscles = force.get();
  world.add_force(std::move(force));
  return c;
}

}  // namespace pivot
