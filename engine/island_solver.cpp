#include "pivot/engine/island_solver.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <unordered_map>

#include "pivot/lcp/mixed_lcp.hpp"

namespace pivot {
namespace {

using Triplets = std::vector<Eigen::Triplet<double>>;

// column offsets of the complementarity variables z
struct Layout {
  int nu = 0, nf = 0, nm = 0, nc = 0;
  int f0 = 0, mp0 = 0, mm0 = 0, gc0 = 0, gm0 = 0, m = 0;
};

class Assembler {
 public:
  Assembler(const ConstraintSet& rows, const IslandInput& in) : rows_(rows), in_(in) {
    for (std::size_t i = 0; i < in.bodies.size(); ++i) local_[in.bodies[i]] = static_cast<int>(i);
    for (std::size_t i = 0; i < in.unilaterals.size(); ++i)
      local_uni_[in.unilaterals[i]] = static_cast<int>(i);
    nv_ = 6 * static_cast<int>(in.bodies.size());
    ne_ = static_cast<int>(in.equalities.size());
    L_.nu = static_cast<int>(in.unilaterals.size());
    for (int c : in.cones) L_.nf += static_cast<int>(rows.cones[c].directions.size());
    L_.nm = static_cast<int>(in.motors.size());
    L_.nc = static_cast<int>(in.cones.size());
    L_.f0 = L_.nu;
    L_.mp0 = L_.f0 + L_.nf;
    L_.mm0 = L_.mp0 + L_.nm;
    L_.gc0 = L_.mm0 + L_.nm;
    L_.gm0 = L_.gc0 + L_.nc;
    L_.m = L_.gm0 + L_.nm;
  }

  const Layout& layout() const { return L_; }
  int nv() const { return nv_; }
  int ne() const { return ne_; }

  lcp::SparseMixedLcpProblem build() const {
    const int n = nv_ + ne_, m = L_.m;
    Triplets P, Q, K, S;
    // P = [M̃, −J_eᵀ; J_e, 0]
    for (int k = 0; k < in_.M_tilde.outerSize(); ++k)
      for (Eigen::SparseMatrix<double>::InnerIterator it(in_.M_tilde, k); it; ++it)
        P.emplace_back(static_cast<int>(it.row()), static_cast<int>(it.col()), it.value());
    for (int e = 0; e < ne_; ++e) {
      for_each_entry(rows_.equalities[in_.equalities[e]], [&](int col, double value) {
        P.emplace_back(nv_ + e, col, value);
        P.emplace_back(col, nv_ + e, -value);
      });
    }
    // G rows: velocity rows of the complementarity variables, in Q (as −Gᵀ) and K
    auto add_g_row = [&](int zrow, const RowRef& r, double sign) {
      for_each_entry(r, [&](int col, double value) {
        Q.emplace_back(col, zrow, -sign * value);
        K.emplace_back(zrow, col, sign * value);
      });
    };
    Eigen::VectorXd v = Eigen::VectorXd::Zero(m);
    for (int i = 0; i < L_.nu; ++i) {
      const UnilateralRow& r = rows_.unilaterals[in_.unilaterals[i]];
      add_g_row(i, r, 1.0);
      v(i) = r.bias;
    }
    int f = L_.f0;
    for (int c = 0; c < L_.nc; ++c) {
      const FrictionCone& cone = rows_.cones[in_.cones[c]];
      const int gamma = L_.gc0 + c;
      S.emplace_back(gamma, local_uni_.at(cone.normal_row), cone.mu);  // ζ = μ λ_n − Eᵀλ_f
      for (const RowRef& d : cone.directions) {
        add_g_row(f, d, 1.0);
        S.emplace_back(f, gamma, 1.0);  // σ = D v + E γ
        S.emplace_back(gamma, f, -1.0);
        ++f;
      }
    }
    for (int i = 0; i < L_.nm; ++i) {
      const MotorConstraint& mo = rows_.motors[in_.motors[i]];
      const int plus = L_.mp0 + i, minus = L_.mm0 + i, gamma = L_.gm0 + i;
      add_g_row(plus, mo, 1.0);
      add_g_row(minus, mo, -1.0);
      S.emplace_back(plus, gamma, 1.0);
      S.emplace_back(minus, gamma, 1.0);
      S.emplace_back(gamma, plus, -1.0);
      S.emplace_back(gamma, minus, -1.0);
      v(plus) = -mo.target;
      v(minus) = mo.target;
      v(gamma) = mo.max_impulse;
    }
    lcp::SparseMixedLcpProblem p;
    p.P = sparse(n, n, P);
    p.Q = sparse(n, m, Q);
    p.K = sparse(m, n, K);
    p.S = sparse(m, m, S);
    p.u = Eigen::VectorXd::Zero(n);
    p.u.head(nv_) = -in_.momentum;
    for (int e = 0; e < ne_; ++e) p.u(nv_ + e) = rows_.equalities[in_.equalities[e]].bias;
    p.v = v;
    return p;
  }

  // an estimate of J M̃⁻¹ Jᵀ's diagonal for the equality rows, from M̃'s diagonal: the scale of
  // the regularization of a singular joint block
  Eigen::VectorXd equality_regularization(double relative) const {
    Eigen::VectorXd reg = Eigen::VectorXd::Zero(nv_ + ne_);
    const Eigen::VectorXd diag = in_.M_tilde.diagonal();
    for (int e = 0; e < ne_; ++e) {
      double s = 0.0;
      for_each_entry(rows_.equalities[in_.equalities[e]],
                     [&](int col, double value) { s += value * value / diag(col); });
      reg(nv_ + e) = relative * std::max(s, 1e-300);
    }
    return reg;
  }

 private:
  template <typename F>
  void for_each_entry(const RowRef& r, F&& f) const {
    auto body = [&](int b, const Row6& J) {
      auto it = local_.find(b);
      if (b < 0 || it == local_.end()) return;
      for (int k = 0; k < 6; ++k)
        if (J(k) != 0.0) f(6 * it->second + k, J(k));
    };
    body(r.body_a, r.J_A);
    body(r.body_b, r.J_B);
  }

  static Eigen::SparseMatrix<double> sparse(int rows, int cols, const Triplets& t) {
    Eigen::SparseMatrix<double> s(rows, cols);
    s.setFromTriplets(t.begin(), t.end());
    s.makeCompressed();
    return s;
  }

  const ConstraintSet& rows_;
  const IslandInput& in_;
  std::unordered_map<int, int> local_, local_uni_;
  int nv_ = 0, ne_ = 0;
  Layout L_;
};

}  // namespace

IslandOutput solve_island(const ConstraintSet& rows, const IslandInput& in,
                          const lcp::LemkeOptions& lemke, lcp::SparseMixedLcpProblem* record,
                          const FailedLcpCallback& on_failed) {
  Assembler assembler(rows, in);
  const Layout& L = assembler.layout();
  const int nv = assembler.nv(), ne = assembler.ne();
  IslandOutput out;
  out.lcp_size = L.m;

  lcp::SparseMixedLcpProblem problem = assembler.build();
  if (record) *record = problem;
  lcp::MixedLcpOptions options;
  options.lemke = lemke;
  // layer 1 (IslandLayer::direct): the mixed LCP as assembled
  lcp::MixedLcpResult result = lcp::solve_mixed_lcp(problem, options);
  out.layer = IslandLayer::direct;
  if (!result.singular_rows.empty()) {
    // layer 2 (IslandLayer::regularized_joints)
    // redundant or conflicting joints: report them, and go on with slightly compliant joint
    // rows, J v + δ λ = 0 with δ = 1e-8 (J M̃⁻¹ Jᵀ)ᵢᵢ
    for (int r : result.singular_rows)
      if (r >= nv) out.singular_equalities.push_back(r - nv);
    options.regularization = assembler.equality_regularization(1e-8);
    result = lcp::solve_mixed_lcp(problem, options);
    out.regularized = true;
    out.layer = IslandLayer::regularized_joints;
  }
  out.pivots = result.lcp.pivots;
  if (!result.ok() || !result.x.allFinite()) {
    if (on_failed) on_failed(FailedLcp{problem, options, result});
    // layer 3 (IslandLayer::copositive_fallback): make the complementarity block strictly
    // copositive, S + εI with ε = 1e-8 of its scale, which Lemke always solves; if even that fails
    // the caller keeps the old velocities
    out.message = result.lcp.message;
    const double scale = std::max(1.0, problem.S.cwiseAbs().sum() / std::max(1, L.m));
    for (int i = 0; i < L.m; ++i) problem.S.coeffRef(i, i) += 1e-8 * scale;
    const lcp::MixedLcpResult retry = lcp::solve_mixed_lcp(problem, options);
    out.fallback = true;
    out.layer = IslandLayer::copositive_fallback;
    out.pivots += retry.lcp.pivots;
    if (!retry.ok() || !retry.x.allFinite()) {
      out.status = result.lcp.status;
      return out;
    }
    result = retry;
  }
  out.status = lcp::LcpStatus::solved;
  out.warm_started = result.lcp.path == lcp::StartPath::warm_start;
  out.active_set = result.lcp.active_set;
  out.velocity = result.x.head(nv);
  out.lambda_eq = result.x.tail(ne);
  const Eigen::VectorXd& z = result.lcp.z;
  out.lambda_uni = z.head(L.nu);
  int f = L.f0;
  for (int c = 0; c < L.nc; ++c) {
    const auto k = static_cast<int>(rows.cones[in.cones[c]].directions.size());
    out.lambda_cone.push_back(z.segment(f, k));
    f += k;
  }
  out.lambda_motor = z.segment(L.mp0, L.nm) - z.segment(L.mm0, L.nm);
  return out;
}

}  // namespace pivot
