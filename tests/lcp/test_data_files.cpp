// Every public test problem (<shared data>/lcp/{siconos,contact,fclib}, <shared data>/mlcp):
// solved, with the answer judged by its own residual recomputed from the file's (M, q), never by
// the solver's word. Skips (with a warning) when the shared data folder is absent.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "lcp_test_support.hpp"
#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/mixed_lcp.hpp"
#include "pivot/lcp/residual.hpp"
#include "support/test_data.hpp"

using namespace pivot::lcp;
using namespace pivot::test;
namespace fs = std::filesystem;

namespace {

/// problems on which Lemke's method cannot reach a solution (../shared/data/README.md)
const std::set<std::string> kRayExpected = {"lcp_CPS_3", "lcp_Pang_isolated_sol_perturbed"};

/// the mixed problems in a format the reader rejects on purpose (a pivot::Error "unsupported …")
const std::set<std::string> kUnsupportedMixed = {"Rectangular_mlcp"};

}  // namespace

TEST_CASE("data files: every LCP of the shared suite is solved with a verified residual",
          "[lcp][data]") {
  const auto data = shared_data_dir();
  if (!data) {
    WARN("shared data folder absent: skipping the LCP data-file tests");
    return;
  }
  for (const char* folder : {"siconos", "contact", "fclib"}) {
    const auto files = dat_files(*data / "lcp" / folder);
    INFO("folder " << (*data / "lcp" / folder).string());
    CHECK(!files.empty());
    for (const auto& file : files) {
      const std::string name = file.stem().string();
      INFO("file " << file.string());
      LcpProblem problem;
      REQUIRE_NOTHROW(problem = read_lcp_file(file));
      const LcpResult result = solve_lemke(problem);
      const double measured = measure_residuals(problem.M, problem.q, result.z).worst();
      const double independent = independent_worst(problem.M, problem.q, result.z);
      INFO(name << ": n = " << problem.q.size() << ", status " << to_string(result.status)
                << ", pivots " << result.pivots << ", path " << to_string(result.path)
                << ", residual " << measured << " (independent " << independent
                << "), message: " << result.message);
      // never a false success
      if (result.status == LcpStatus::solved) {
        CHECK(measured <= 1e-9);
        CHECK(independent <= 1e-9);
      }
      if (kRayExpected.count(name)) {
        // the right answer is a reported ray termination (or a genuinely verified solution)
        CHECK((result.status == LcpStatus::ray_termination || result.status == LcpStatus::solved));
      } else {
        CHECK(result.status == LcpStatus::solved);
      }
      if (name == "lcp_exp_murty2") {
        // Murty's exponential example: 2⁶ − 1 = 63 pivots with the textbook rule
        INFO("lcp_exp_murty2 took " << result.pivots << " pivots (the textbook count is 63)");
        CHECK(result.pivots > 0);
        CHECK(result.pivots == 63);
      }
    }
  }
}

TEST_CASE("data files: small LCPs agree with the brute-force solver", "[lcp][data][brute_force]") {
  // for the files with n ≤ 12, the brute force tells whether a solution exists at all and,
  // when it is unique, what it is
  const auto data = shared_data_dir();
  if (!data) {
    WARN("shared data folder absent: skipping the brute-force comparison");
    return;
  }
  for (const auto& file : dat_files(*data / "lcp" / "siconos")) {
    const LcpProblem problem = read_lcp_file(file);
    if (problem.q.size() > 12) continue;
    const auto all = brute_force_solutions(problem.M, problem.q);
    const LcpResult result = solve_lemke(problem);
    INFO(problem.name << ": " << all.size() << " brute-force solution(s), Lemke status "
                      << to_string(result.status) << ", z = " << result.z.transpose());
    if (result.status == LcpStatus::solved) {
      CHECK(!all.empty());
      const VectorXd unique = brute_force_unique(problem.M, problem.q);
      if (unique.size() == problem.q.size()) CHECK(relative_difference(result.z, unique) <= 1e-9);
    }
  }
}

TEST_CASE("data files: sparse storage gives verified answers on the contact problems",
          "[lcp][data][sparse]") {
  const auto data = shared_data_dir();
  if (!data) {
    WARN("shared data folder absent: skipping the sparse data-file tests");
    return;
  }
  for (const auto& file : dat_files(*data / "lcp" / "contact")) {
    const LcpProblem dense = read_lcp_file(file);
    SparseLcpProblem sparse;
    sparse.M = dense.M.sparseView();
    sparse.q = dense.q;
    sparse.name = dense.name;
    const LcpResult result = solve_lemke(sparse);
    INFO(dense.name << ": status " << to_string(result.status) << ", pivots " << result.pivots
                    << ", " << result.message);
    CHECK(result.status == LcpStatus::solved);
    CHECK(independent_worst(dense.M, dense.q, result.z) <= 1e-9);
  }
}

TEST_CASE("data files: block-storage files read the same matrices as their dense twins",
          "[lcp][data][io]") {
  const auto data = shared_data_dir();
  if (!data) {
    WARN("shared data folder absent: skipping the block-storage comparison");
    return;
  }
  for (const char* name : {"lcp_deudeu", "lcp_ortiz", "lcp_trivial"}) {
    const fs::path dir = *data / "lcp" / "siconos";
    const LcpProblem dense = read_lcp_file(dir / (std::string(name) + ".dat"));
    const LcpProblem block = read_lcp_file(dir / (std::string(name) + "_block.dat"));
    INFO(name);
    CHECK(block.M == dense.M);
    CHECK(block.q == dense.q);
  }
}

TEST_CASE("data files: every mixed LCP is solved, or its singular P is reported",
          "[lcp][data][mixed]") {
  const auto data = shared_data_dir();
  if (!data) {
    WARN("shared data folder absent: skipping the mixed LCP data-file tests");
    return;
  }
  const auto files = dat_files(*data / "mlcp");
  CHECK(!files.empty());
  for (const auto& file : files) {
    const std::string name = file.stem().string();
    INFO("file " << file.string());
    MixedLcpProblem problem;
    try {
      problem = read_mixed_lcp_file(file);
    } catch (const pivot::Error& e) {
      INFO("Error: " << e.what());
      CHECK(kUnsupportedMixed.count(name) == 1);
      CHECK(std::string(e.what()).find("unsupported") != std::string::npos);
      continue;
    }
    const auto n = problem.P.rows();
    const auto m = problem.S.rows();
    // ground truth on P's rank, from outside the solver
    Eigen::FullPivLU<MatrixXd> lu(problem.P);
    const bool singular = n > 0 && !lu.isInvertible();
    const MixedLcpResult result = solve_mixed_lcp(problem);
    INFO(name << ": n = " << n << ", m = " << m << ", rank P = " << lu.rank() << ", status "
              << to_string(result.lcp.status) << ", pivots " << result.lcp.pivots
              << ", singular rows " << result.singular_rows.size()
              << ", message: " << result.lcp.message);
    if (singular) {
      CHECK(!result.singular_rows.empty());
      CHECK(result.lcp.status != LcpStatus::solved);
      continue;
    }
    CHECK(result.singular_rows.empty());
    CHECK(result.lcp.status == LcpStatus::solved);
    CHECK(result.x.size() == n);
    CHECK(result.lcp.z.size() == m);
    if (result.x.size() != n || result.lcp.z.size() != m) continue;  // go on with the other files
    const VectorXd& x = result.x;
    const VectorXd& z = result.lcp.z;
    // complementarity rows: w = K x + S z + v ≥ 0, z ≥ 0, zᵀw = 0, relative to their scale
    const VectorXd w = problem.K * x + problem.S * z + problem.v;
    const double z_inf = std::max(z.size() ? z.cwiseAbs().maxCoeff() : 0.0, 1e-300);
    const double w_scale = std::max({problem.v.size() ? problem.v.cwiseAbs().maxCoeff() : 0.0,
                                     m ? (problem.K * x).cwiseAbs().maxCoeff() : 0.0,
                                     m ? (problem.S * z).cwiseAbs().maxCoeff() : 0.0, 1e-300});
    if (m > 0) {
      CHECK(-z.minCoeff() / z_inf <= 1e-9);
      CHECK(-w.minCoeff() / w_scale <= 1e-9);
      CHECK(z.cwiseProduct(w).cwiseAbs().maxCoeff() / (z_inf * w_scale) <= 1e-9);
    }
    // free rows: P x + Q z + u = 0
    if (n > 0) {
      const VectorXd r = problem.P * x + problem.Q * z + problem.u;
      const double scale =
          std::max({problem.u.cwiseAbs().maxCoeff(), (problem.P * x).cwiseAbs().maxCoeff(),
                    (problem.Q * z).cwiseAbs().maxCoeff(), 1e-300});
      CHECK(r.cwiseAbs().maxCoeff() / scale <= 1e-9);
    }
  }
}
