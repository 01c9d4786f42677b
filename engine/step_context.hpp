#pragma once
// What the stages of one World::step hand to each other (internal; world_step.cpp). A stage
// reads what the earlier ones wrote and adds its own part, as MuJoCo's mj_fwd* stages do with
// mjData.

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <utility>
#include <vector>

#include "pivot/collision/contact.hpp"
#include "pivot/core/spatial.hpp"
#include "pivot/engine/force_gradient.hpp"
#include "pivot/engine/forces.hpp"

namespace pivot::detail {

struct StepContext {
  double h = 0.0;  ///< the time step, s
  /// α of Baumgarte's rows, 1/s: baumgarte_rate(settings), min(baumgarte_alpha, 1/h)
  double baumgarte_alpha = 0.0;
  int n = 0;  ///< bodies

  // forces (compute_forces)
  Eigen::VectorXd f;      ///< all wrenches at (p_t, v_t, t), 6 per body; f̃ after gradients
  Eigen::VectorXd f_ext;  ///< the external forces alone (for reduced pairs)
  Triplets dfdp, dfdv;    ///< force gradients for the linearly implicit step
  std::vector<std::pair<int, int>> couplings;  ///< bodies coupled by forces with gradients
  ForceGradient gradient;                      ///< −h²∇ₚf − h∇ᵥf
  /// each body's world inertia R I_B Rᵀ (RigidBody::inertia_W; zero for fixed bodies) at the
  /// orientation beside it (Quat::coeffs), computed once for the forces, the islands' M̃ and
  /// their momenta (solve_islands recomputes those of bodies turned since, e.g. a hybrid entry)
  std::vector<Mat3> inertia_W;
  std::vector<Eigen::Vector4d> inertia_q;

  // contacts (add_step_contacts)
  std::vector<Contact> contacts;  ///< at p_t, without those of reduced pairs
  int first_contact_row = 0;      ///< the contacts' first row in ConstraintSet::unilaterals
  int first_cone = 0;             ///< and their first cone

  // island solves (solve_islands)
  Eigen::VectorXd v_new;               ///< v⁺, 6 per body
  std::vector<double> contact_lambda;  ///< λ_n per contact
  std::vector<Vec3> contact_tangent;   ///< friction impulse per contact, world

  /// ready for a step of n bodies at time step h: the lists emptied, their memory kept
  void begin(double time_step, int bodies) {
    h = time_step;
    n = bodies;
    dfdp.clear();
    dfdv.clear();
    couplings.clear();
    contacts.clear();
    first_contact_row = 0;
    first_cone = 0;
  }
};

}  // namespace pivot::detail
