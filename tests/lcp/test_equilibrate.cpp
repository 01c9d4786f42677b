// Scale-free answers: a problem and its copies with rows and columns scaled by factors 1e-12 …
// 1e12 get the same verdict and the same z up to the scaling (lemke.hpp, docs/lcp.md
// "Scaling"). Expected answers are closed forms (diagonal M) or the unscaled problem's own
// verified answer, mapped through the scaling: for M' = D₁ M D₂ and q' = D₁ q, z solves (M, q)
// exactly when D₂⁻¹ z solves (M', q').
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "lcp_test_support.hpp"
#include "pivot/lcp/equilibrate.hpp"
#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/residual.hpp"
#include "support/test_data.hpp"

using namespace pivot::lcp;
using namespace pivot::test;
namespace fs = std::filesystem;

namespace {

/// the largest |a − b| relative to ‖b‖∞ (0 for two zero vectors)
double relative_gap(const VectorXd& a, const VectorXd& b) {
  const double scale = b.cwiseAbs().maxCoeff();
  const double gap = (a - b).cwiseAbs().maxCoeff();
  return scale > 0.0 ? gap / scale : gap;
}

struct ScaledCopy {
  LcpProblem problem;
  VectorXd col;  // D₂
};

/// (D₁ M D₂, D₁ q) with D₁, D₂ diagonal, entries 10^u, u uniform in [−12, 12]
ScaledCopy scaled_copy(const LcpProblem& p, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-12.0, 12.0);
  const Eigen::Index n = p.q.size();
  VectorXd row(n), col(n);
  for (Eigen::Index i = 0; i < n; ++i) row(i) = std::pow(10.0, u(rng));
  for (Eigen::Index j = 0; j < n; ++j) col(j) = std::pow(10.0, u(rng));
  ScaledCopy copy;
  copy.problem.M = row.asDiagonal() * p.M * col.asDiagonal();
  copy.problem.q = row.cwiseProduct(p.q);
  copy.problem.name = p.name + " (scaled)";
  copy.col = col;
  return copy;
}

std::vector<fs::path> lcp_files(const fs::path& data) {
  std::vector<fs::path> files;
  for (const char* folder : {"siconos", "contact", "fclib"}) {
    const auto some = dat_files(data / "lcp" / folder);
    files.insert(files.end(), some.begin(), some.end());
  }
  return files;
}

}  // namespace

TEST_CASE("equilibrate: the badly scaled diagonal problems get their closed-form answers",
          "[lcp][scale]") {
  // M = s I, q = −c 1 has the unique solution z = (c / s) 1
  struct Case {
    VectorXd diagonal, q, z;
  };
  const std::vector<Case> cases = {
      {VectorXd::Constant(2, 1e-12), VectorXd::Constant(2, -1.0), VectorXd::Constant(2, 1e12)},
      {(VectorXd(2) << 1.0, 1e-12).finished(), VectorXd::Constant(2, -1.0),
       (VectorXd(2) << 1.0, 1e12).finished()},
      {VectorXd::Constant(2, 1e-320), VectorXd::Constant(2, -1e-320), VectorXd::Constant(2, 1.0)},
      {VectorXd::Constant(3, 1e300), VectorXd::Constant(3, -1e290), VectorXd::Constant(3, 1e-10)},
      {(VectorXd(3) << 1e12, 1.0, 1e-12).finished(),
       (VectorXd(3) << -1e-12, -1.0, -1e12).finished(),
       (VectorXd(3) << 1e-24, 1.0, 1e24).finished()},
  };
  for (const Case& c : cases) {
    LcpProblem p{MatrixXd(c.diagonal.asDiagonal()), c.q, "diagonal"};
    const LcpResult r = solve_lemke(p);
    INFO("diagonal " << c.diagonal.transpose() << ", q " << c.q.transpose() << ": "
                     << to_string(r.status) << " " << r.message << ", z " << r.z.transpose());
    REQUIRE(r.status == LcpStatus::solved);
    CHECK(relative_gap(r.z, c.z) <= 1e-14);
  }
}

TEST_CASE("equilibrate: the factors undo a scaling by powers of two, and the way back is exact",
          "[lcp][scale]") {
  std::mt19937 rng(7);
  const MatrixXd M = random_pd_nonsymmetric(rng, 12);
  const VectorXd q = random_vector(rng, 12);
  // D₁ = 2^a, D₂ = 2^b with exponents in [−60, 60]
  std::uniform_int_distribution<int> exponent(-60, 60);
  VectorXd d1(12), d2(12);
  for (int i = 0; i < 12; ++i) {
    d1(i) = std::ldexp(1.0, exponent(rng));
    d2(i) = std::ldexp(1.0, exponent(rng));
  }
  const MatrixXd Ms = d1.asDiagonal() * M * d2.asDiagonal();
  const VectorXd qs = d1.cwiseProduct(q);
  const auto e = pivot::lcp::detail::equilibrate(M, q);
  const auto es = pivot::lcp::detail::equilibrate(Ms, qs);
  CHECK(e.size() <= 6);  // a random problem with entries of one scale is nearly balanced
  CHECK(es.size() >= 50);
  // both equilibrated problems are the same up to the rounding of the factors to integers
  const MatrixXd a = pivot::lcp::detail::scaled_matrix(M, e);
  const MatrixXd b = pivot::lcp::detail::scaled_matrix(Ms, es);
  for (Eigen::Index i = 0; i < 12; ++i)
    for (Eigen::Index j = 0; j < 12; ++j)
      if (a(i, j) != 0.0) {
        const double bits = std::abs(std::log2(std::abs(b(i, j) / a(i, j))));
        CHECK(bits <= 2.0);
      }
  // scaling by powers of two and back loses nothing
  VectorXd z = VectorXd::LinSpaced(12, 0.1, 7.3), w = VectorXd::LinSpaced(12, -3.0, 4.0);
  const VectorXd z0 = z, w0 = w;
  VectorXd zs(12), ws(12);
  for (Eigen::Index j = 0; j < 12; ++j) {
    zs(j) = std::ldexp(z(j), es.q - es.col[static_cast<std::size_t>(j)]);
    ws(j) = std::ldexp(w(j), es.row[static_cast<std::size_t>(j)] + es.q);
  }
  pivot::lcp::detail::unscale_solution(es, zs, ws);
  CHECK(zs == z0);
  CHECK(ws == w0);
}

namespace {

/// the answers of a problem and of its scaled copies, for the two checks below
struct CopyAnswers {
  std::string name;
  LcpProblem original;
  LcpResult base;
  std::vector<ScaledCopy> copies;
  std::vector<LcpResult> results;
};

/// the problem's answer and those of `copies` scaled copies of it
CopyAnswers solve_with_copies(std::string name, LcpProblem original, int copies,
                              std::mt19937& rng) {
  CopyAnswers a;
  a.name = std::move(name);
  a.original = std::move(original);
  a.base = solve_lemke(a.original);
  for (int k = 0; k < copies; ++k) {
    a.copies.push_back(scaled_copy(a.original, rng));
    a.results.push_back(solve_lemke(a.copies.back().problem));
  }
  return a;
}

std::vector<CopyAnswers> random_copies() {
  std::vector<CopyAnswers> out;
  std::mt19937 rng(2024);
  for (int n : {2, 5, 12, 30})
    for (int k = 0; k < 5; ++k) {
      // a P-matrix: the solution is unique, so z must agree
      const std::string name = "random P-matrix, n = " + std::to_string(n);
      LcpProblem p{random_pd_nonsymmetric(rng, n), random_vector(rng, n), name};
      out.push_back(solve_with_copies(name, std::move(p), 4, rng));
    }
  return out;
}

std::vector<CopyAnswers> data_file_copies(const fs::path& data) {
  std::vector<CopyAnswers> out;
  std::mt19937 rng(11);
  for (const auto& file : lcp_files(data))
    out.push_back(solve_with_copies(file.filename().string(), read_lcp_file(file), 3, rng));
  return out;
}

}  // namespace

TEST_CASE("equilibrate: random problems and their scaled copies get the same verdict",
          "[lcp][scale]") {
  int compared = 0;
  for (const CopyAnswers& a : random_copies()) {
    REQUIRE(a.base.ok());
    for (const LcpResult& r : a.results) {
      INFO(a.name << ": " << to_string(r.status) << " " << r.message);
      CHECK(r.ok());
      ++compared;
    }
  }
  CHECK(compared == 80);
}

TEST_CASE("equilibrate: every LCP of the shared suite and its scaled copies get the same verdict",
          "[lcp][scale][data]") {
  const auto data = shared_data_dir();
  if (!data) {
    WARN("shared data folder absent: skipping the scaled copies of the LCP data files");
    return;
  }
  const auto all = data_file_copies(*data);
  REQUIRE(!all.empty());
  for (const CopyAnswers& a : all)
    for (const LcpResult& r : a.results) {
      INFO(a.name << ": base " << to_string(a.base.status) << ", copy " << to_string(r.status)
                  << " " << r.message);
      CHECK(r.status == a.base.status);
    }
}

// A copy's answer, mapped back, solves the original. Balanced as a whole, one copy of
// Box_Stacks-i0122-82-5_d4 (n = 492, 31 independent stacks) gets a z that, mapped back, leaves
// −0.5 of a row: each stack's factors are pinned by its q, whose entries of 1e-17 put the stacks'
// z 10¹⁰ apart, and one global ‖z‖∞ judges the small ones by the largest one's rounding. The
// solver therefore solves and judges decoupled blocks one by one (lcp_blocks.hpp).
TEST_CASE("equilibrate: a scaled copy's answer is the original's, mapped back",
          "[lcp][scale][data]") {
  std::vector<CopyAnswers> all = random_copies();
  if (const auto data = shared_data_dir()) {
    auto files = data_file_copies(*data);
    all.insert(all.end(), files.begin(), files.end());
  }
  for (const CopyAnswers& a : all) {
    if (!a.base.ok()) continue;
    for (std::size_t k = 0; k < a.results.size(); ++k) {
      if (!a.results[k].ok()) continue;
      const VectorXd z = a.copies[k].col.cwiseProduct(a.results[k].z);
      INFO(a.name << " copy " << k);
      // the answer need not be unique (degenerate contact problems have many): it must solve
      // the original problem
      CHECK(measure_residuals(a.original.M, a.original.q, z).worst() <= 1e-7);
    }
  }
}

TEST_CASE("equilibrate: a z entry 1e10 below the largest that makes most of a row is not 0",
          "[lcp][scale]") {
  // A scaled copy of a random 2 × 2 P-matrix problem (its data rounded to six digits here):
  // Lemke's answer to the copy, z = (5.3e8, 0.053), leaves w₂ = 1.2e-3 with z₂ > 0, and passed
  // the check because z₂ / ‖z‖∞ = 1e-10 counted as 0. z₂'s share of row 2's magnitude is 0.92
  // (the complementarity measure's per-entry size, lcp_result.hpp): refused.
  MatrixXd M(2, 2);
  M << 0.000394594, 1.91564e+06, -8.24654e-14, 0.024575;
  const VectorXd q = (VectorXd(2) << -311155.0, -6.31183e-05).finished();
  const VectorXd wrong = (VectorXd(2) << 5.30839e+08, 0.0530839).finished();
  CHECK(measure_residuals(M, q, wrong).worst() > kDefaultResidualTolerance);
  // the solution: both z > 0 and w = M z + q = 0 (Cramer's rule; M is a P-matrix, so it is the
  // only one)
  const double det = M(0, 0) * M(1, 1) - M(0, 1) * M(1, 0);
  const VectorXd expected = (VectorXd(2) << (-q(0) * M(1, 1) + q(1) * M(0, 1)) / det,
                             (-q(1) * M(0, 0) + q(0) * M(1, 0)) / det)
                                .finished();
  REQUIRE(expected.minCoeff() > 0.0);
  const LcpResult r = solve_lemke(LcpProblem{M, q, "copy"});
  REQUIRE(r.ok());
  CHECK(relative_gap(r.z, expected) < 1e-9);
  CHECK(std::abs(r.z(1) - expected(1)) < 1e-9 * expected(1));  // z₂ itself, not only ‖z‖∞
}

TEST_CASE("equilibrate: a negative z that is half of a row is no answer, whatever ‖z‖∞ says",
          "[lcp][scale]") {
  // lcp_inf_sol_perturbed (the Siconos collection): w₀ = −z₁ + z₂ − 1e-4, w₁ = z₀ − 1,
  // w₂ = −z₀ + 1. Its solutions are z = (1, t, t + 1e-4), t ≥ 0 (w₁ = w₂ = 0 force z₀ = 1, and
  // z₀ > 0 needs w₀ = 0). z = (1, −1e-4, 0) leaves w = 0 but z₁ < 0 is half of row 0's
  // magnitude. With column 1 scaled by 1e6 that z₁ is −1e-10 of ‖z‖∞, which a measure relative
  // to ‖z‖∞ alone passed; its share of the row does not change with the scaling.
  MatrixXd M(3, 3);
  M << 0, -1, 1, 1, 0, 0, -1, 0, 0;
  const VectorXd q = (VectorXd(3) << -1e-4, -1, 1).finished();
  const VectorXd wrong = (VectorXd(3) << 1, -1e-4, 0).finished();
  CHECK(measure_residuals(M, q, wrong).worst() > kDefaultResidualTolerance);
  for (const double c1 : {1.0, 1e3, 1e6, 1e9, 1e12}) {
    const VectorXd col = (VectorXd(3) << 1, c1, 1).finished();
    const MatrixXd M_copy = M * col.asDiagonal();
    const VectorXd wrong_copy = wrong.cwiseQuotient(col);
    INFO("column 1 scaled by " << c1);
    CHECK(measure_residuals(M_copy, q, wrong_copy).worst() > kDefaultResidualTolerance);
    const LcpResult r = solve_lemke(LcpProblem{M_copy, q, "copy"});
    REQUIRE(r.ok());
    // mapped back, a member of the closed-form family
    const VectorXd z = col.cwiseProduct(r.z);
    CHECK(std::abs(z(0) - 1.0) < 1e-12);
    CHECK(z(1) >= 0.0);
    CHECK(std::abs(z(2) - z(1) - 1e-4) < 1e-12 * std::max(1.0, z(2)));
  }
}
