#include "pivot/engine/hybrid/reduced_contact.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "pivot/core/error.hpp"

namespace pivot::detail {

const char* to_string(FrictionMode mode) {
  switch (mode) {
    case FrictionMode::frictionless:
      return "frictionless";
    case FrictionMode::sliding:
      return "sliding";
    case FrictionMode::no_slip:
      return "no_slip";
    case FrictionMode::no_slip_no_spin:
      return "no_slip_no_spin";
    case FrictionMode::stuck:
      return "stuck";
  }
  return "unknown";
}

bool holds_no_slip(FrictionMode mode) {
  return mode == FrictionMode::no_slip || mode == FrictionMode::no_slip_no_spin ||
         mode == FrictionMode::stuck;
}

int rate_count(FrictionMode mode) {
  switch (mode) {
    case FrictionMode::no_slip:
      return 3;
    case FrictionMode::no_slip_no_spin:
      return 2;
    case FrictionMode::stuck:
      return 0;
    default:
      return 5;
  }
}

void validate(const ReducedContactModel& model) {
  auto check_body = [](const ReducedBody& b, const char* which) {
    if (!b.surface.surface) throw Error(fmt::format("reduced contact: {} has no surface", which));
    if (b.fixed) return;
    if (!(b.mass > 0.0) || !std::isfinite(b.mass))
      throw Error(
          fmt::format("reduced contact: {}: mass must be positive (got {})", which, b.mass));
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(b.inertia_B);
    if (!b.inertia_B.allFinite() ||
        (b.inertia_B - b.inertia_B.transpose()).norm() > 1e-12 * b.inertia_B.norm() ||
        !(eig.eigenvalues().minCoeff() > 0.0))
      throw Error(
          fmt::format("reduced contact: {}: inertia must be symmetric positive definite", which));
  };
  check_body(model.body1, "body 1");
  check_body(model.body2, "body 2");
  if (model.body1.fixed) throw Error("reduced contact: body 1 must be free (fix body 2 instead)");
  validate(model.friction);
  if (!model.gravity.allFinite()) throw Error("reduced contact: gravity must be finite");
  validate(model.torques);
}

void validate(const FrictionTorques& t) {
  auto check = [](double x, const char* name, bool positive) {
    if (!std::isfinite(x) || (positive ? !(x > 0.0) : !(x >= 0.0)))
      throw Error(fmt::format("reduced contact: {} must be finite and {} (got {})", name,
                              positive ? "> 0" : ">= 0", x));
  };
  check(t.mu_rolling, "rolling friction mu_rolling", false);
  check(t.mu_spinning, "spinning friction mu_spinning", false);
  check(t.regularization, "the friction torques' regularization", true);
}

void validate(const ContactFriction& f) {
  if (!(f.mu >= 0.0) || !(f.mu_spin_static >= 0.0) || !(f.slip_threshold >= 0.0) ||
      !(f.spin_threshold >= 0.0) || !(f.min_slide_time >= 0.0) || !(f.slip_regularization >= 0.0))
    throw Error("reduced contact: friction coefficients and thresholds must be non-negative");
  if (std::isnan(f.mu_static))  // < 0 means "μ_static = μ"; NaN would reach static_coefficient()
    throw Error("reduced contact: mu_static must be a number (< 0 for the default, μ)");
}

RateVector independent_rates(FrictionMode mode, const Vec5& qdot) {
  switch (mode) {
    case FrictionMode::no_slip:
      return qdot.tail<3>();
    case FrictionMode::no_slip_no_spin:
      return qdot.segment<2>(2);
    case FrictionMode::stuck:
      return RateVector(0);
    default:
      return qdot;
  }
}

namespace {

// at most 12 × 12 (two bodies): stored in place, no heap allocation per evaluation
using MatX = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 12, 12>;
using VecX = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 12, 1>;

Mat6 mass_matrix(const ReducedBody& b) {
  Mat6 M = Mat6::Zero();
  M.topLeftCorner<3, 3>() = b.inertia_B;
  M.bottomRightCorner<3, 3>() = b.mass * Mat3::Identity();
  return M;
}

// body-frame external wrench: gravity and the user's world wrench rotated into the body
Vec6 external_wrench(const ReducedBody& b, const Quat& q_WB, const Vec3& gravity) {
  const Quat qi = q_WB.conjugate();
  Vec6 f;
  f << qi * Vec3(b.wrench_W.head<3>()), qi * Vec3(b.wrench_W.tail<3>() + b.mass * gravity);
  return f;
}

// The rolling modes' velocity maps (Kry & Pai 2002 eqs. 29-31, 37): q̇ = G ν with
//   D = −A⁻¹ B, A = ^{1c}H_{4..5,1..2}, B = ^{1c}H_{4..5,3..4}
//   K = −(H_{3,1..2} D + H_{3,3..4})          (H_{3,5} = 1)
// and their rates Ḋ = −A⁻¹(Ȧ D + Ḃ), K̇ = −(Ḣ_{3,1..2} D + H_{3,1..2} Ḋ + Ḣ_{3,3..4})
// [DERIVED, Kry & Pai 2002 §3.4.2; docs/hybrid.md "Sign conventions"].
struct RollingMap {
  bool ok = true;
  Eigen::Matrix2d D = Eigen::Matrix2d::Zero();
  Eigen::RowVector2d K = Eigen::RowVector2d::Zero();
};

// the modes whose G needs the map D (the rolling modes; not stuck, whose G is empty)
bool has_rolling_geometry(FrictionMode mode) {
  return mode == FrictionMode::no_slip || mode == FrictionMode::no_slip_no_spin;
}

RollingMap rolling_map(const ContactKinematics& k) {
  RollingMap m;
  const Eigen::Matrix2d A = k.H_1c.block<2, 2>(3, 0);
  const Eigen::Matrix2d B = k.H_1c.block<2, 2>(3, 2);
  const double scale = A.norm() * A.norm();
  if (!(std::abs(A.determinant()) > 1e-14 * scale)) {
    m.ok = false;
    return m;
  }
  m.D = -A.inverse() * B;
  m.K = -(k.H_1c.block<1, 2>(2, 0) * m.D + k.H_1c.block<1, 2>(2, 2));
  return m;
}

// G (5 × n) of a mode (5 × 0 for stuck: q̇ = 0)
MatX rate_matrix(FrictionMode mode, const RollingMap& r) {
  const int n = rate_count(mode);
  MatX G = MatX::Zero(5, n);
  if (n == 0) return G;
  if (n == 5) {
    G.setIdentity();
  } else if (mode == FrictionMode::no_slip) {
    G.block<2, 2>(0, 0) = r.D;
    G.block<3, 3>(2, 0).setIdentity();
  } else {
    G.block<2, 2>(0, 0) = r.D;
    G.block<2, 2>(2, 0).setIdentity();
    G.block<1, 2>(4, 0) = r.K;
  }
  return G;
}

// Ġ ν for the rolling modes (needs Ḣ at the full q̇)
Vec5 rate_matrix_dot_times(FrictionMode mode, const RollingMap& r, const ContactKinematics& k,
                           const Vec5& qdot) {
  Vec5 out = Vec5::Zero();
  if (!has_rolling_geometry(mode)) return out;
  const Eigen::Matrix2d A = k.H_1c.block<2, 2>(3, 0);
  const Eigen::Matrix2d Adot = k.Hdot_1c.block<2, 2>(3, 0);
  const Eigen::Matrix2d Bdot = k.Hdot_1c.block<2, 2>(3, 2);
  const Eigen::Matrix2d Ddot = -A.inverse() * (Adot * r.D + Bdot);
  const Vec2 uvdot = qdot.segment<2>(2);
  out.head<2>() = Ddot * uvdot;
  if (mode == FrictionMode::no_slip_no_spin) {
    const Eigen::RowVector2d Kdot =
        -(k.Hdot_1c.block<1, 2>(2, 0) * r.D + k.H_1c.block<1, 2>(2, 0) * Ddot +
          k.Hdot_1c.block<1, 2>(2, 2));
    out[4] = Kdot * uvdot;
  }
  return out;
}

// Solves A x = b by LU after row and column equilibration (A_s = R A C with rows, then columns,
// scaled to unit max-norm, as LAPACK's dgeequ), so that the condition estimate does not depend
// on units or on mass ratios between the bodies; returns the reciprocal condition estimate of
// the equilibrated matrix
double solve_equilibrated(const MatX& A, const VecX& b, VecX& x) {
  const int n = static_cast<int>(A.rows());
  VecX r(n), c(n);
  for (int i = 0; i < n; ++i) {
    const double m = A.row(i).cwiseAbs().maxCoeff();
    r[i] = m > 0.0 ? 1.0 / m : 1.0;
  }
  const MatX Ar = r.asDiagonal() * A;
  for (int j = 0; j < n; ++j) {
    const double m = Ar.col(j).cwiseAbs().maxCoeff();
    c[j] = m > 0.0 ? 1.0 / m : 1.0;
  }
  const Eigen::PartialPivLU<MatX> lu(Ar * c.asDiagonal());
  x = c.asDiagonal() * lu.solve(r.asDiagonal() * b);
  return lu.rcond();
}

}  // namespace

ReducedDynamics reduced_dynamics(const ReducedContactModel& model,
                                 const ReducedContactState& state) {
  ReducedDynamics d;
  const ReducedBody& b1 = model.body1;
  const ReducedBody& b2 = model.body2;
  const FrictionMode mode = state.mode;
  const int n = rate_count(mode);

  // 1-3: surfaces, frames, pose, H (P§3.7)
  d.kin = contact_kinematics(b1.surface, b2.surface, state.coords);
  ContactKinematics& k = d.kin;
  d.regularity = std::min(k.frame_1.regularity, k.frame_2.regularity);
  if (!(d.regularity > 1e-12) || !k.H_1c.allFinite()) {
    d.message = "singular surface parameterization at the contact (p_u × p_v = 0)";
    return d;
  }
  RollingMap roll;
  if (has_rolling_geometry(mode)) {
    roll = rolling_map(k);
    if (!roll.ok) {
      d.message = "no-slip map singular: H_{4..5,1..2} is not invertible";
      return d;
    }
  }
  const MatX G = rate_matrix(mode, roll);
  d.nu = independent_rates(mode, state.qdot);
  d.qdot = G * d.nu;
  set_contact_rates(k, d.qdot);
  const Vec5 Gdot_nu = rate_matrix_dot_times(mode, roll, k, d.qdot);

  // body 1's twist and bias acceleration (docs/hybrid.md "Sign conventions", two free bodies)
  const Vec6 V2 = b2.fixed ? Vec6::Zero() : state.V2_B;
  const Pose X_12 = inverse(k.X_21);
  const Mat6 Ad12 = adjoint(X_12);
  const Vec6 phi_rel = k.H_1 * d.qdot;
  d.V1_B = Ad12 * V2 + phi_rel;
  const Vec6 b1_bias = -motion_cross(phi_rel) * (Ad12 * V2) + k.Hdot_1 * d.qdot + k.H_1 * Gdot_nu;
  const MatX Hr = k.H_1 * G;  // 6 × n

  const Vec6 rel_1c = k.H_1c * d.qdot;
  d.slip = rel_1c.segment<2>(3);
  d.spin = rel_1c[2];
  d.rolling = rel_1c.head<2>();

  // forces in body frames
  const Pose X_W1 = compose(state.X_W2, k.X_21);
  const Mat6 M1 = mass_matrix(b1);
  const Vec6 f1 = external_wrench(b1, X_W1.q_WB, model.gravity);
  const Vec6 gyro1 = motion_cross(d.V1_B).transpose() * M1 * d.V1_B;  // [φ]ᵀ M φ
  const Vec6 rhs1 = f1 + gyro1 - M1 * b1_bias;

  // rolling and spinning friction torques (Kry 2000 eqs. 4.27-4.30): the torque rows of the
  // contact-frame wrench are tied to its normal row, f_i = −m_i f_z (i = 1..3), with
  // m = (−μ_r ρ̂_x, −μ_r ρ̂_y, −μ_s sgn ω_z) and f_z = −f_n (outward normals: the sign fix of
  // the slip entries, docs/hybrid.md "Sign conventions"), so τ = −μ_r ρ̂ f_n opposes the rolling. In
  // the ideal modes the projector Hrᵀ = Gᵀ ^{1c}Hᵀ ^1_{1c}Adᵀ becomes Gᵀ ^{1c}Hᵀ (I + m e_6ᵀ)
  // ^1_{1c}Adᵀ (power-free against the allowed motions after the prescribed torques are taken out).
  // In the mode stuck the torques are the constraint's reaction, not prescribed.
  Vec3 m_torque = Vec3::Zero();
  if (mode != FrictionMode::stuck) {
    const FrictionTorques& ft = model.torques;
    const Vec2 rho = rel_1c.head<2>();
    const double w_reg = ft.regularization;
    if (ft.mu_rolling > 0.0)
      m_torque.head<2>() = -ft.mu_rolling * rho / std::max(rho.norm(), w_reg);
    if (ft.mu_spinning > 0.0)
      m_torque[2] = -ft.mu_spinning * std::clamp(rel_1c[2] / w_reg, -1.0, 1.0);
  }
  // the projector P1 with P1 f_c = 0
  MatX P1 = Hr.transpose();
  if (!m_torque.isZero(0.0)) {
    Mat6 I_m = Mat6::Identity();
    I_m.block<3, 1>(0, 5) = m_torque;
    P1 = G.transpose() * k.H_1c.transpose() * I_m * k.Ad_1_1c.transpose();
  }
  if (mode == FrictionMode::sliding && model.friction.mu > 0.0) {
    const double s = d.slip.norm();
    Vec2 dir = Vec2::Zero();
    if (s > 1e-10)
      dir = d.slip / s;
    else if (state.slip_hint.norm() > 0.0)
      dir = state.slip_hint.normalized();
    // regularized: μ_eff = μ min(1, |slip|/v_reg) (slip_regularization; off when v_reg = 0)
    const double v_reg = model.friction.slip_regularization;
    const double mu_eff =
        v_reg > 0.0 ? model.friction.mu * std::min(1.0, s / v_reg) : model.friction.mu;
    if (dir.norm() > 0.0 && mu_eff > 0.0) {
      // F = (I_5 | μ) ^1_{1c}Adᵀ, μ = (0, 0, 0, −μ ŝ_x, −μ ŝ_y)  (P27, sign per docs/hybrid.md
      // "Sign conventions")
      Eigen::Matrix<double, 5, 6> I_mu = Eigen::Matrix<double, 5, 6>::Zero();
      I_mu.leftCols<5>().setIdentity();
      I_mu(3, 5) = -mu_eff * dir.x();
      I_mu(4, 5) = -mu_eff * dir.y();
      I_mu.block<3, 1>(0, 5) = m_torque;  // T4.30's torque entries
      P1 = I_mu * k.Ad_1_1c.transpose();
    }
  }

  Vec6 V1dot = Vec6::Zero();
  if (b2.fixed && n == 0) {
    d.nu_dot = RateVector(0);  // stuck on a fixed body: at rest
    d.rcond = 1.0;
    V1dot = b1_bias;
  } else if (b2.fixed) {
    VecX nu_dot;
    d.rcond = solve_equilibrated(P1 * M1 * Hr, P1 * rhs1, nu_dot);
    d.nu_dot = nu_dot;
    V1dot = Hr * d.nu_dot + b1_bias;
  } else {
    // unknowns x = (^2φ̇_2, ν̇); J = [[Ad12, H_r], [I, 0]]; P = [[Ad12ᵀ, I], [P1, 0]]
    const Mat6 M2 = mass_matrix(b2);
    const Vec6 f2 = external_wrench(b2, state.X_W2.q_WB, model.gravity);
    const Vec6 gyro2 = motion_cross(V2).transpose() * M2 * V2;
    MatX J = MatX::Zero(12, 6 + n);
    J.block(0, 0, 6, 6) = Ad12;
    J.block(0, 6, 6, n) = Hr;
    J.block(6, 0, 6, 6).setIdentity();
    MatX P = MatX::Zero(6 + n, 12);
    P.block(0, 0, 6, 6) = Ad12.transpose();
    P.block(0, 6, 6, 6).setIdentity();
    P.block(6, 0, n, 6) = P1;
    MatX M = MatX::Zero(12, 12);
    M.block(0, 0, 6, 6) = M1;
    M.block(6, 6, 6, 6) = M2;
    VecX rhs(12);
    rhs << rhs1, f2 + gyro2;
    VecX x;
    d.rcond = solve_equilibrated(P * M * J, P * rhs, x);
    d.V2dot_B = x.head<6>();
    d.nu_dot = x.tail(n);
    V1dot = Ad12 * d.V2dot_B + Hr * d.nu_dot + b1_bias;
  }
  if (!d.nu_dot.allFinite() || !(d.rcond > 1e-300)) {
    d.message = "the reduced equations of motion are singular (conforming contact?)";
    return d;
  }
  d.qddot = G * d.nu_dot + Gdot_nu;

  // 5: the contact wrench by back-substitution (P15), and its contact-frame components
  d.wrench_c_B1 = M1 * V1dot - gyro1 - f1;
  d.wrench_c_1c = k.Ad_1_1c.transpose() * d.wrench_c_B1;  // ^{1c}f = ^1_{1c}Adᵀ ^1f
  d.X_W1 = X_W1;
  d.wrench_c_W1 = to_world_twist(X_W1.q_WB, d.wrench_c_B1);  // both halves rotate alike
  d.normal_force = -d.wrench_c_1c[5];
  d.tangential_force = d.wrench_c_1c.segment<2>(3);
  d.normal_torque = d.wrench_c_1c[2];
  d.rolling_torque = d.wrench_c_1c.head<2>();
  d.ok = true;
  return d;
}

Pose body1_pose(const ReducedContactModel& model, const ReducedContactState& state) {
  return compose(state.X_W2, contact_pose(model.body1.surface, model.body2.surface, state.coords));
}

Vec6 body1_world_twist(const ReducedContactModel& model, const ReducedContactState& state) {
  const ContactKinematics k =
      contact_kinematics(model.body1.surface, model.body2.surface, state.coords);
  const Vec6 V2 = model.body2.fixed ? Vec6::Zero() : state.V2_B;
  const Pose X_W1 = compose(state.X_W2, k.X_21);
  return to_world_twist(X_W1.q_WB, body1_twist(k, V2, state.qdot));
}

Vec6 body2_world_twist(const ReducedContactState& state) {
  return to_world_twist(state.X_W2.q_WB, state.V2_B);
}

double reduced_energy(const ReducedContactModel& model, const ReducedContactState& state) {
  const ContactKinematics k =
      contact_kinematics(model.body1.surface, model.body2.surface, state.coords);
  const Vec6 V2 = model.body2.fixed ? Vec6::Zero() : state.V2_B;
  const Vec6 V1 = body1_twist(k, V2, state.qdot);
  const Pose X_W1 = compose(state.X_W2, k.X_21);
  double e =
      0.5 * V1.dot(mass_matrix(model.body1) * V1) - model.body1.mass * model.gravity.dot(X_W1.p_WB);
  if (!model.body2.fixed)
    e += 0.5 * V2.dot(mass_matrix(model.body2) * V2) -
         model.body2.mass * model.gravity.dot(state.X_W2.p_WB);
  return e;
}

namespace {

// The admissible motion of `mode` nearest, in the kinetic-energy metric, to the body-frame twists
// (V1, V2) (V2 ignored for a fixed body 2): the motion after a perfectly inelastic impulse at the
// contact. Returns the rates, body 2's twist and body 1's new twist; energies before and after.
struct Projection {
  Vec5 qdot = Vec5::Zero();
  Vec6 V1_B = Vec6::Zero(), V2_B = Vec6::Zero();
  double energy_before = 0.0, energy_after = 0.0;
};

Projection project(const ReducedContactModel& model, const ContactKinematics& k, FrictionMode mode,
                   const Vec6& V1, const Vec6& V2_in) {
  RollingMap roll;
  if (has_rolling_geometry(mode)) {
    roll = rolling_map(k);
    if (!roll.ok) throw Error("reduced contact: no-slip map singular at the mode change");
  }
  const MatX G = rate_matrix(mode, roll);
  const int n = rate_count(mode);
  const Mat6 Ad12 = adjoint(inverse(k.X_21));
  const Mat6 M1 = mass_matrix(model.body1);
  const MatX Hr = k.H_1 * G;
  Projection out;
  out.energy_before = 0.5 * V1.dot(M1 * V1);
  if (model.body2.fixed) {
    // min ½ (H_r ν − φ)ᵀ M (H_r ν − φ):  H_rᵀ M H_r ν = H_rᵀ M φ
    const VecX nu = n == 0
                        ? VecX(0)  // stuck: body 1 comes to rest
                        : VecX((Hr.transpose() * M1 * Hr).ldlt().solve(Hr.transpose() * M1 * V1));
    out.qdot = G * nu;
    out.V1_B = Hr * nu;
    out.energy_after = 0.5 * out.V1_B.dot(M1 * out.V1_B);
  } else {
    const Mat6 M2 = mass_matrix(model.body2);
    MatX J = MatX::Zero(12, 6 + n);
    J.block(0, 0, 6, 6) = Ad12;
    J.block(0, 6, 6, n) = Hr;
    J.block(6, 0, 6, 6).setIdentity();
    MatX M = MatX::Zero(12, 12);
    M.block(0, 0, 6, 6) = M1;
    M.block(6, 6, 6, 6) = M2;
    VecX v(12);
    v << V1, V2_in;
    const VecX x = (J.transpose() * M * J).ldlt().solve(J.transpose() * M * v);
    out.V2_B = x.head<6>();
    out.qdot = G * x.tail(n);
    const VecX vn = J * x;
    out.V1_B = vn.head<6>();
    out.energy_before += 0.5 * V2_in.dot(M2 * V2_in);
    out.energy_after = 0.5 * vn.dot(M * vn);
  }
  return out;
}

}  // namespace

ModeChange change_mode(const ReducedContactModel& model, const ReducedContactState& state,
                       FrictionMode new_mode) {
  ModeChange out;
  out.qdot = state.qdot;
  out.V2_B = model.body2.fixed ? Vec6::Zero() : state.V2_B;
  if (rate_count(new_mode) == 5) return out;
  const ContactKinematics k =
      contact_kinematics(model.body1.surface, model.body2.surface, state.coords);
  const Mat6 Ad12 = adjoint(inverse(k.X_21));
  const Projection p = project(model, k, new_mode, Ad12 * out.V2_B + k.H_1 * state.qdot, out.V2_B);
  out.qdot = p.qdot;
  out.V2_B = model.body2.fixed ? Vec6::Zero() : p.V2_B;
  out.energy_change = p.energy_after - p.energy_before;
  return out;
}

ReducedImpulse apply_impulse(const ReducedContactModel& model, const ReducedContactState& state,
                             int body, const Vec6& impulse_W) {
  if (body != 1 && body != 2) throw Error("reduced contact: an impulse acts on body 1 or body 2");
  if (body == 2 && model.body2.fixed)
    throw Error("reduced contact: an impulse on a fixed body 2 does nothing");
  if (!impulse_W.allFinite()) throw Error("reduced contact: the impulse must be finite");
  ReducedImpulse r;
  r.state = state;
  const ContactKinematics k =
      contact_kinematics(model.body1.surface, model.body2.surface, state.coords);
  const Mat6 Ad12 = adjoint(inverse(k.X_21));
  const Pose X_W1 = compose(state.X_W2, k.X_21);
  const Vec6 V2 = model.body2.fixed ? Vec6::Zero() : state.V2_B;
  Vec6 V1 = Ad12 * V2 + k.H_1 * state.qdot;
  Vec6 V2_target = V2;
  // the twists just after the impulse, before the contact reacts (body frames, at the COMs)
  if (body == 1)
    V1 += mass_matrix(model.body1).inverse() * to_body_twist(X_W1.q_WB, impulse_W);
  else
    V2_target += mass_matrix(model.body2).inverse() * to_body_twist(state.X_W2.q_WB, impulse_W);
  const Vec6 V1_target = V1;
  const Mat6 M1 = mass_matrix(model.body1);
  const ContactFriction& fr = model.friction;
  const FrictionTorques& ft = model.torques;
  const double scale = std::max(impulse_W.tail<3>().norm(), 1e-300);
  const double tol = 1e-12 * scale;
  FrictionMode mode = state.mode;
  for (int attempt = 0; attempt < 4; ++attempt) {
    const Projection p = project(model, k, mode, V1_target, V2_target);
    // the contact's impulsive reaction on body 1, in 1c: M1 (V1⁺ − V1⁻) (P15 integrated over
    // the impact, finite forces dropped)
    const Vec6 reaction_1c = k.Ad_1_1c.transpose() * (M1 * (p.V1_B - V1_target));
    const double i_n = -reaction_1c[5];
    const double i_t = reaction_1c.segment<2>(3).norm();
    const double t_roll = reaction_1c.head<2>().norm(), t_spin = std::abs(reaction_1c[2]);
    r.contact_impulse_1c = reaction_1c;
    if (i_n < -tol) {
      r.message =
          fmt::format("the impulse pulls the contact open (normal impulse {:.6g} N·s)", i_n);
      return r;
    }
    const double n_pos = std::max(i_n, 0.0);
    if (mode == FrictionMode::stuck && (t_roll > ft.mu_rolling * n_pos + tol ||
                                        t_spin > ft.spin_limit(fr.mu_spin_static) * n_pos + tol)) {
      mode = FrictionMode::no_slip;  // the impulsive torque exceeds static rolling friction
      continue;
    }
    if (mode == FrictionMode::no_slip_no_spin && t_spin > fr.mu_spin_static * n_pos + tol) {
      mode = FrictionMode::no_slip;
      continue;
    }
    if (holds_no_slip(mode) && i_t > fr.static_coefficient() * n_pos + tol) {
      mode = fr.mu > 0.0 ? FrictionMode::sliding : FrictionMode::frictionless;
      continue;  // the contact cannot hold the slip: re-project without friction
    }
    if (mode == FrictionMode::sliding && fr.mu > 0.0 && i_n > tol) {
      r.message = fmt::format(
          "a sliding contact would need an impulsive Coulomb friction (normal impulse {:.6g} N·s)",
          i_n);
      return r;
    }
    r.kept = true;
    r.state.qdot = p.qdot;
    if (!model.body2.fixed) r.state.V2_B = p.V2_B;
    if (mode != state.mode) {
      if (holds_no_slip(state.mode) && !holds_no_slip(mode)) r.state.rolling_armed = false;
      r.state.mode = mode;
      r.state.mode_since = state.time;
    }
    r.energy_change =
        p.energy_after -
        (0.5 * V1_target.dot(M1 * V1_target) +
         (model.body2.fixed ? 0.0 : 0.5 * V2_target.dot(mass_matrix(model.body2) * V2_target)));
    return r;
  }
  r.message = "no friction mode can take the impulse";
  return r;
}

ReducedEntry enter_reduced_mode(const ReducedContactModel& model, const Pose& X_W1,
                                const Vec6& V1_W, const Pose& X_W2, const Vec6& V2_W, double time,
                                const std::optional<Vec3>& p_W_guess, double search_tolerance) {
  validate(model);
  const ReducedBody& b1 = model.body1;
  const ReducedBody& b2 = model.body2;
  ReducedEntry e;
  e.search = find_contact(b1.surface, X_W1, b2.surface, X_W2, p_W_guess, search_tolerance);

  // energy before: the given full-coordinate state
  auto kinetic = [](const ReducedBody& b, const Quat& q_WB, const Vec6& V_W) {
    const Vec6 V_B = to_body_twist(q_WB, V_W);
    return 0.5 * V_B.dot(mass_matrix(b) * V_B);
  };
  double before = kinetic(b1, X_W1.q_WB, V1_W) - b1.mass * model.gravity.dot(X_W1.p_WB);
  if (!b2.fixed) before += kinetic(b2, X_W2.q_WB, V2_W) - b2.mass * model.gravity.dot(X_W2.p_WB);

  ReducedContactState& s = e.state;
  s.coords = e.search.coords;
  s.X_W2 = X_W2;
  s.V2_B = b2.fixed ? Vec6::Zero() : to_body_twist(X_W2.q_WB, V2_W);
  s.time = time;
  s.mode_since = time;
  const ContactKinematics k = contact_kinematics(b1.surface, b2.surface, s.coords);
  e.X_W1 = compose(X_W2, k.X_21);
  // body 1's twist in its (snapped) body axes
  const ContactRates r = contact_rates(k, to_body_twist(e.X_W1.q_WB, V1_W), s.V2_B);
  s.qdot = r.qdot;
  e.separation_rate = r.separation_rate;

  const ContactFriction& fr = model.friction;
  s.mode = fr.mu > 0.0 ? FrictionMode::sliding : FrictionMode::frictionless;
  if (fr.mu > 0.0 && fr.rolling) {
    const Vec6 rel = k.H_1c * s.qdot;
    if (rel.segment<2>(3).norm() < fr.slip_threshold) {
      const ModeChange mc = change_mode(model, s, FrictionMode::no_slip);
      s.qdot = mc.qdot;
      s.V2_B = mc.V2_B;
      s.mode = FrictionMode::no_slip;
    }
  }
  e.energy_change = reduced_energy(model, s) - before;
  return e;
}

}  // namespace pivot::detail
