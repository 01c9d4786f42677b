// World::compute_forces, the step's first stage (world_step.cpp): the forces at (p_t, v_t, t)
// and their gradients for the linearly implicit step.
#include "pivot/engine/gyroscopic.hpp"
#include "pivot/engine/step_context.hpp"
#include "pivot/engine/world.hpp"

namespace pivot {

using namespace detail;

// 1. forces at (p_t, v_t, t): gravity, the gyroscopic term −ω × (I ω) (Cline eq. 2.27), and
// the external forces; their gradients for the linearly implicit step (Cline eq. 2.52–2.54)
void World::compute_forces(StepContext& ctx) {
  const double h = ctx.h;
  const int n = ctx.n;
  ctx.f = Eigen::VectorXd::Zero(6 * n);
  ctx.inertia_W.resize(static_cast<std::size_t>(n));
  ctx.inertia_q.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const RigidBody& b = set_.body(i);
    const Quat q(set_.orientation(i));
    ctx.inertia_q[i] = q.coeffs();
    if (b.fixed) {
      ctx.inertia_W[i].setZero();
      continue;
    }
    const Vec3 w = set_.twist(i).head<3>();
    const Mat3& I = ctx.inertia_W[i] = b.inertia_W(q);
    ctx.f.segment<3>(6 * i + 3) += b.mass * settings_.gravity;
    Vec3 w_plus_B;
    if (b.isotropic()) {
      // I = k 1: ω × (I ω) = 0, the rotation is torque-free without the gyroscopic term
      // (computed, it would be a rounding residue)
    } else if (!settings_.implicit_forces) {
      ctx.f.segment<3>(6 * i) -= w.cross(I * w);  // explicit
    } else if (detail::gyroscopic_midpoint(b.inertia_B, b.inverse_inertia_B, q.conjugate() * w, h,
                                           w_plus_B)) {
      // energy- and |L|-conserving torque-free rotation (engine/gyroscopic.hpp), handed to the
      // LCP as the impulse I_W (ω⁺ − ω) = h τ
      ctx.f.segment<3>(6 * i) += I * (q * w_plus_B - w) / h;
    } else {
      // h|ω| too large for the midpoint's Newton iteration: linearly implicit (Cline §2.7.4),
      // ∂(−ω × Iω)/∂ω = −[ω] I + [I ω]
      ctx.f.segment<3>(6 * i) -= w.cross(I * w);
      const Mat3 G = -skew(w) * I + skew(I * w);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) ctx.dfdv.emplace_back(6 * i + r, 6 * i + c, G(r, c));
    }
  }
  // the external forces alone (without gravity and the gyroscopic term): the wrench of a pair
  // in hybrid reduced mode
  ctx.f_ext = Eigen::VectorXd::Zero(6 * n);
  for (const auto& force : forces_) {
    force->apply(set_, time_, ctx.f_ext);
    if (settings_.implicit_forces && force->add_gradients(set_, time_, ctx.dfdp, ctx.dfdv)) {
      const std::span<const int> bodies = force->coupled_bodies();
      for (std::size_t k = 1; k < bodies.size(); ++k)
        ctx.couplings.emplace_back(bodies[0], bodies[k]);
    }
  }
  add_actuator_efforts(ctx.f_ext);
  ctx.f += ctx.f_ext;
  if (!ctx.f.allFinite() || !ctx.f_ext.allFinite()) {
    ctx.f_ext.setZero();
    report_.warn(StepWarning::nonfinite_forces, -1,
                 "external forces are not finite: they are ignored this step");
    ctx.f.setZero();
  }
  // M̃ = M − h²∇ₚf − h∇ᵥf and f̃ = f − ∇ᵥf v (Cline eq. 2.54), with the gradients gathered
  // above (none without implicit forces: M̃ = M, f̃ = f, the gradient left empty)
  ctx.gradient.assemble(6 * n, h, ctx.dfdp, ctx.dfdv);
  ctx.gradient.subtract_velocity_term(set_.velocities(), ctx.f);
}

}  // namespace pivot
