// The motion-capture-driven character (scenes/format/character.hpp, Cline 2002 §5.1).
#include <catch2/catch.hpp>
#include <cmath>
#include <Eigen/QR>
#include <cstdio>
#include <memory>

#include "pivot/core/error.hpp"
#include "pivot/scenes/character.hpp"
#include "support/test_data.hpp"

using namespace pivot;

namespace {

std::shared_ptr<const BvhMotion> shipped_motion(const char* name) {
  return std::make_shared<BvhMotion>(load_bvh(pivot::test::source_scenes_dir() / "mocap" / name),
                                     BvhMapping{});
}

}  // namespace


// Cline eq. 5.3, [Jᵀ Hᵀ](λ; τ) = M v̇ − f_ext, checked independently of the inverse dynamics'
// recursion: the reference accelerations by central differences of the motion's poses, the
// joint reaction wrenches Jᵀλ as a basis built here (a force at each joint's origin, and for a
// hinge two torques normal to its axis), the muscle wrenches Hᵀψ from the table. The least-
// squares residual of M v̇ − f_g − Hᵀψ = Jᵀλ over all bodies is what is left unexplained.
TEST_CASE("character: the feed-forward torques and some joint reactions explain the motion (eq. 5.3)") {
  World world({.time_step = 1e-3});
  const auto motion = shipped_motion("walk.bvh");
  Character c = add_character(world, motion, {.gains = {0, 0, 0}});
  const BvhClip& clip = motion->clip();
  const int n = static_cast<int>(clip.joints.size());
  REQUIRE(clip.channel_count() == 54);
  const Vec3 g = world.settings().gravity;
  // times between frames (1/120 s apart): the spline's third derivative jumps at the frames
  // and sample times of the table (1 ms apart: between them ψ is interpolated)
  for (double t : {0.251, 0.704, 1.311}) {
    // poses at t and t ± δ: centre of mass x and R per body
    const double d = 3e-5;
    auto pose_at = [&](double time, std::vector<Vec3>& x, std::vector<Mat3>& R) {
      const auto J = motion->evaluate(time);
      for (int j = 0; j < n; ++j) {
        const RigidBody& b = world.bodies().body(c.body[j]);
        R[j] = J[j].R_WJ;
        x[j] = J[j].p_WJ - J[j].R_WJ * b.shape_offset;
      }
    };
    std::vector<Vec3> xm(n), x0(n), xp(n), xmm(n), xpp(n);
    std::vector<Mat3> Rm(n), R0(n), Rp(n), Rmm(n), Rpp(n);
    pose_at(t - d, xm, Rm);
    pose_at(t, x0, R0);
    pose_at(t + d, xp, Rp);
    pose_at(t - 2 * d, xmm, Rmm);
    pose_at(t + 2 * d, xpp, Rpp);
    auto omega = [](const Mat3& Ra, const Mat3& Rb, double dt) {  // ω over [a, b]
      return Vec3(quat_log(Quat(Rb * Ra.transpose())) / dt);
    };
    const int bodies = n - 1;  // the root is kinematic
    Eigen::VectorXd r(6 * bodies);
    for (int j = 1; j < n; ++j) {
      const RigidBody& b = world.bodies().body(c.body[j]);
      const Vec3 a = (xp[j] - 2 * x0[j] + xm[j]) / (d * d);
      const Vec3 w = omega(Rm[j], Rp[j], 2 * d);
      const Vec3 dw = (omega(R0[j], Rpp[j], 2 * d) - omega(Rmm[j], R0[j], 2 * d)) / (2 * d);
      const Mat3 I = R0[j] * b.inertia_B * R0[j].transpose();
      Vec3 torque = I * dw + w.cross(I * w);
      // minus the muscles: +R_WP ψ on the child, −R_WP ψ on the parent
      const int m = c.muscle[j];
      const Vec3 tau = R0[clip.joints[j].parent] * c.muscles->sample(m, t).psi_P;
      torque -= tau;
      for (int k = 1; k < n; ++k)
        if (clip.joints[k].parent == j)
          torque += R0[j] * c.muscles->sample(c.muscle[k], t).psi_P;
      r.segment<3>(6 * (j - 1)) = torque;
      r.segment<3>(6 * (j - 1) + 3) = b.mass * (a - g);
    }
    // the reaction basis: per joint a force at its origin (3 columns), per hinge 2 torques
    std::vector<Eigen::VectorXd> columns;
    const auto J = motion->evaluate(t);
    for (int j = 1; j < n; ++j) {
      const int p = clip.joints[j].parent;
      for (int k = 0; k < 3; ++k) {
        Eigen::VectorXd col = Eigen::VectorXd::Zero(6 * bodies);
        const Vec3 f = Vec3::Unit(k);
        col.segment<3>(6 * (j - 1)) = (J[j].p_WJ - x0[j]).cross(f);
        col.segment<3>(6 * (j - 1) + 3) = f;
        if (p > 0) {
          col.segment<3>(6 * (p - 1)) = -(J[j].p_WJ - x0[p]).cross(f);
          col.segment<3>(6 * (p - 1) + 3) = -f;
        }
        columns.push_back(col);
      }
      if (c.muscles->joints()[c.muscle[j]].axes_P.size() == 1) {
        const Vec3 axis = R0[p] * c.muscles->joints()[c.muscle[j]].axes_P[0];
        const Vec3 u1 = axis.unitOrthogonal(), u2 = axis.cross(u1);
        for (const Vec3& u : {u1, u2}) {
          Eigen::VectorXd col = Eigen::VectorXd::Zero(6 * bodies);
          col.segment<3>(6 * (j - 1)) = u;
          if (p > 0) col.segment<3>(6 * (p - 1)) = -u;
          columns.push_back(col);
        }
      }
    }
    Eigen::MatrixXd Jt(6 * bodies, static_cast<Eigen::Index>(columns.size()));
    for (std::size_t k = 0; k < columns.size(); ++k) Jt.col(static_cast<Eigen::Index>(k)) = columns[k];
    // 20 joints: 14 ball (3 rows) + 6 hinges (5 rows) = 72 reaction rows for 120 body DOF
    CHECK(Jt.cols() == 72);
    const Eigen::VectorXd lambda = Jt.colPivHouseholderQr().solve(r);
    const double residual = (Jt * lambda - r).norm() / r.norm();
    INFO("t = " << t << ": relative residual " << residual << ", |r| " << r.norm());
    // central differences with δ = 3e-5 s: truncation ~ δ² |x⁗| and rounding ~ ε/δ²
    CHECK(residual < 1e-7);
    // without the muscles the motion is not explained (the check can fail)
    Eigen::VectorXd r0 = r;
    for (int j = 1; j < n; ++j) {
      const int p = clip.joints[j].parent;
      const Vec3 tau = R0[p] * c.muscles->sample(c.muscle[j], t).psi_P;
      r0.segment<3>(6 * (j - 1)) += tau;
      if (p > 0) r0.segment<3>(6 * (p - 1)) -= tau;
    }
    const Eigen::VectorXd l0 = Jt.colPivHouseholderQr().solve(r0);
    CHECK((Jt * l0 - r0).norm() / r0.norm() > 1e-2);
  }
}

TEST_CASE("character: the muscle wrenches are equal and opposite per joint") {
  World world({.time_step = 1e-3});
  const auto motion = shipped_motion("walk.bvh");
  Character c = add_character(world, motion, {});
  for (int k = 0; k < 50; ++k) world.step();
  // knock the state off the motion so that the feedback is not zero
  const int arm = world.find_body("character/LElbow");
  world.set_state(arm, world.pose(arm), Vec6::Constant(0.7));
  Eigen::VectorXd w = Eigen::VectorXd::Zero(6 * world.body_count());
  c.muscles->apply(world.bodies(), world.time(), w);
  Vec3 torque = Vec3::Zero(), force = Vec3::Zero();
  double scale = 0.0;
  for (int b = 0; b < world.body_count(); ++b) {
    torque += w.segment<3>(6 * b);
    force += w.segment<3>(6 * b + 3);
    scale = std::max(scale, w.segment<3>(6 * b).norm());
  }
  CHECK(scale > 1.0);
  CHECK(torque.norm() < 1e-12 * scale);  // pure couples: no net torque
  CHECK(force.norm() == 0.0);            // and no force at all
  // per joint: +τ on the child, −τ on the parent, and nothing else: the wrenches apply() adds
  // are exactly the sum of these couples built from each joint's own torque
  Eigen::VectorXd couples = Eigen::VectorXd::Zero(6 * world.body_count());
  for (int j = 0; j < static_cast<int>(c.muscles->joints().size()); ++j) {
    const Vec3 tau = c.muscles->torque_W(world.bodies(), j, world.time());
    const MuscleJoint& J = c.muscles->joints()[j];
    REQUIRE(J.child >= 0);
    couples.segment<3>(6 * J.child) += tau;
    if (J.parent >= 0) couples.segment<3>(6 * J.parent) -= tau;
  }
  CHECK((couples - w).norm() <= 1e-12 * scale);
}

TEST_CASE("character: a hinge's feedback follows eq. 5.7, its gain scaled by the feed-forward torque") {
  // two bodies and one hinge about the parent's x axis, a table of one sample by hand
  World world({.time_step = 1e-3, .gravity = Vec3::Zero()});
  const int parent = world.add_body({.name = "p", .fixed = true});
  const int child = world.add_body({.name = "c"});
  const double angle = 0.03, rate = -0.4;  // actual, against desired 0 and 0.1
  world.set_state(child, {Vec3::Zero(), Quat(Eigen::AngleAxisd(angle, Vec3::UnitX()))},
                  (Vec6() << rate, 0, 0, 0, 0, 0).finished());
  MuscleTable table;
  MuscleSample s;
  s.psi_P = Vec3(-2.5, 0, 0);
  s.w_PC_P = Vec3(0.1, 0, 0);
  table.samples = {{s}};
  for (double ks : {50.0, 100.0})
    for (double min_torque : {0.0, 4.0}) {
      MuscleForce f({{.parent = parent, .child = child, .axes_P = {Vec3::UnitX()}}}, table,
                    {.stiffness = ks, .damping = 7.0, .min_torque = min_torque});
      const double gain = std::max(2.5, min_torque);
      const double expected = -2.5 + gain * (ks * (0.0 - angle) + 7.0 * (0.1 - rate));
      const Vec3 tau = f.torque_W(world.bodies(), 0, 0.0);
      CHECK(tau.x() == Approx(expected).epsilon(1e-12));
      CHECK(std::abs(tau.y()) + std::abs(tau.z()) < 1e-15);
    }
}

TEST_CASE("character: the muscles' gradients match finite differences") {
  World world({.time_step = 1e-3});
  const auto motion = shipped_motion("arm_swing.bvh");
  Character c = add_character(world, motion, {});
  for (int k = 0; k < 30; ++k) world.step();
  const double t = world.time();
  // a state off the motion, with no joint at a rotation error of π
  for (int b = 1; b < world.body_count(); ++b)
    world.set_state(b, integrate(world.pose(b), Vec6::Constant(0.01 * b)),
                    world.twist(b) + Vec6::Constant(0.3));
  const int n = 6 * world.body_count();
  Triplets tp, tv;
  c.muscles->add_gradients(world.bodies(), t, tp, tv);
  Eigen::SparseMatrix<double> Gp(n, n), Gv(n, n);
  Gp.setFromTriplets(tp.begin(), tp.end());
  Gv.setFromTriplets(tv.begin(), tv.end());
  auto wrench = [&](const World& w) {
    Eigen::VectorXd out = Eigen::VectorXd::Zero(n);
    c.muscles->apply(w.bodies(), t, out);
    out.head<6>().setZero();  // the kinematic root has no gradient rows (no velocity unknowns)
    return out;
  };
  const double d = 1e-6;
  for (int b = 1; b < world.body_count(); ++b)
    for (int k = 0; k < 3; ++k) {
      const Pose X = world.pose(b);
      const Vec6 V = world.twist(b);
      Vec6 dv = Vec6::Zero();
      dv[k] = d;
      world.set_state(b, X, V + dv);
      const Eigen::VectorXd up = wrench(world);
      world.set_state(b, X, V - dv);
      const Eigen::VectorXd down = wrench(world);
      world.set_state(b, X, V);
      const Eigen::VectorXd fd_v = (up - down) / (2 * d);
      CHECK((fd_v - Gv.col(6 * b + k).toDense()).norm() < 1e-6 * (1 + fd_v.norm()));
      world.set_state(b, integrate(X, dv), V);
      const Eigen::VectorXd pu = wrench(world);
      world.set_state(b, integrate(X, -dv), V);
      const Eigen::VectorXd pd = wrench(world);
      world.set_state(b, X, V);
      const Eigen::VectorXd fd_p = (pu - pd) / (2 * d);
      // the axes turning with the parent are neglected (muscle_force.hpp): only the child's
      // own rows and the parent-independent part are compared, to the error that causes
      INFO("body " << b << " axis " << k);
      CHECK((fd_p - Gp.col(6 * b + k).toDense()).norm() < 0.1 * fd_p.norm() + 1e-6);
    }
}

// the feedback integrated explicitly blows up at gains the linearly implicit step (Cline §2.7.4,
// eq. 2.55) holds: the thesis' finding (§5.1.2, "links … go flying off")
TEST_CASE("character: explicit feedback blows up at useful gains, the linearly implicit step tracks") {
  const auto motion = shipped_motion("arm_swing.bvh");
  for (bool implicit : {true, false}) {
    World world({.time_step = 1e-3, .implicit_forces = implicit});
    Character c = add_character(world, motion, {.gains = {.stiffness = 100, .damping = 10}});
    double worst = 0.0;
    while (world.time() < 1.0 && worst < 1.0) {
      world.step();
      worst = std::max(worst, c.tracking_error(world));
    }
    INFO("implicit " << implicit << ": worst tracking error " << worst << " rad");
    if (implicit)
      CHECK(worst < 2e-3);
    else
      CHECK(worst > 1.0);
  }
}

// the undisturbed tracking error is first order in h (docs/character.md "What is exact"): the
// engine's joint rows hold J(p_t) v⁺ = 0 at the start of the step, an O(h) velocity difference
// from the motion's, corrected at the position level by the post-step
TEST_CASE("character: the undisturbed tracking error halves with the time step") {
  const auto motion = shipped_motion("arm_swing.bvh");
  std::vector<double> worst;
  for (double h : {1e-3, 5e-4}) {
    World world({.time_step = h});
    Character c = add_character(world, motion, {});
    double e = 0.0;
    while (world.time() < 1.0) {
      world.step();
      e = std::max(e, c.tracking_error(world));
    }
    worst.push_back(e);
  }
  INFO("h = 1 ms: " << worst[0] << " rad, 0.5 ms: " << worst[1] << " rad");
  CHECK(worst[0] < 2e-3);
  CHECK(worst[0] / worst[1] > 1.8);
  CHECK(worst[0] / worst[1] < 2.2);
}

TEST_CASE("character: a skeleton it cannot build is an error naming the joint and line") {
  const char* text = R"(HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Wrist
  {
    OFFSET 0 -40 0
    CHANNELS 2 Xrotation Yrotation
    End Site
    {
      OFFSET 0 -10 0
    }
  }
}
MOTION
Frames: 1
Frame Time: 0.01
0 0 0 0 0 0 0 0
)";
  World world;
  auto motion = std::make_shared<BvhMotion>(parse_bvh(text, "two.bvh"), BvhMapping{});
  // a time step that would need more than kMaxCharacterSamples per joint is refused before any
  // table is built (the arm clip at h = 1 ns: about 2e9 samples)
  World tiny_step({.time_step = 1e-9});
  CHECK_THROWS_WITH(add_character(tiny_step, shipped_motion("arm_swing.bvh"), {}),
                    Catch::Contains("samples per joint") && Catch::Contains("at most"));
  CHECK(tiny_step.body_count() == 0);
  // and a World that has stepped already: the motion's time would not be the World's
  World stepped;
  stepped.step();
  try {
    (void)add_character(stepped, shipped_motion("arm_swing.bvh"), {});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) ==
          "character \"character\": add it before the World's first step");
  }
  try {
    (void)add_character(world, motion, {});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) ==
          "two.bvh: line 6: joint \"Wrist\" (line 6) has 2 rotation channels: a character joint "
          "has 3 (ball) or 1 (hinge)");
  }
}

TEST_CASE("character: a character that cannot be added leaves the World as it was") {
  // a body already named like the last of the character's: refused before anything is added
  World world;
  BodySettings taken{.name = "character/RWrist"};  // the last of its bodies
  taken.shape = make_sphere(0.1);
  world.add_body(taken);
  CHECK_THROWS_WITH(add_character(world, shipped_motion("arm_swing.bvh"), {}),
                    Catch::Contains("already in the World"));
  CHECK(world.body_count() == 1);
  CHECK(world.joint_count() == 0);
  // the same World takes the character under another name, whole
  CharacterSettings other;
  other.name = "other";
  const Character c = add_character(world, shipped_motion("arm_swing.bvh"), other);
  CHECK(world.body_count() == 1 + static_cast<int>(c.body.size()));
}

TEST_CASE("character: a new time step moves the feedback's leads with it") {
  // the leads are h and h/2 of the linearly implicit step (muscle_force.hpp); after
  // set_time_step they must be those of a character made at the new step from the start
  for (const bool implicit : {true, false}) {
    World changed({.time_step = 1e-3, .implicit_forces = implicit});
    const Character a = add_character(changed, shipped_motion("arm_swing.bvh"), {});
    changed.set_time_step(4e-3);
    World fresh({.time_step = 4e-3, .implicit_forces = implicit});
    const Character b = add_character(fresh, shipped_motion("arm_swing.bvh"), {});
    CHECK(a.muscles->table().position_lead == Approx(b.muscles->table().position_lead));
    CHECK(a.muscles->table().velocity_lead == Approx(b.muscles->table().velocity_lead));
    CHECK(b.muscles->table().velocity_lead == Approx(implicit ? 2e-3 : -2e-3));
  }
}
