// Fuzz target: Lemke's algorithm on small fuzzed LCPs (lcp/lemke.hpp, docs/reliability.md).
//
// The bytes decode to n ≤ 8, a kind of M, its entries, q (with a scale 10^−6 … 10^6 against M)
// and the storage (dense or sparse, optionally a warm start). Two oracles, both independent of
// the solver's own residual check:
//   1. an answer reported `solved` must solve the LCP: with w = M z + q recomputed here,
//        z_i ≥ −τ ‖z‖∞,   w_i ≥ −τ s_i,   min(|z_i| / ‖z‖∞, |w_i| / s_i) ≤ τ,
//      s_i = |q_i| + Σ_j |M_ij| (|z_j| + n ε ‖z‖∞) the scale of row i, τ = 1e-7 (looser than the
//      solver's 1e-9: only a wrong answer, not rounding, is a finding). The n ε ‖z‖∞ term is the
//      rounding level of z's entries: a z_j of 1e-30 beside a z_k of 70 is zero to rounding, and
//      in a row whose other terms vanish (q_i = 0) it must not count as the whole of w_i (the
//      first finding of this target, tests/fuzz/regressions/lemke/, was such a row: the answer
//      was right and the oracle too strict). Both the sign and complementarity allow w_i the
//      most z's rounding can make of it, Σ_j |M_ij| n ε ‖z‖∞, beside τ s_i: w₁ = 99.3 z₀ =
//      5.8e-15 beside z₁ = 366 with z₀ = 5.9e-17 (rounding level 4e-13), and w₂ = 0.1 z₁ =
//      −2.9e-15 with z₁ = −2.8e-14 beside z₀ = 1.7e6 (rounding level 1.9e-9), were refused at
//      τ s_i alone, and z with those entries 0 solves each LCP exactly (session 9's findings).
//      z's rounding is 100 n ε ‖z‖∞, a degenerate basis' forward error (docs/lcp.md). An answer
//      whose rounding in w passes 1e-3 ‖q‖∞ (the 1e18 answers) is judged by enumerating every
//      complementary basis instead: `solved` for an LCP with no solution is a finding. A z with
//      negative entries within τ ‖z‖∞ passes when z⁺ = max(z, 0) passes: it is then within τ of
//      an answer that solves the LCP;
//   2. on a P-matrix the LCP has exactly one solution for every q (Cottle, Pang & Stone 1992,
//      Thm 3.3.7) and Lemke's method finds it (Cline 2002 §2.7.1; Murty 1988 §2.3), so any other
//      status is a finding. Two P-matrix families: strictly diagonally dominant rows with a
//      positive diagonal, and AᵀA + I (symmetric positive definite), which solve_psd_lcp
//      (psd_lcp.hpp) must solve too, and which the crash start (LemkeOptions::crash_rows, a
//      fuzzed subset of the rows) starts from its active-set answer on a principal block.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "lcp/lcp_test_support.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/psd_lcp.hpp"

namespace {

using pivot::lcp::DenseMatrix;
using pivot::lcp::Vector;

enum class Kind { arbitrary, diagonally_dominant, gram_plus_identity };

/// whether the LCP has a solution, by enumerating the 2ⁿ complementary bases (n ≤ 8) with the
/// lcp tests' brute-force solver (tests/lcp/lcp_test_support.hpp: z_α = −M_αα⁻¹ q_α by a
/// full-pivot LU, singular blocks skipped), accepted at 1e-9 of the data's scale. A singular
/// block's solutions are not all vertices, so a `true` may be missed for a degenerate LCP; a
/// `false` then only errs towards reporting a finding, never hiding one.
bool has_solution(const DenseMatrix& M, const Vector& q) {
  return !pivot::test::brute_force_solutions(M, q, 1e-9).empty();
}

/// the independent check of a reported solution; returns what is wrong, or empty
std::string check_solution(const DenseMatrix& M, const Vector& q, const Vector& z) {
  constexpr double tau = 1e-7;
  const Eigen::Index n = q.size();
  if (z.size() != n) return "z has the wrong size";
  double z_max = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!std::isfinite(z(i))) return "z is not finite";
    z_max = std::max(z_max, std::abs(z(i)));
  }
  // the rounding of z's entries: a solve's forward error, 100 n ε ‖z‖∞ (the headroom a
  // degenerate basis needs, docs/lcp.md "Residuals"; z₂ = −8.9e-15 beside ‖z‖∞ = 0.12 is 70 n ε)
  const double z_noise =
      100.0 * static_cast<double>(n) * std::numeric_limits<double>::epsilon() * z_max;
  // An answer whose rounding in w is not small beside the data says nothing about q: within it
  // any w_i passes. It is judged by enumeration instead: `solved` is then a finding only when
  // the LCP has no solution at all (the false `solved` answers of 10¹⁸ this target found were
  // of such LCPs).
  double rounding_in_w = 0.0;
  for (Eigen::Index i = 0; i < n; ++i)
    rounding_in_w = std::max(rounding_in_w, M.row(i).cwiseAbs().sum() * z_noise);
  if (rounding_in_w > 1e-3 * q.lpNorm<Eigen::Infinity>())
    return has_solution(M, q) ? std::string{}
                              : "an LCP with no solution (enumerated) is reported solved";
  for (Eigen::Index i = 0; i < n; ++i) {
    double w = q(i);
    double scale = std::abs(q(i));
    double w_noise = 0.0;  // what z's rounding alone can make of w_i: Σ_j |M_ij| n ε ‖z‖∞
    for (Eigen::Index j = 0; j < n; ++j) {
      w += M(i, j) * z(j);
      scale += std::abs(M(i, j)) * (std::abs(z(j)) + z_noise);
      w_noise += std::abs(M(i, j)) * z_noise;
    }
    const double z_rel = z_max > 0.0 ? z(i) / z_max : 0.0;
    const double w_rel = scale > 0.0 ? w / scale : 0.0;
    const std::string row = " in row " + std::to_string(i);
    if (z_rel < -tau) return "z < 0" + row + " (z_i/|z| = " + std::to_string(z_rel) + ")";
    if (w < -(tau * scale + w_noise))
      return "w < 0" + row + " (w_i/s_i = " + std::to_string(w_rel) + ")";
    // complementarity: beside z_i > 0, a w_i within what z's rounding makes of it is 0
    const bool w_zero = std::abs(w) <= tau * scale + w_noise;
    if (std::abs(z_rel) > tau && !w_zero)
      return "z_i w_i != 0" + row + " (z_i/|z| = " + std::to_string(z_rel) +
             ", w_i/s_i = " + std::to_string(w_rel) + ")";
  }
  return {};
}

std::string describe(const DenseMatrix& M, const Vector& q) {
  const Eigen::IOFormat fmt(Eigen::FullPrecision, 0, " ", "; ", "", "", "[", "]");
  std::string s = "M = ";
  s += (std::ostringstream() << M.format(fmt)).str();
  s += ", q = ";
  s += (std::ostringstream() << q.transpose().format(fmt)).str();
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pivot::fuzz::ByteReader in(data, size);
  const int n = 1 + in.below(8);
  const auto kind = static_cast<Kind>(in.below(3));
  const bool sparse = in.flag();
  const bool warm = in.flag();
  // M's entries and q in [−128, 128) (1/256 steps), q scaled by 10^e, e ∈ {−6, …, 6}
  const double q_scale = std::pow(10.0, in.below(13) - 6);

  DenseMatrix A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = in.unit_ish();
  Vector q(n);
  for (int i = 0; i < n; ++i) q(i) = in.unit_ish() * q_scale;

  DenseMatrix M;
  switch (kind) {
    case Kind::arbitrary:
      M = A;
      break;
    case Kind::diagonally_dominant: {
      // M_ii = Σ_{j≠i} |A_ij| + 1 + |A_ii|: strictly dominant rows, positive diagonal
      M = A;
      for (int i = 0; i < n; ++i) {
        double off = 0.0;
        for (int j = 0; j < n; ++j)
          if (j != i) off += std::abs(A(i, j));
        M(i, i) = off + 1.0 + std::abs(A(i, i));
      }
      break;
    }
    case Kind::gram_plus_identity:
      M = A.transpose() * A + DenseMatrix::Identity(n, n);
      break;
  }

  pivot::lcp::LemkeOptions options;
  if (warm) {
    std::vector<int> active;
    const int bits = in.byte();
    for (int i = 0; i < n; ++i)
      if (bits & (1 << i)) active.push_back(i);
    options.warm_start = active;
  }
  // read last, so that inputs written before it decode as they did: the crash start's rows
  // (LemkeOptions::crash_rows; without a warm start only). On the symmetric family its block is
  // symmetric positive definite and the crash runs; on the others it is refused
  if (!warm && in.flag()) {
    const int bits = in.byte();
    for (int i = 0; i < n; ++i)
      if (bits & (1 << i)) options.crash_rows.push_back(i);
  }

  pivot::lcp::LcpResult result;
  try {
    if (sparse) {
      pivot::lcp::SparseLcpProblem problem{M.sparseView(), q, "fuzz"};
      result = pivot::lcp::solve_lemke(problem, options);
    } else {
      result = pivot::lcp::solve_lemke(pivot::lcp::LcpProblem{M, q, "fuzz"}, options);
    }
  } catch (const std::exception& e) {
    pivot::fuzz::finding(std::string("solve_lemke threw: ") + e.what() + "; " + describe(M, q));
  }

  if (result.ok()) {
    std::string wrong = check_solution(M, q, result.z);
    // A z whose negative entries are above the rounding model above but within τ ‖z‖∞ (the sign
    // test's own bound) is within τ of z⁺ = max(z, 0); when z⁺ passes the whole check, z is an
    // approximate solution to τ, not a wrong answer. The min-norm solve of a rank-deficient warm
    // block beside an inconsistent row (a zero row of M with q_i = 10823) left z₁ = −6.3e-14 at
    // ‖z‖∞ = 0.39, 1.5 times 100 n ε ‖z‖∞, and w₂ = 14.1 z₁ (q₂ = 0) just outside its allowance,
    // while z⁺ solves that LCP exactly (session 10's finding, by hand in docs/reliability.md).
    if (!wrong.empty() && result.z.allFinite() && result.z.minCoeff() < 0.0 &&
        result.z.minCoeff() >= -1e-7 * result.z.lpNorm<Eigen::Infinity>() &&
        check_solution(M, q, result.z.cwiseMax(0.0)).empty())
      wrong.clear();
    if (!wrong.empty()) {
      const Eigen::IOFormat fmt(Eigen::FullPrecision, 0, " ", "; ", "", "", "[", "]");
      std::string warm_set;
      if (options.warm_start)
        for (int i : *options.warm_start) warm_set += std::to_string(i) + " ";
      pivot::fuzz::finding(
          "a `solved` answer fails the independent check: " + wrong + "; " + describe(M, q) +
          ", z = " + (std::ostringstream() << result.z.transpose().format(fmt)).str() +
          (sparse ? ", sparse" : ", dense") + ", warm start {" + warm_set + "}, path " +
          pivot::lcp::to_string(result.path));
    }
  } else if (kind != Kind::arbitrary) {
    pivot::fuzz::finding(std::string("a P-matrix LCP was reported ") +
                         pivot::lcp::to_string(result.status) + " (" + result.message + "); " +
                         describe(M, q));
  }
  // the symmetric positive definite family is also a PSD LCP: solve_psd_lcp must solve it, and
  // its answer pass the same independent check (oracle 2's uniqueness: the same z as Lemke's)
  if (kind == Kind::gram_plus_identity) {
    pivot::lcp::LcpResult psd;
    try {
      psd = sparse ? pivot::lcp::detail::solve_psd_lcp(
                         pivot::lcp::SparseLcpProblem{M.sparseView(), q, "fuzz"})
                   : pivot::lcp::detail::solve_psd_lcp(pivot::lcp::LcpProblem{M, q, "fuzz"});
    } catch (const std::exception& e) {
      pivot::fuzz::finding(std::string("solve_psd_lcp threw: ") + e.what() + "; " + describe(M, q));
    }
    if (!psd.ok())
      pivot::fuzz::finding(std::string("a symmetric positive definite LCP was reported ") +
                           pivot::lcp::to_string(psd.status) + " by solve_psd_lcp (" + psd.message +
                           "); " + describe(M, q));
    else if (std::string wrong = check_solution(M, q, psd.z);
             !wrong.empty() && !(psd.z.minCoeff() >= -1e-7 * psd.z.lpNorm<Eigen::Infinity>() &&
                                 check_solution(M, q, psd.z.cwiseMax(0.0)).empty()))
      pivot::fuzz::finding("a `solved` answer of solve_psd_lcp fails the independent check: " +
                           wrong + "; " + describe(M, q));
  }
  return 0;
}
