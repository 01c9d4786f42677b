#include "pivot/lcp/residual.hpp"

#include "pivot/lcp/matrix_access.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace pivot::lcp {
namespace {

/// how many times n ε ‖z‖∞ a basis solve's rounding of an entry of z is allowed to be: a 10-box
/// stack's degenerate friction-cone rows need 1–3 (docs/lcp.md, "Residuals"); 100 leaves room
constexpr double kZRoundingFactor = 100.0;

/// the interval z̃_j may take for a basis solve's rounding of z_j: within δ = C n ε ‖z‖∞ of
/// z_j (C = kZRoundingFactor) and ≥ 0 (a z_j of −4e-15 is rounding of a 0, never of −378)
struct ZBox {
  Vector lo, hi;
};
void rounding_box(const Vector& z, ZBox& box) {
  const double delta = kZRoundingFactor * static_cast<double>(z.size()) *
                       std::numeric_limits<double>::epsilon() * z.lpNorm<Eigen::Infinity>();
  box.lo.resize(z.size());
  box.hi.resize(z.size());
  for (Eigen::Index j = 0; j < z.size(); ++j) {
    box.lo(j) = std::max(0.0, z(j) - delta);
    box.hi(j) = std::max(0.0, z(j) + delta);
  }
}

/// The per-row sums over M's entries that the measures below need:
///   w = M z + q;  abs_row_i = Σ_j |M_ij|;  abs_terms_i = |q_i| + Σ_j |M_ij z_j|;
///   [lower_i, upper_i] = q_i + Σ_j M_ij [z̃_j] over the rounding box (each term moves by |M_ij|
///   times what z_j may move, so a tiny coefficient moves its term by a tiny amount);
///   witness_i = q_i + Σ_j M_ij max(z_j, 0), magnitude_i = |q_i| + Σ_j max|M_ij z̃_j| over the box.
/// For a dense M, w and the absolute sums come from Eigen's products and the rest from one pass.
/// For a sparse M everything comes from one pass over its entries, which sums each row in the
/// order Eigen's sparse products do (w from 0 then + q, abs_terms from |q|: the same bits): six
/// passes were a third of a resting 13-level pyramid's step.
struct RowSums {
  Vector w, abs_row, abs_terms, lower, upper, witness, magnitude;
};

template <typename Matrix>
void add_box_sums(const Matrix& M, const Vector& z, const ZBox& box, RowSums& s) {
  detail::access::for_each_nonzero(M, [&](Eigen::Index i, Eigen::Index j, double m) {
    const double lo = m * box.lo(j), hi = m * box.hi(j);
    s.lower(i) += std::min(lo, hi);
    s.upper(i) += std::max(lo, hi);
    s.witness(i) += m * std::max(z(j), 0.0);
    s.magnitude(i) += std::max(std::abs(lo), std::abs(hi));
  });
}

void init_box_sums(const Vector& q, RowSums& s) {
  s.lower = q;
  s.upper = q;
  s.witness = q;
  s.magnitude = q.cwiseAbs();
}

// (into s's vectors, kept from call to call: each product straight into its vector, with no
// temporary, by the same operations in the same order as the expressions w = M z + q (the
// product alone, then q added), abs_row = |M| 1 and abs_terms = |q| + |M| |z| (|q|, then the
// product added: Eigen's own order for "other + product"))
void row_sums(const DenseMatrix& M, const Vector& q, const Vector& z, const ZBox& box, RowSums& s) {
  const Eigen::Index n = q.size();
  s.w.resize(n);
  s.w.noalias() = M * z;
  s.w += q;
  s.abs_row.resize(n);
  s.abs_row.noalias() = M.cwiseAbs() * Vector::Ones(n);
  s.abs_terms.resize(n);
  s.abs_terms.noalias() = q.cwiseAbs() + M.cwiseAbs() * z.cwiseAbs();
  init_box_sums(q, s);
  add_box_sums(M, z, box, s);
}

void row_sums(const SparseMatrix& M, const Vector& q, const Vector& z, const ZBox& box,
              RowSums& s) {
  // One record per row, so that an entry's seven sums share a cache line (seven separate
  // vectors took seven scattered writes per entry); the same sums in the same order as before,
  // so the same bits.
  struct Sums {
    double w, abs_row, abs_terms, lower, upper, witness, magnitude, unused;
  };
  const Eigen::Index n = q.size();
  thread_local std::vector<Sums> rows;
  rows.resize(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) {
    const double qi = q(i), abs_qi = std::abs(q(i));
    rows[static_cast<std::size_t>(i)] = {0.0, 0.0, abs_qi, qi, qi, qi, abs_qi, 0.0};
  }
  for (Eigen::Index j = 0; j < M.outerSize(); ++j) {
    const double zj = z(j), abs_zj = std::abs(zj), zj_plus = std::max(zj, 0.0);
    const double box_lo = box.lo(j), box_hi = box.hi(j);
    for (SparseMatrix::InnerIterator it(M, j); it; ++it) {
      Sums& r = rows[static_cast<std::size_t>(it.index())];
      const double m = it.value();
      r.w += m * zj;
      r.abs_row += std::abs(m) * 1.0;
      r.abs_terms += std::abs(m) * abs_zj;
      if (m == 0.0) continue;  // for_each_nonzero's rule: stored zeros move no bound
      const double lo = m * box_lo, hi = m * box_hi;
      r.lower += std::min(lo, hi);
      r.upper += std::max(lo, hi);
      r.witness += m * zj_plus;
      r.magnitude += std::max(std::abs(lo), std::abs(hi));
    }
  }
  for (Vector* v : {&s.w, &s.abs_row, &s.abs_terms, &s.lower, &s.upper, &s.witness, &s.magnitude})
    v->resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Sums& r = rows[static_cast<std::size_t>(i)];
    s.w(i) = r.w + q(i);
    s.abs_row(i) = r.abs_row;
    s.abs_terms(i) = r.abs_terms;
    s.lower(i) = r.lower;
    s.upper(i) = r.upper;
    s.witness(i) = r.witness;
    s.magnitude(i) = r.magnitude;
  }
}

/// For each row, 1 when some w̃_i = q_i + Σ_j M_ij z̃_j is 0 with every z̃_j in the rounding box
/// of z_j, else 0
void zero_reachable(const RowSums& s, Vector& reach) {
  reach.resize(s.lower.size());
  for (Eigen::Index i = 0; i < reach.size(); ++i)
    reach(i) = (s.lower(i) <= 0.0 && s.upper(i) >= 0.0) ? 1.0 : 0.0;
}

/// true when ONE z̃ in the rounding box can make every row of `judged` what judging it 0
/// claims: w̃_i = 0 where z_i cannot be 0 (z̃_i's interval excludes 0: complementarity needs
/// w_i = 0), w̃_i ≥ 0 where it can. zero_reachable asks this row by row, and each row may pick
/// its own z̃: beside z entries of 1e20 (δ ≈ 1.3e7), rows w₁ = 0.996 z₀ and w₃ = 0.1016 z₀ − 100
/// both passed with z₀ = 1184, the first needing z̃₀ = 0 and the second z̃₀ = 984.6 (a false
/// `solved` found by the lemke fuzz target,
/// tests/fuzz/regressions/lemke/false_solved_rows_disagree_on_a_rounding_level_z).
/// Bound propagation, as in an LP presolve: each judged row tightens the interval of each of its
/// z̃_j from the others' intervals, for a few rounds; an empty interval proves that no single z̃
/// exists. It is a relaxation: it can miss an inconsistency that needs more rounds (then the
/// answer passes as the row-by-row check passed it), never invents one beyond the slack of
/// C n ε times the row's magnitude that keeps rounding in the sums from emptying an interval.
template <typename Matrix>
bool judged_rows_consistent(const Matrix& M, const Vector& q, const Vector& z, const ZBox& rounding,
                            const RowSums& sums, const std::vector<char>& judged) {
  struct Entry {
    Eigen::Index row, col;
    double m;
  };
  const double z_norm = z.lpNorm<Eigen::Infinity>();
  const double positive = kDefaultResidualTolerance * z_norm;
  const double slack_factor =
      kZRoundingFactor * static_cast<double>(q.size()) * std::numeric_limits<double>::epsilon();
  // The usual answer has its own witness: z̃ = max(z, 0) is in the box, and when it meets every
  // judged row within half of that row's slack (w̃_i ∈ [−s_i/2, upper_i + s_i/2], computed with
  // an error below s_i/50), it meets the widened rows the propagation below works with, which
  // never removes a point that meets them: the propagation would end with no interval empty,
  // so the answer is the same without it. One pass instead of up to four rounds over the
  // judged rows' entries (most of a 10-box stack's residual check).
  {
    const Vector& w_tilde = sums.witness;
    const Vector& magnitude = sums.magnitude;
    bool witnessed = true;
    for (Eigen::Index i = 0; i < q.size() && witnessed; ++i) {
      if (!judged[static_cast<std::size_t>(i)]) continue;
      const double half_slack = 0.5 * slack_factor * magnitude(i);
      const double upper =
          rounding.lo(i) > positive ? 0.0 : std::numeric_limits<double>::infinity();
      witnessed = w_tilde(i) >= -half_slack && w_tilde(i) <= upper + half_slack;
    }
    if (witnessed) return true;
  }
  ZBox box = rounding;  // the intervals the propagation tightens
  // the judged rows' entries ordered by (row, column): for_each_nonzero visits columns in
  // increasing order, so bucketing its visits by row (a counting sort, O(entries + n)) gives
  // that order; a comparison sort of a 240-row dense M's entries took 80 % of a 10-box stack's
  // step
  const std::size_t n = judged.size();
  std::vector<std::size_t> start(n + 1, 0);
  detail::access::for_each_nonzero(M, [&](Eigen::Index i, Eigen::Index, double) {
    if (judged[static_cast<std::size_t>(i)]) ++start[static_cast<std::size_t>(i) + 1];
  });
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  if (start[n] == 0) return true;
  std::vector<Entry> entries(start[n]);
  std::vector<std::size_t> fill(start.begin(), start.end() - 1);
  detail::access::for_each_nonzero(M, [&](Eigen::Index i, Eigen::Index j, double m) {
    const auto row = static_cast<std::size_t>(i);
    if (judged[row]) entries[fill[row]++] = {i, j, m};
  });
  constexpr int kRounds = 4;
  for (int round = 0; round < kRounds; ++round) {
    bool tightened = false;
    for (std::size_t begin = 0; begin < entries.size();) {
      const Eigen::Index i = entries[begin].row;
      std::size_t end = begin;
      // the row's activity range Σ_j M_ij z̃_j over the box, and its magnitude (for the slack)
      double act_lo = 0.0, act_hi = 0.0, magnitude = std::abs(q(i));
      for (; end < entries.size() && entries[end].row == i; ++end) {
        const Entry& e = entries[end];
        const double a = e.m * box.lo(e.col), b = e.m * box.hi(e.col);
        act_lo += std::min(a, b);
        act_hi += std::max(a, b);
        magnitude += std::max(std::abs(a), std::abs(b));
      }
      const double slack = slack_factor * magnitude;
      // w̃_i = 0 when z̃_i is surely not 0 (above the default tolerance's share of ‖z‖∞, where
      // the complementarity measure needs w_i = 0), else w̃_i ≥ 0: q_i + Σ M_ij z̃_j ∈ [0, upper]
      const double upper = box.lo(i) > positive ? 0.0 : std::numeric_limits<double>::infinity();
      for (std::size_t k = begin; k < end; ++k) {
        const Entry& e = entries[k];
        const double a = e.m * box.lo(e.col), b = e.m * box.hi(e.col);
        // M_ij z̃_j ∈ [−q_i − (rest's upper), upper − q_i − (rest's lower)], widened by the slack
        const double rest_lo = act_lo - std::min(a, b), rest_hi = act_hi - std::max(a, b);
        const double term_lo = -q(i) - rest_hi - slack;
        const double term_hi = upper - q(i) - rest_lo + slack;
        double new_lo = e.m > 0.0 ? term_lo / e.m : term_hi / e.m;
        double new_hi = e.m > 0.0 ? term_hi / e.m : term_lo / e.m;
        if (std::isfinite(new_lo) && new_lo > box.lo(e.col)) {
          box.lo(e.col) = new_lo;
          tightened = true;
        }
        if (std::isfinite(new_hi) && new_hi < box.hi(e.col)) {
          box.hi(e.col) = new_hi;
          tightened = true;
        }
        if (box.lo(e.col) > box.hi(e.col)) return false;
      }
      begin = end;
    }
    if (!tightened) break;
  }
  return true;
}

/// a / s for a measure relative to its scale s ≥ 0; 0 when a is 0 (0/0 counts as 0). A nonzero
/// a over s = 0 (a w_i whose terms all underflowed) is ±∞: nothing can be said of it
double quotient(double a, double s) {
  if (a == 0.0) return 0.0;
  return a / s;
}

template <typename Matrix>
LcpResiduals measure(const Matrix& M, const Vector& q, const Vector& z, Vector* w_out) {
  LcpResiduals r;
  const Eigen::Index n = q.size();
  // the check's vectors, kept from call to call on this thread: a check of the same size as the
  // previous one allocates nothing
  struct Workspace {
    ZBox box;
    RowSums sums;
    Vector reach, w_judged;
    std::vector<char> judged;
  };
  thread_local Workspace work;
  ZBox& box = work.box;
  RowSums& sums = work.sums;
  // (the box needs a finite z; a non-finite one goes to the branch below with w = M z + q)
  const bool z_finite = z.allFinite();
  if (n > 0 && z_finite) {
    rounding_box(z, box);
    row_sums(M, q, z, box, sums);
  } else if (n > 0) {
    sums.w = M * z + q;
  } else {
    sums.w.resize(0);
  }
  Vector& w = sums.w;
  if (n > 0 && !(z_finite && w.allFinite())) {
    // a z or w that is not finite solves nothing: every comparison with a NaN is false, so it
    // must not reach the measures below (a NaN z from a singular warm basis was judged
    // `solved`: tests/fuzz/regressions/lemke/nan_z_from_singular_warm_basis)
    constexpr double inf = std::numeric_limits<double>::infinity();
    r.min_z = -inf;
    r.min_w = -inf;
    r.max_complementarity = inf;
  } else if (n > 0) {
    // The scales are the data's own, never floored at the smallest normal number: beside a
    // subnormal problem (M = 1e-320 I, q = -1e-320 1) such a floor made every relative measure
    // tiny, and z = (0, 1), which leaves w_0 = -1e-320 = -100 % of its row, passed as solved.
    // A scale of 0 goes with a measure of 0 (0/0 counts as 0): below, quotient().
    const double z_scale = z.lpNorm<Eigen::Infinity>();
    // What z's rounding (δ = C n ε ‖z‖∞, rounding_box) can make of w, max_i Σ_j |M_ij| δ, as a
    // share of ‖q‖∞. When it is not small, w says nothing about q: any w_i is within rounding of
    // 0 and z_i ≪ ‖z‖∞ counts as 0 beside any w_i. Lemke's path ran out along near-rays of LCPs
    // with no solution to z of 6e18, where w₀ = 0.61 z₁ − 5600 (z₁ forced to 0 by
    // w₁ = 0.57 z₁ + 12500) was judged 0 within the noise floor
    // (tests/fuzz/regressions/lemke/false_solved_floor_above_data), and to z of 9e16, where
    // z₁ = 934.6 counted as 0 beside w₁ = 5.47 although w₀ = 0.609 z₁ − 569.5 needs z₁ ≥ 935
    // (…/false_solved_z_relative_complementarity_1e17). Both are refused by this one rule.
    const double delta = kZRoundingFactor * static_cast<double>(n) *
                         std::numeric_limits<double>::epsilon() * z.lpNorm<Eigen::Infinity>();
    const double rounding_in_w = delta * sums.abs_row.maxCoeff();
    const double q_norm = q.lpNorm<Eigen::Infinity>();
    r.rounding_share = rounding_in_w == 0.0 ? 0.0
                       : q_norm > 0.0       ? rounding_in_w / q_norm
                                            : std::numeric_limits<double>::infinity();
    // the scale of each w_i: |q_i| + Σ_j |M_ij z_j|, what its rounding error is relative to
    const Vector& w_scale = sums.abs_terms;
    // the noise floor η = n ε max(‖q‖∞, max_i (|M| |z|)_i): a w_i within it counts as 0. A row
    // whose terms cancel exactly (a friction-cone row μ λ_n − Σ λ_f of a degenerate contact) comes
    // out as ±(the rounding of z, amplified by the basis' condition), which is nothing next to the
    // problem's scale but everything next to the row's own vanishing scale. The problem's scale
    // is the largest row magnitude that really occurs, not the bound ‖M‖∞ ‖z‖∞: a huge z_j in a
    // column of M that is zero (a free direction of the LCP) contributes to no w_i, and with the
    // bound it made η large enough to hide a w_i of −8971 (a false `solved` found by the lemke
    // fuzz target, tests/fuzz/regressions/lemke/false_solved_huge_z_in_zero_column).
    const double eta = static_cast<double>(n) * std::numeric_limits<double>::epsilon() *
                       std::max(q.lpNorm<Eigen::Infinity>(), w_scale.maxCoeff());
    // Within the floor, a w_i counts as 0 only if rounding of z can make it 0 with z ≥ 0
    // (zero_reachable above).
    // A row whose sign the data fixes cannot be zero however loosely z is known: w₃ = 3480 +
    // 2.43 z₀ is ≥ 3480 for every z₀ ≥ 0, yet beside z entries of 7e19 (terms of 4.4e21 in other
    // rows, η ≈ 4.9e6) the floor alone judged it 0 with z₃ = 3.7e19, a false `solved` of an LCP
    // that has no solution (found by the lemke fuzz target,
    // tests/fuzz/regressions/lemke/false_solved_global_noise_floor). Rows whose terms cancel to
    // rounding, as above, reach 0: their terms have both signs, or rest on z entries at rounding
    // level that may shrink to 0. (An absolute floor cannot be exact: a row of q_i = −1e-13
    // beside terms of 1e3 elsewhere is judged on it, and an LCP that needs z_j ≥ 1e-13 and
    // z_j ≤ 0 at once may pass; scaling that row by 1e13 makes it fail.)
    // The rows judged 0 must also agree on one z̃ (judged_rows_consistent); when they cannot,
    // none is judged 0 and each is measured as it is.
    // All of this stands for rounding only while z's rounding moves w by little beside the
    // data: r.rounding_share above. Past kMaxRoundingShare the answer is refused whatever the
    // measures say (LcpResiduals::verifiable()), and no row is judged 0.
    Vector& reach = work.reach;
    zero_reachable(sums, reach);
    std::vector<char>& judged = work.judged;
    judged.assign(static_cast<std::size_t>(n), 0);
    for (Eigen::Index i = 0; i < n; ++i)
      judged[static_cast<std::size_t>(i)] =
          r.verifiable() && std::abs(w(i)) <= eta && reach(i) > 0.0;
    Vector& w_judged = work.w_judged;
    w_judged = w;
    if (judged_rows_consistent(M, q, z, box, sums, judged))
      for (Eigen::Index i = 0; i < n; ++i)
        if (judged[static_cast<std::size_t>(i)]) w_judged(i) = 0.0;
    // z_i's size for complementarity: its share of ‖z‖∞, or, when larger, the largest share it
    // has of a row's magnitude, max_k |M_ki z_i| / (|q_k| + Σ_j |M_kj z_j|) (≤ 1), which does not
    // change when rows or columns are scaled. Beside ‖z‖∞ alone, a z_i 10¹⁰ below the largest
    // counted as 0 although it made most of a row (z = (5.3e8, 0.053), w₂ = 1.2e-3 where w₂
    // had to be 0: a scaled copy of a P-matrix LCP, tests/lcp/test_equilibrate.cpp). A z_i
    // within the rounding box of a 0 (≤ δ) keeps its share of ‖z‖∞ (rounding is not a size), and
    // rows whose magnitude is within the noise floor η are no measure of anything. A negative z_i
    // is measured by the same size: against ‖z‖∞ alone, a z_i of −1e-10 ‖z‖∞ that was half of a
    // row passed (a column-scaled copy of lcp_inf_sol_perturbed, tests/lcp/test_equilibrate.cpp).
    // The share is read only for a z_i that is negative, or nonzero beside a w̃_i that is not 0
    // (elsewhere min(ζ_i, |w̃_i| / s_i) is 0 whatever ζ_i is, and a z_i of 0 is within the
    // rounding box): only those columns of M are visited. At rest almost every basic row is
    // judged 0, and a pass over all of M is a third of the check on a 20-cube stack.
    r.min_z = quotient(std::min(0.0, z.minCoeff()), z_scale);
    thread_local std::vector<double> row_share;
    row_share.assign(static_cast<std::size_t>(n), 0.0);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double zi = std::abs(z(i));
      if (zi <= delta || !(z(i) < 0.0 || w_judged(i) != 0.0)) continue;
      double& best = row_share[static_cast<std::size_t>(i)];
      detail::access::for_each_in_column(M, i, [&](Eigen::Index k, double m) {
        if (w_scale(k) <= eta) return;
        best = std::max(best, quotient(std::abs(m) * zi, w_scale(k)));
      });
    }
    for (Eigen::Index i = 0; i < n; ++i) {
      r.min_w = std::min(r.min_w, quotient(w_judged(i), w_scale(i)));
      const double z_size =
          std::max(quotient(std::abs(z(i)), z_scale), row_share[static_cast<std::size_t>(i)]);
      if (z(i) < 0.0) r.min_z = std::min(r.min_z, -z_size);
      r.max_complementarity = std::max(
          r.max_complementarity, std::min(z_size, quotient(std::abs(w_judged(i)), w_scale(i))));
    }
  }
  if (w_out) *w_out = w;
  return r;
}

std::string validate_shape(Eigen::Index rows, Eigen::Index cols, Eigen::Index q_size) {
  if (rows != cols) return fmt::format("M is not square ({} x {})", rows, cols);
  if (q_size != rows) return fmt::format("q has {} entries but M is {} x {}", q_size, rows, cols);
  return {};
}

std::string validate_q(const Vector& q) {
  for (Eigen::Index i = 0; i < q.size(); ++i)
    if (!std::isfinite(q(i))) return fmt::format("q({}) is not finite ({})", i, q(i));
  return {};
}

}  // namespace

LcpResiduals measure_residuals(const DenseMatrix& M, const Vector& q, const Vector& z,
                               Vector* w_out) {
  return measure(M, q, z, w_out);
}

LcpResiduals measure_residuals(const SparseMatrix& M, const Vector& q, const Vector& z,
                               Vector* w_out) {
  return measure(M, q, z, w_out);
}

std::string validate(const DenseMatrix& M, const Vector& q) {
  if (std::string why = validate_shape(M.rows(), M.cols(), q.size()); !why.empty()) return why;
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = 0; i < M.rows(); ++i)
      if (!std::isfinite(M(i, j)))
        return fmt::format("M({}, {}) is not finite ({})", i, j, M(i, j));
  return validate_q(q);
}

std::string validate(const SparseMatrix& M, const Vector& q) {
  if (std::string why = validate_shape(M.rows(), M.cols(), q.size()); !why.empty()) return why;
  for (Eigen::Index j = 0; j < M.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(M, j); it; ++it)
      if (!std::isfinite(it.value()))
        return fmt::format("M({}, {}) is not finite ({})", it.row(), j, it.value());
  return validate_q(q);
}

}  // namespace pivot::lcp
