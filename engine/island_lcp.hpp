#pragma once
// The entries of one island's mixed LCP (internal), written once for both of its solvers: the
// general path stores them sparse (island_solver.cpp), the small-island path dense
// (small_island.cpp). The problem is island_solver.hpp's:
//
//   P = [ M̃    −J_eᵀ ]    Q = [ −Gᵀ ]    u = [ −r  ]     K = [ G  0 ],  S, v = the biases
//       [ J_e    0   ]        [  0  ]        [ b_e ]
//
// with z = (λ_u, λ_f, λ_m⁺, λ_m⁻, γ_c, γ_m) in that order (IslandLayout) and G the rows of z
// acting on velocities (unilateral J_u, friction D, motor ±J_m): Cline 2002 eq. 2.48–2.49.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <vector>

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/lcp/lcp_result.hpp"

namespace pivot::detail {

/// offsets of the complementarity variables z
struct IslandLayout {
  int nu = 0, nf = 0, nm = 0, nc = 0;
  int f0 = 0, mp0 = 0, mm0 = 0, gc0 = 0, gm0 = 0, m = 0;
};

class IslandLcp {
 public:
  IslandLcp(const ConstraintSet& rows, const IslandInput& in);

  [[nodiscard]] const IslandLayout& layout() const { return L_; }
  [[nodiscard]] int nv() const { return nv_; }  ///< velocities, 6 per body
  [[nodiscard]] int ne() const { return ne_; }  ///< equality rows

  /// every entry of the problem but M̃ (read from IslandInput::M_tilde by the caller):
  ///   sink.J(e, col, value)      J_e(e, col): P(nv + e, col) = value, P(col, nv + e) = −value
  ///   sink.G(row, col, value)    G(row, col): K(row, col) = value, Q(col, row) = −value
  ///   sink.S(row, col, value)    S(row, col) (entries may repeat: they add up)
  ///   sink.b(e, value)           u(nv + e) = b_e
  ///   sink.v(row, value)         v(row)
  template <typename Sink>
  void emit(Sink& sink) const;

  /// an estimate of J M̃⁻¹ Jᵀ's diagonal for the equality rows, from M̃'s diagonal: the scale of
  /// the regularization of a singular joint block (size nv + ne, zero on the velocities)
  [[nodiscard]] Eigen::VectorXd equality_regularization(double relative) const;

  /// the answer of the island from x = (v⁺, λ_e) and the solved reduced LCP's z (status
  /// solved, its pivots, path and active set)
  [[nodiscard]] IslandOutput output(const Eigen::VectorXd& x, const lcp::LcpResult& lcp) const;

  /// the same written over `out`, every field of it, in its own memory where the sizes allow
  void output(const Eigen::VectorXd& x, const lcp::LcpResult& lcp, IslandOutput& out) const;

 private:
  template <typename F>
  void for_each_entry(const RowRef& r, F&& f) const {
    auto body = [&](int b, const Row6& J) {
      const int i = b < 0 ? -1 : local_body(b);
      if (i < 0) return;
      for (int k = 0; k < 6; ++k)
        if (J(k) != 0.0) f(6 * i + k, J(k));
    };
    body(r.body_a, r.J_A);
    body(r.body_b, r.J_B);
  }

  // the island-local index of a global body or unilateral row, −1 when it is not the island's:
  // a binary search in the island's lists, which split_islands writes in ascending order (no
  // allocation a step); a map only for lists given in another order
  [[nodiscard]] int local_body(int body) const { return local_index(in_.bodies, local_, body); }
  [[nodiscard]] int local_unilateral(int row) const {
    return local_index(in_.unilaterals, local_uni_, row);
  }
  [[nodiscard]] static int local_index(const std::vector<int>& sorted,
                                       const std::unordered_map<int, int>& map, int global) {
    if (!map.empty()) {
      const auto it = map.find(global);
      return it == map.end() ? -1 : it->second;
    }
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), global);
    return it != sorted.end() && *it == global ? static_cast<int>(it - sorted.begin()) : -1;
  }

  const ConstraintSet& rows_;
  const IslandInput& in_;
  std::unordered_map<int, int> local_, local_uni_;  ///< only for unsorted lists
  int nv_ = 0, ne_ = 0;
  IslandLayout L_;
};

template <typename Sink>
void IslandLcp::emit(Sink& sink) const {
  for (int e = 0; e < ne_; ++e) {
    const EqualityRow& row = rows_.equalities[in_.equalities[e]];
    for_each_entry(row, [&](int col, double value) { sink.J(e, col, value); });
    sink.b(e, row.bias);
  }
  auto g_row = [&](int z, const RowRef& r, double sign) {
    for_each_entry(r, [&](int col, double value) { sink.G(z, col, sign * value); });
  };
  for (int i = 0; i < L_.nu; ++i) {
    const UnilateralRow& r = rows_.unilaterals[in_.unilaterals[i]];
    g_row(i, r, 1.0);
    sink.v(i, r.bias);
  }
  int f = L_.f0;
  for (int c = 0; c < L_.nc; ++c) {
    const FrictionCone& cone = rows_.cones[in_.cones[c]];
    const int gamma = L_.gc0 + c;
    sink.S(gamma, local_unilateral(cone.normal_row), cone.mu);  // ζ = μ λ_n − Eᵀλ_f
    for (std::size_t j = 0; j < cone.directions.size(); ++j) {
      const RowRef& d = cone.directions[j];
      g_row(f, d, 1.0);
      if (!cone.direction_bias.empty()) sink.v(f, cone.direction_bias[j]);
      sink.S(f, gamma, 1.0);  // σ = D v + E γ
      sink.S(gamma, f, -1.0);
      ++f;
    }
  }
  for (int i = 0; i < L_.nm; ++i) {
    const MotorConstraint& mo = rows_.motors[in_.motors[i]];
    const int plus = L_.mp0 + i, minus = L_.mm0 + i, gamma = L_.gm0 + i;
    g_row(plus, mo, 1.0);
    g_row(minus, mo, -1.0);
    sink.v(plus, -mo.target);
    sink.v(minus, mo.target);
    if (std::isinf(mo.max_impulse)) {
      // unbounded (a joint's damping, a servo without effort limit): γ leaves the cone,
      // w_γ = γ ≥ 0 ⊥ γ ≥ 0 holds it at 0, and w± = ±(J v⁺ + c (λ⁺ − λ⁻) − target) ≥ 0 ⊥ λ±
      sink.S(gamma, gamma, 1.0);
    } else {
      sink.S(plus, gamma, 1.0);
      sink.S(minus, gamma, 1.0);
      sink.S(gamma, plus, -1.0);
      sink.S(gamma, minus, -1.0);
      sink.v(gamma, mo.max_impulse);
    }
    if (mo.compliance != 0.0) {  // w± = ±(J v⁺ + c (λ⁺ − λ⁻) − target) + γ
      sink.S(plus, plus, mo.compliance);
      sink.S(plus, minus, -mo.compliance);
      sink.S(minus, plus, -mo.compliance);
      sink.S(minus, minus, mo.compliance);
    }
  }
}

}  // namespace pivot::detail
