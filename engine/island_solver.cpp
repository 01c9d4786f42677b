#include "pivot/engine/island_solver.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>

#include "pivot/engine/island_lcp.hpp"
#include "pivot/engine/stopwatch.hpp"
#include "pivot/lcp/mixed_lcp.hpp"

namespace pivot::detail {
namespace {

using namespace detail;
using Triplets = std::vector<Eigen::Triplet<double>>;

// the island's problem in sparse storage, the entries in the order the assembly has always
// written them (P: M̃, then the joint rows)
struct SparseSink {
  int nv = 0;
  Triplets P_entries, Q_entries, K_entries, S_entries;
  Eigen::VectorXd u_vector, v_vector;
  void J(int e, int col, double value) {
    P_entries.emplace_back(nv + e, col, value);
    P_entries.emplace_back(col, nv + e, -value);
  }
  void G(int row, int col, double value) {
    Q_entries.emplace_back(col, row, -value);
    K_entries.emplace_back(row, col, value);
  }
  void S(int row, int col, double value) { S_entries.emplace_back(row, col, value); }
  void b(int e, double value) { u_vector(nv + e) = value; }
  void v(int row, double value) { v_vector(row) = value; }
};

Eigen::SparseMatrix<double> sparse(int rows, int cols, const Triplets& t) {
  Eigen::SparseMatrix<double> s(rows, cols);
  s.setFromTriplets(t.begin(), t.end());
  s.makeCompressed();
  return s;
}

lcp::SparseMixedLcpProblem build_sparse(const IslandLcp& lcp, const IslandInput& in) {
  const int nv = lcp.nv(), n = nv + lcp.ne(), m = lcp.layout().m;
  SparseSink sink;
  sink.nv = nv;
  for (int k = 0; k < in.M_tilde.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(in.M_tilde, k); it; ++it)
      sink.P_entries.emplace_back(static_cast<int>(it.row()), static_cast<int>(it.col()),
                                  it.value());
  sink.u_vector = Eigen::VectorXd::Zero(n);
  sink.u_vector.head(nv) = -in.momentum;
  sink.v_vector = Eigen::VectorXd::Zero(m);
  lcp.emit(sink);
  lcp::SparseMixedLcpProblem p;
  p.P = sparse(n, n, sink.P_entries);
  p.Q = sparse(n, m, sink.Q_entries);
  p.K = sparse(m, n, sink.K_entries);
  p.S = sparse(m, m, sink.S_entries);
  p.u = std::move(sink.u_vector);
  p.v = std::move(sink.v_vector);
  return p;
}

}  // namespace

IslandOutput solve_island(const ConstraintSet& rows, const IslandInput& in,
                          const lcp::LemkeOptions& lemke, lcp::SparseMixedLcpProblem* record,
                          const FailedLcpCallback& on_failed) {
  const auto start = now_if(lemke.timed);
  const IslandLcp assembler(rows, in);
  const int m = assembler.layout().m, nv = assembler.nv();
  lcp::SparseMixedLcpProblem problem = build_sparse(assembler, in);
  if (record) *record = problem;
  IslandTimes times;
  times.assembly = seconds_since(start, lemke.timed);
  lcp::MixedLcpOptions options;
  options.lemke = lemke;
  std::vector<int> singular_equalities;
  auto add_times = [&](const lcp::MixedLcpResult& r) {
    times.reduction += r.reduce_seconds;
    times.add_lcp(r.lcp);
  };
  // layer 1 (IslandLayer::direct): the mixed LCP as assembled
  lcp::MixedLcpResult result = lcp::solve_mixed_lcp(problem, options);
  add_times(result);
  IslandLayer layer = IslandLayer::direct;
  bool regularized = false;
  if (!result.singular_rows.empty()) {
    // layer 2 (IslandLayer::regularized_joints)
    // redundant or conflicting joints: report them, and go on with slightly compliant joint
    // rows, J v + δ λ = 0 with δ = 1e-8 (J M̃⁻¹ Jᵀ)ᵢᵢ
    for (int r : result.singular_rows)
      if (r >= nv) singular_equalities.push_back(r - nv);
    options.regularization = assembler.equality_regularization(1e-8);
    result = lcp::solve_mixed_lcp(problem, options);
    add_times(result);
    layer = IslandLayer::regularized_joints;
    regularized = true;
  }
  int pivots = result.lcp.pivots;
  bool fallback = false;
  lcp::LcpStatus failed_status = lcp::LcpStatus::solved;
  std::string message;
  if (!result.ok() || !result.x.allFinite()) {
    if (on_failed) on_failed(FailedLcp{problem, options, result});
    // layer 3 (IslandLayer::copositive_fallback): make the complementarity block strictly
    // copositive, S + εI with ε = 1e-8 of its scale, which Lemke always solves; if even that fails
    // the caller keeps the old velocities
    message = result.lcp.message;
    failed_status = result.lcp.status;
    // (an island of joints alone has m = 0 and an empty S, whose sum() Eigen does not allow:
    // its debug assertion, found by the step fuzz target)
    const double scale = m > 0 ? std::max(1.0, problem.S.cwiseAbs().sum() / m) : 1.0;
    for (int i = 0; i < m; ++i) problem.S.coeffRef(i, i) += 1e-8 * scale;
    const lcp::MixedLcpResult retry = lcp::solve_mixed_lcp(problem, options);
    add_times(retry);
    fallback = true;
    layer = IslandLayer::copositive_fallback;
    pivots += retry.lcp.pivots;
    if (retry.ok() && retry.x.allFinite()) result = retry;
  }
  // not solved even by the fallback: no velocities, and the first failure's status
  const bool solved = result.ok() && result.x.allFinite();
  IslandOutput out = solved ? assembler.output(result.x, result.lcp) : IslandOutput{};
  if (!solved) {
    out.lcp_size = m;
    out.status = result.lcp.status;
  }
  out.singular_equalities = std::move(singular_equalities);
  out.regularized = regularized;
  out.fallback = fallback;
  out.failed_status = failed_status;
  out.layer = layer;
  out.pivots = pivots;
  out.message = std::move(message);
  out.times = times;
  return out;
}

}  // namespace pivot::detail
