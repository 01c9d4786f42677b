#pragma once
// The mixed LCP of one island, assembled sparse and solved by the lcp module.
//
// Unknowns x = (v⁺, λ_e) free, z = (λ_u, λ_f, λ_m⁺, λ_m⁻, γ_c, γ_m) ≥ 0. With G the rows acting
// on velocities (unilateral J_u, friction D, motor ±J_m):
//
//   P = [ M̃    −J_eᵀ ]    Q = [ −G_zᵀ ]    u = [ −r     ]     (r = M v + h f̃ for dynamics,
//       [ J_e    0   ]        [   0   ]        [ bias_e ]      r = 0 for post-stabilization)
//   K = [ G_w  0 ],  S = the E / μ blocks of Cline eq. 2.49 (and the motor's), v = the biases
//
// i.e. Cline 2002 eq. 2.49 (eq. 2.55 with M̃ for the linearly implicit step, eq. 3.7 for the
// post-step), reduced to a pure LCP by a sparse factorization of P (§4.8.2).

#include <Eigen/SparseCore>
#include <functional>
#include <string>
#include <vector>

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/failed_lcp.hpp"
#include "pivot/lcp/lcp_problem.hpp"
#include "pivot/lcp/lcp_result.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/mixed_lcp.hpp"

namespace pivot::detail {

/// a body's 6 × 6 block of M̃ when it is the rigid body's own, blockdiag(I_W, m 1)
struct RigidMassBlock {
  Mat3 I_W = Mat3::Zero();  ///< the world inertia R I_B Rᵀ
  double m = 0.0;           ///< the mass
};

struct IslandInput {
  std::vector<int> bodies;       ///< dynamic bodies, global indices; local order = this order
  std::vector<int> equalities;   ///< indices into ConstraintSet::equalities
  std::vector<int> unilaterals;  ///< indices into ConstraintSet::unilaterals
  std::vector<int> cones;        ///< indices into ConstraintSet::cones
  std::vector<int> motors;       ///< indices into ConstraintSet::motors
  Eigen::SparseMatrix<double> M_tilde;  ///< 6nb × 6nb (M, or M − h²∇ₚf − h∇ᵥf)
  /// each body's block of M̃, by local index, when M̃ is the bodies' mass blocks alone (no
  /// force's gradient reaches the island): the numbers of M_tilde, read without parsing it
  /// (island_mass writes both); empty when M̃ has another form or was written without it
  std::vector<RigidMassBlock> mass_blocks;
  Eigen::VectorXd momentum;  ///< r, 6nb
};

/// The island's own retry policy, around the LCP solver's (lcp/solve_policy.hpp), in order:
///   direct               the mixed LCP as assembled;
///   regularized_joints   when the joint block P is singular (redundant or conflicting joints,
///                        reported in singular_equalities): slightly compliant joint rows,
///                        J v + δ λ = 0 with δ = 1e-8 (J M̃⁻¹ Jᵀ)ᵢᵢ, solved again;
///   copositive_fallback  when the LCP still fails: the complementarity block made strictly
///                        copositive, S + εI with ε = 1e-8 of its scale, which Lemke always
///                        solves (a slightly compliant answer, reported as `fallback`); if even
///                        that fails the caller keeps the old velocities.
enum class IslandLayer { direct, regularized_joints, copositive_fallback };

/// wall time of an island's solve by part, s (StepStage: assembly, reduction, lemke,
/// verification)
struct IslandTimes {
  double assembly = 0.0;
  double reduction = 0.0;
  double lemke = 0.0;
  double verification = 0.0;
  /// an LCP solve's time: its residual checks are verification, the rest Lemke
  void add_lcp(const lcp::LcpResult& r) {
    lemke += r.seconds - r.check_seconds;
    verification += r.check_seconds;
  }
};

/// LCP answers kept from step to step for the reusing solve_lemke (lemke.hpp), one per problem
/// size: a result keeps its vectors' storage only while its size stays (an Eigen vector
/// reallocates whenever its size changes), and the solves that one thread runs in a step (an
/// island's velocities, then its post-step) have different sizes
class LcpResultsBySize {
 public:
  /// the result kept for problems of n rows
  lcp::LcpResult& of_size(Eigen::Index n) {
    const auto slot = static_cast<std::size_t>(n);
    if (slots_.size() <= slot) slots_.resize(slot + 1);
    return slots_[slot];
  }

 private:
  std::vector<lcp::LcpResult> slots_;
};

struct IslandOutput {
  Eigen::VectorXd velocity;                  ///< v⁺ (or dp), 6nb, local order
  Eigen::VectorXd lambda_eq;                 ///< per island equality row
  Eigen::VectorXd lambda_uni;                ///< per island unilateral row
  std::vector<Eigen::VectorXd> lambda_cone;  ///< per island cone: one impulse per direction
  Eigen::VectorXd lambda_motor;              ///< net motor impulse λ⁺ − λ⁻ per island motor
  lcp::LcpStatus status = lcp::LcpStatus::solved;
  int pivots = 0;
  int lcp_size = 0;                      ///< complementarity variables
  std::vector<int> singular_equalities;  ///< island-local equality rows found dependent
  bool regularized = false;              ///< the joint block needed regularization
  bool fallback = false;                 ///< the LCP failed and the documented fallback was used
  /// with `fallback`: how the LCP failed before it (ray_termination: no feasible answer, e.g. a
  /// body squeezed by kinematic or fixed bodies past contact)
  lcp::LcpStatus failed_status = lcp::LcpStatus::solved;
  IslandLayer layer = IslandLayer::direct;  ///< the last layer of the island policy that ran
  bool warm_started = false;    ///< the warm start (the previous active set) was accepted
  std::vector<int> active_set;  ///< of the reduced LCP, for the next step's warm start
  std::string message;
  IslandTimes times;

  /// the outcome of an answer the first layer gave as assembled (no dependent rows, no
  /// regularization, no fallback, no message), in this output's own memory
  void set_direct_answer() {
    singular_equalities.clear();
    regularized = false;
    fallback = false;
    failed_status = lcp::LcpStatus::solved;
    layer = IslandLayer::direct;
    message.clear();
  }
};

/// assemble and solve; never returns non-finite velocities (see the fallback in the .cpp).
/// With `record`, the assembled mixed LCP is copied there before it is solved; `on_failed` is
/// called when the LCP fails, before the fallback layer (WorldSettings::on_failed_lcp).
[[nodiscard]] IslandOutput solve_island(const ConstraintSet& rows, const IslandInput& in,
                                        const lcp::LemkeOptions& lemke,
                                        lcp::SparseMixedLcpProblem* record = nullptr,
                                        const FailedLcpCallback& on_failed = {});

}  // namespace pivot::detail
