// bench_lcp: Lemke's method (lcp/lemke.hpp) on the contact and FCLib problems of the shared
// data folder, side by side with a baseline: the classical full-tableau lexicographic Lemke
// (n × (2n + 2) tableau, Murty's lexico-minimum ratio test, as in Siconos' lcp_lexicolemke),
// written here. For each problem file two benchmarks run, <folder>/<name>/pivot and
// <folder>/<name>/tableau, so that the ratio of their times can be read in one run.
// Counters: n, pivots, solved (1 when the answer passes the residual check ≤ 1e-9).
//
// The baseline works in double precision on the whole tableau, as the textbook does: its rounding
// errors accumulate over the pivots (nothing is ever refactorized), and ties of the ratio test are
// decided up to a relative 1e-12 (with exact ties it cycles on Box_Stacks). On the FCLib
// PerioBox problem it loses the path and stops on a false ray (solved = 0); the same code in long
// double reaches a solution. That, too, is part of the comparison.
//
// The data folder is the configured PIVOT_SHARED_DATA_DIR; the environment variable of the
// same name overrides it.
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/residual.hpp"

namespace {

namespace fs = std::filesystem;
using pivot::lcp::DenseMatrix;
using pivot::lcp::LcpProblem;
using pivot::lcp::Vector;

// ─── the baseline: full-tableau lexicographic Lemke ──────────────────────────────────────────

struct TableauResult {
  bool ray = false;  ///< secondary ray (or pivot limit): no solution found
  int pivots = 0;
  Vector z;
};

/// Lemke's method on the tableau [I | −M | −d | q] (columns w, z, z₀, right-hand side), d = 1.
/// The columns of w hold B⁻¹, so the lexicographic ratio test compares the rows
/// (b̄_i, (B⁻¹)_i·) / a_i (Murty 1988, §2.3.2): it never cycles.
TableauResult tableau_lemke(const DenseMatrix& M, const Vector& q) {
  const Eigen::Index n = q.size();
  TableauResult out;
  out.z = Vector::Zero(n);
  if (q.minCoeff() >= 0.0) return out;

  const Eigen::Index z0 = 2 * n, rhs = 2 * n + 1;
  DenseMatrix T(n, 2 * n + 2);
  T.leftCols(n).setIdentity();
  T.middleCols(n, n) = -M;
  T.col(z0).setConstant(-1.0);
  T.col(rhs) = q;
  std::vector<Eigen::Index> basis(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) basis[static_cast<std::size_t>(i)] = i;

  // the lexico-minimum over `rows` of (T(i, rhs), T(i, 0…n−1)) / a_i
  std::vector<Eigen::Index> rows, kept;
  auto lexico_min = [&](const Vector& a) {
    for (Eigen::Index k = -1; k < n && rows.size() > 1; ++k) {
      const Eigen::Index col = k < 0 ? rhs : k;
      double best = INFINITY;
      for (auto i : rows) best = std::min(best, T(i, col) / a(i));
      const double tie = 1e-12 * std::max(1.0, std::abs(best));
      kept.clear();
      for (auto i : rows)
        if (T(i, col) / a(i) <= best + tie) kept.push_back(i);
      rows.swap(kept);
    }
    return rows.front();
  };
  auto pivot = [&](Eigen::Index r, Eigen::Index s) {
    T.row(r) /= T(r, s);
    for (Eigen::Index i = 0; i < n; ++i)
      if (i != r && T(i, s) != 0.0) T.row(i) -= T(i, s) * T.row(r);
    const Eigen::Index left = basis[static_cast<std::size_t>(r)];
    basis[static_cast<std::size_t>(r)] = s;
    ++out.pivots;
    return left;
  };

  // first pivot: z₀ enters at the row of the most negative q_i (lexico-smallest (q_i, e_i))
  rows.clear();
  for (Eigen::Index i = 0; i < n; ++i) rows.push_back(i);
  Vector a = -T.col(z0);
  Eigen::Index left = pivot(lexico_min(a), z0);
  out.pivots =
      0;  // like solve_lemke, count the pivots after z₀'s entry (lcp_exp_murty2: 2⁶ − 1 = 63)

  const int max_pivots = static_cast<int>(100 * n + 1000);
  while (out.pivots < max_pivots) {
    const Eigen::Index entering = left < n ? left + n : left - n;  // the complement of what left
    a = T.col(entering);
    const double tol = 1e-12 * std::max(1.0, a.cwiseAbs().maxCoeff());
    rows.clear();
    for (Eigen::Index i = 0; i < n; ++i)
      if (a(i) > tol) rows.push_back(i);
    if (rows.empty()) {
      out.ray = true;
      return out;
    }
    // z₀ leaves as soon as it may: that ends the path at a solution
    Eigen::Index r = -1;
    {
      const auto saved = rows;
      r = lexico_min(a);
      const double theta = T(r, rhs) / a(r);
      for (auto i : saved)
        if (basis[static_cast<std::size_t>(i)] == z0 &&
            T(i, rhs) / a(i) <= theta + 1e-12 * std::max(1.0, std::abs(theta)))
          r = i;
    }
    left = pivot(r, entering);
    if (left == z0) {
      for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index var = basis[static_cast<std::size_t>(i)];
        if (var >= n && var < 2 * n) out.z(var - n) = T(i, rhs);
      }
      return out;
    }
  }
  out.ray = true;  // pivot limit
  return out;
}

// ─── the benchmarks ──────────────────────────────────────────────────────────────────────────

bool verified(const LcpProblem& p, const Vector& z) {
  return z.size() == p.q.size() && pivot::lcp::measure_residuals(p.M, p.q, z).worst() <=
                                       pivot::lcp::kDefaultResidualTolerance;
}

void bench_pivot(benchmark::State& state, const std::shared_ptr<const LcpProblem>& problem) {
  pivot::lcp::LcpResult result;
  for (auto _ : state) {
    result = pivot::lcp::solve_lemke(*problem);
    benchmark::DoNotOptimize(result.z.data());
  }
  state.counters["n"] = static_cast<double>(problem->q.size());
  state.counters["pivots"] = result.pivots;
  state.counters["solved"] = result.ok() && verified(*problem, result.z) ? 1.0 : 0.0;
}

void bench_tableau(benchmark::State& state, const std::shared_ptr<const LcpProblem>& problem) {
  TableauResult result;
  for (auto _ : state) {
    result = tableau_lemke(problem->M, problem->q);
    benchmark::DoNotOptimize(result.z.data());
  }
  state.counters["n"] = static_cast<double>(problem->q.size());
  state.counters["pivots"] = result.pivots;
  state.counters["solved"] = !result.ray && verified(*problem, result.z) ? 1.0 : 0.0;
}

fs::path data_dir() {
  if (const char* env = std::getenv("PIVOT_SHARED_DATA_DIR")) return env;
  return PIVOT_SHARED_DATA_DIR;
}

int register_all() {
  const fs::path data = data_dir();
  int count = 0;
  for (const char* folder : {"contact", "fclib"}) {
    const fs::path dir = data / "lcp" / folder;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      std::cerr << "bench_lcp: no folder " << dir << " (set PIVOT_SHARED_DATA_DIR)\n";
      continue;
    }
    std::vector<std::pair<std::shared_ptr<const LcpProblem>, std::string>> problems;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.path().extension() != ".dat") continue;
      try {
        auto p = std::make_shared<const LcpProblem>(pivot::lcp::read_lcp_file(entry.path()));
        problems.emplace_back(std::move(p),
                              std::string(folder) + "/" + entry.path().stem().string());
      } catch (const pivot::Error& e) {
        std::cerr << "bench_lcp: skipped: " << e.what() << "\n";
      }
    }
    // by size, then by name
    std::sort(problems.begin(), problems.end(), [](const auto& a, const auto& b) {
      return std::pair(a.first->q.size(), a.second) < std::pair(b.first->q.size(), b.second);
    });
    for (const auto& [problem, name] : problems) {
      benchmark::RegisterBenchmark((name + "/pivot").c_str(), bench_pivot, problem)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark((name + "/tableau").c_str(), bench_tableau, problem)
          ->Unit(benchmark::kMillisecond);
      ++count;
    }
  }
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (register_all() == 0) {
    std::cerr << "bench_lcp: no problem files found under " << data_dir() << "\n";
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
