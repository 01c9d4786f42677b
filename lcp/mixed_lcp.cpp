// Mixed LCP → pure LCP (Cline 2002 §2.7.2 and §4.8.2).
//
//   0 = P x + Q z + u,   w = K x + S z + v
//   x = −P⁻¹(u + Q z)                               (2.41; the thesis' "−P x_base = u" has a
//                                                    sign slip, notes §3.6)
//   w = (S − K P⁻¹Q) z + (v − K P⁻¹u)               (2.43)
//
// P is factorized once; P⁻¹Q and P⁻¹u come from solves with that factorization.
#include "pivot/lcp/mixed_lcp.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SparseLU>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <type_traits>

#include "pivot/core/error.hpp"

namespace pivot::lcp {
namespace {

// a sparse matrix's arrays, compressed (a copy only when the matrix is not)
struct CompressedView {
  SparseMatrix copy;
  const int* start;
  const int* index;
  const double* value;
  explicit CompressedView(const SparseMatrix& A) {
    const SparseMatrix* used = &A;
    if (!A.isCompressed()) {
      copy = A;
      copy.makeCompressed();
      used = &copy;
    }
    start = used->outerIndexPtr();
    index = used->innerIndexPtr();
    value = used->valuePtr();
  }
};

// sorts `rows`, made of sorted runs beginning at `runs` (ascending, runs[0] = 0), by merging
// them one after the other into `buffer`
void merge_runs(std::vector<int>& rows, const std::vector<int>& runs, std::vector<int>& buffer) {
  const auto end = static_cast<int>(rows.size());
  int sorted_end = 0;  // rows[0, sorted_end) is sorted
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const int run_end = k + 1 < runs.size() ? runs[k + 1] : end;
    if (run_end <= sorted_end) continue;
    if (sorted_end > 0 && rows[sorted_end - 1] > rows[sorted_end]) {
      buffer.resize(static_cast<std::size_t>(run_end));
      std::merge(rows.begin(), rows.begin() + sorted_end, rows.begin() + sorted_end,
                 rows.begin() + run_end, buffer.begin());
      std::copy(buffer.begin(), buffer.begin() + run_end, rows.begin());
    }
    sorted_end = run_end;
  }
}

}  // namespace

namespace detail {

// S − K X for sparse S, K, X, column by column (Gustavson's sparse product with S folded in):
// column j of X picks columns of K, accumulated into a dense work column with a list of the rows
// touched; the rows of a result column are merged from its sorted runs. Fewer passes and
// allocations than forming K X and then the difference (the 10-box stack's step spent 40 % in
// that).
// M is written into `out`, whose storage the caller keeps across calls (solve_reduced's
// thread-local pool): a fresh M each step (235 000 entries on a 7-level pyramid) was faulted in
// page by page and copied once more by SparseMatrix's copy assignment, 60 % of that step (perf).
// Consecutive columns of K with the same rows (a body's six columns: every row that touches the
// body stores all six entries) are taken together, row by row: each work entry is loaded and
// stored once per group instead of once per column. Every entry still receives its terms one by
// one in the order of X's entries, so the sums are the same bits as column by column; the
// grouping, and merging each column's sorted runs instead of sorting its rows, took the reduction
// of 8 separate 10-level pyramids (m = 2400 each) from 36 to 21–24 ms a step (perf: the loads
// and stores of the work column were 40 % of the step, the sort 5 %).
void schur_complement(const SparseMatrix& S, const SparseMatrix& K, const SparseMatrix& X,
                      SparseMatrix& out) {
  struct Scratch {
    Vector work;
    std::vector<char> touched;
    std::vector<int> rows, merged;
    std::vector<int> runs;        // where each sorted run of `rows` begins
    std::vector<char> same_rows;  // column c of K has the rows of column c − 1
  };
  constexpr int kMaxGroup = 8;
  thread_local Scratch scratch;
  const Eigen::Index m = S.rows();
  if (scratch.work.size() < m) {
    scratch.work = Vector::Zero(m);
    scratch.touched.assign(static_cast<std::size_t>(m), 0);
  }
  double* const work = scratch.work.data();
  char* const touched = scratch.touched.data();
  std::vector<int>& rows = scratch.rows;
  std::vector<int>& runs = scratch.runs;
  rows.reserve(static_cast<std::size_t>(m));
  const CompressedView k(K), x(X);
  std::vector<char>& same_rows = scratch.same_rows;
  same_rows.assign(static_cast<std::size_t>(K.cols()), 0);
  for (Eigen::Index c = 1; c < K.cols(); ++c) {
    const int length = k.start[c + 1] - k.start[c];
    same_rows[c] =
        length == k.start[c] - k.start[c - 1] &&
        std::equal(k.index + k.start[c], k.index + k.start[c + 1], k.index + k.start[c - 1]);
  }
  // X's entries p, p + 1, … (before `end`) in consecutive columns of K with the same rows: a
  // group of at most kMaxGroup, taken together
  auto group_size = [&](int p, int end) {
    const int c = x.index[p];
    int g = 1;
    while (p + g < end && g < kMaxGroup && x.index[p + g] == c + g && same_rows[c + g]) ++g;
    return g;
  };
  // an upper bound of the entries, from the same groups as below (a group's rows counted once),
  // reserved at once: a short reserve grew the storage by doubling, copying and faulting in a
  // few times at a cold first step (a 15-level pyramid's first reduction: 13–19 ms before,
  // 9.5–12.6 ms with the bound)
  Eigen::Index bound = S.nonZeros();
  for (Eigen::Index j = 0; j < S.cols(); ++j)
    for (int p = x.start[j], end = x.start[j + 1]; p < end;) {
      const int c = x.index[p];
      const int g = group_size(p, end);
      bound += k.start[c + 1] - k.start[c];
      p += g;
    }
  out.resize(m, S.cols());  // keeps the entries' allocation
  out.data().reserve(std::min<Eigen::Index>(bound, m * S.cols()));
  for (Eigen::Index j = 0; j < S.cols(); ++j) {
    rows.clear();
    runs.assign(1, 0);
    auto touch = [&](int r) {
      if (!touched[r]) {
        touched[r] = 1;
        rows.push_back(r);
      }
    };
    for (SparseMatrix::InnerIterator s(S, j); s; ++s) {
      touch(static_cast<int>(s.index()));
      work[s.index()] += s.value();
    }
    for (int p = x.start[j], end = x.start[j + 1]; p < end;) {
      // the group: X's entries p … p + g − 1 in consecutive columns of K with the same rows
      const int c = x.index[p];
      const int g = group_size(p, end);
      const double* column[kMaxGroup];
      double factor[kMaxGroup];
      for (int t = 0; t < g; ++t) {
        column[t] = k.value + k.start[c + t];
        factor[t] = x.value[p + t];
      }
      const int first = k.start[c], length = k.start[c + 1] - first;
      runs.push_back(static_cast<int>(rows.size()));  // K's rows are sorted, so the new ones are
      for (int i = 0; i < length; ++i) {
        const int r = k.index[first + i];
        touch(r);
        double sum = work[r];
        for (int t = 0; t < g; ++t) sum += -column[t][i] * factor[t];
        work[r] = sum;
      }
      p += g;
    }
    merge_runs(rows, runs, scratch.merged);
    for (int r : rows) {
      out.data().append(work[r], r);
      work[r] = 0.0;
      touched[r] = 0;
    }
    out.outerIndexPtr()[j + 1] = static_cast<int>(out.data().size());
  }
}

}  // namespace detail

namespace {

constexpr double kTiny = std::numeric_limits<double>::min();

// P = R⁻¹ P̂ C⁻¹ with diagonal power-of-two scalings R, C that bring every row and column of P̂
// to a largest entry near 1 (equilibration): rank decisions and solves are then insensitive to
// the units of the rows (circuit problems mix 1e-6 and 1e6)
struct Equilibrated {
  DenseMatrix P_hat;
  Vector row_scale, col_scale;  // R, C diagonals
};

Equilibrated equilibrate(const DenseMatrix& P) {
  Equilibrated e;
  e.row_scale = Vector::Ones(P.rows());
  e.col_scale = Vector::Ones(P.cols());
  auto pow2 = [](double x) { return x > 0.0 ? std::exp2(-std::round(std::log2(x))) : 1.0; };
  for (Eigen::Index i = 0; i < P.rows(); ++i) e.row_scale(i) = pow2(P.row(i).cwiseAbs().maxCoeff());
  e.P_hat = e.row_scale.asDiagonal() * P;
  for (Eigen::Index j = 0; j < P.cols(); ++j)
    e.col_scale(j) = pow2(e.P_hat.col(j).cwiseAbs().maxCoeff());
  e.P_hat = e.P_hat * e.col_scale.asDiagonal();
  return e;
}

// rows of P that depend linearly on the others: column-pivoted QR of P̂ᵀ puts an independent
// set of rows first; the rest are dependent (a tolerance of 0 means Eigen's default, n·ε)
std::vector<int> dependent_rows(const DenseMatrix& P, double tolerance) {
  Eigen::ColPivHouseholderQR<DenseMatrix> qr(equilibrate(P).P_hat.transpose());
  if (tolerance > 0.0) qr.setThreshold(tolerance);
  std::vector<int> rows;
  for (Eigen::Index i = qr.rank(); i < P.rows(); ++i)
    rows.push_back(static_cast<int>(qr.colsPermutation().indices()(i)));
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::string check_sizes(Eigen::Index Pr, Eigen::Index Pc, Eigen::Index Qr, Eigen::Index Qc,
                        Eigen::Index Kr, Eigen::Index Kc, Eigen::Index Sr, Eigen::Index Sc,
                        Eigen::Index u, Eigen::Index v) {
  const Eigen::Index n = u, m = v;
  if (Pr != n || Pc != n) return fmt::format("P is {} x {}, expected {} x {}", Pr, Pc, n, n);
  if (Qr != n || Qc != m) return fmt::format("Q is {} x {}, expected {} x {}", Qr, Qc, n, m);
  if (Kr != m || Kc != n) return fmt::format("K is {} x {}, expected {} x {}", Kr, Kc, m, n);
  if (Sr != m || Sc != m) return fmt::format("S is {} x {}, expected {} x {}", Sr, Sc, m, m);
  return {};
}

template <typename Matrix>
std::string validate_mixed(const BasicMixedLcpProblem<Matrix>& p) {
  std::string why = check_sizes(p.P.rows(), p.P.cols(), p.Q.rows(), p.Q.cols(), p.K.rows(),
                                p.K.cols(), p.S.rows(), p.S.cols(), p.u.size(), p.v.size());
  if (!why.empty()) return why;
  auto finite = [](const auto& m) {
    if constexpr (std::is_same_v<std::decay_t<decltype(m)>, SparseMatrix>)
      return Eigen::Map<const Vector>(m.valuePtr(), m.nonZeros()).allFinite();
    else
      return m.allFinite();
  };
  if (!finite(p.P)) return "P has a non-finite entry";
  if (!finite(p.Q)) return "Q has a non-finite entry";
  if (!finite(p.K)) return "K has a non-finite entry";
  if (!finite(p.S)) return "S has a non-finite entry";
  if (!p.u.allFinite()) return "u has a non-finite entry";
  if (!p.v.allFinite()) return "v has a non-finite entry";
  return {};
}

// the factorization-independent part: given P⁻¹Q and P⁻¹u, build and solve the pure LCP; a
// sparse P⁻¹Q (sparse P) gives a sparse 𝓜, which Lemke reads in sparse storage
template <typename Matrix, typename Solved>
void solve_reduced(const BasicMixedLcpProblem<Matrix>& p, const Solved& PinvQ, const Vector& Pinvu,
                   const MixedLcpOptions& options, MixedLcpResult& out) {
  constexpr bool kSparse = std::is_same_v<Solved, SparseMatrix>;
  std::conditional_t<kSparse, SparseLcpProblem, LcpProblem> reduced;
  // the sparse 𝓜's storage, kept by the thread from one solve to the next (schur_complement)
  thread_local SparseMatrix pool;
  if (p.v.size() > 0) {
    if constexpr (kSparse) {
      reduced.M.swap(pool);
      detail::schur_complement(p.S, p.K, PinvQ, reduced.M);
    } else
      reduced.M = DenseMatrix(p.S) - p.K * PinvQ;
    reduced.q = p.v - p.K * Pinvu;
  }
  out.lcp = solve_lemke(reduced, options.lemke);
  if constexpr (kSparse)
    if (p.v.size() > 0) pool.swap(reduced.M);
  if (!out.lcp.ok()) return;
  const Eigen::Index n = p.u.size();
  const Vector Qz = p.Q.cols() > 0 ? Vector(p.Q * out.lcp.z) : Vector(Vector::Zero(n));
  out.x = p.Q.cols() > 0 ? Vector(-(Pinvu + PinvQ * out.lcp.z)) : Vector(-Pinvu);
  const Vector free_res = p.P * out.x + Qz + p.u;
  out.free_residual = free_res.template lpNorm<Eigen::Infinity>() /
                      std::max({p.u.template lpNorm<Eigen::Infinity>(),
                                Qz.template lpNorm<Eigen::Infinity>(), kTiny});
}

// P⁻¹ B for a sparse B, solved in dense panels of columns; only the nonzero entries are kept (a
// block-diagonal P, as in a contact island without joints, keeps P⁻¹ B as sparse as B)
SparseMatrix solve_columns(const Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>>& lu,
                           const SparseMatrix& B) {
  constexpr Eigen::Index kPanel = 32;
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(B.nonZeros()));
  for (Eigen::Index j0 = 0; j0 < B.cols(); j0 += kPanel) {
    const Eigen::Index width = std::min(kPanel, B.cols() - j0);
    const DenseMatrix X = lu.solve(DenseMatrix(B.middleCols(j0, width)));
    for (Eigen::Index j = 0; j < width; ++j)
      for (Eigen::Index i = 0; i < X.rows(); ++i)
        if (X(i, j) != 0.0) entries.emplace_back(i, j0 + j, X(i, j));
  }
  SparseMatrix out(B.rows(), B.cols());
  out.setFromTriplets(entries.begin(), entries.end());
  return out;
}

// P⁻¹ when P splits into small independent diagonal blocks (its rows and columns fall into
// groups no nonzero connects; a contact island without joints has one 6 × 6 mass block per
// body): each block is inverted by a full-pivot LU, and the inverse is as sparse as P. nullopt
// when a block is larger than kSmallBlock or singular (the general path then reports it).
constexpr Eigen::Index kSmallBlock = 8;

std::optional<SparseMatrix> small_block_inverse(const SparseMatrix& P) {
  const Eigen::Index n = P.rows();
  std::vector<Eigen::Index> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](Eigen::Index i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (Eigen::Index j = 0; j < P.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(P, j); it; ++it) parent[root(it.row())] = root(j);
  std::vector<Eigen::Index> size(static_cast<std::size_t>(n), 0);
  for (Eigen::Index i = 0; i < n; ++i)
    if (++size[root(i)] > kSmallBlock) return std::nullopt;  // before any block is built
  std::vector<std::vector<Eigen::Index>> blocks(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) blocks[root(i)].push_back(i);  // ascending within a block
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(P.nonZeros()));
  for (const auto& block : blocks) {
    const auto b = static_cast<Eigen::Index>(block.size());
    if (b == 0) continue;
    DenseMatrix A(b, b);
    for (Eigen::Index c = 0; c < b; ++c)
      for (Eigen::Index r = 0; r < b; ++r) A(r, c) = P.coeff(block[r], block[c]);
    const Eigen::FullPivLU<DenseMatrix> lu(A);
    if (!lu.isInvertible()) return std::nullopt;
    const DenseMatrix inverse = lu.inverse();
    for (Eigen::Index c = 0; c < b; ++c)
      for (Eigen::Index r = 0; r < b; ++r)
        if (inverse(r, c) != 0.0) entries.emplace_back(block[r], block[c], inverse(r, c));
  }
  SparseMatrix inverse(n, n);
  inverse.setFromTriplets(entries.begin(), entries.end());
  return inverse;
}

std::string singular_message(const std::vector<int>& rows) {
  return fmt::format("P is singular: rows {} depend on the others", fmt::join(rows, ", "));
}

bool regularization_ok(const MixedLcpOptions& options, Eigen::Index n, MixedLcpResult& out) {
  if (options.regularization.size() == 0) return false;
  if (options.regularization.size() != n || !options.regularization.allFinite()) {
    out.lcp.status = LcpStatus::invalid_input;
    out.lcp.message = fmt::format("regularization has {} entries, expected {} finite ones",
                                  options.regularization.size(), n);
    return false;
  }
  return true;
}

MixedLcpResult solve_mixed(const MixedLcpProblem& problem, const MixedLcpOptions& options) {
  MixedLcpResult out;
  if (std::string why = validate_mixed(problem); !why.empty()) {
    out.lcp.message = why;
    return out;
  }
  const Eigen::Index n = problem.u.size();
  DenseMatrix P = problem.P;
  Equilibrated eq = equilibrate(P);
  Eigen::FullPivLU<DenseMatrix> lu;
  if (options.singular_tolerance > 0.0) lu.setThreshold(options.singular_tolerance);
  lu.compute(eq.P_hat);
  if (lu.rank() < n) {
    out.singular_rows = dependent_rows(problem.P, options.singular_tolerance);
    if (!regularization_ok(options, n, out)) {
      if (out.lcp.message.empty()) out.lcp.message = singular_message(out.singular_rows);
      return out;
    }
    P.diagonal() += options.regularization;
    eq = equilibrate(P);
    lu.compute(eq.P_hat);
    out.regularized = true;
    if (lu.rank() < n) {
      out.lcp.message = singular_message(out.singular_rows) + ", even regularized";
      return out;
    }
  }
  // P⁻¹ b = C P̂⁻¹ R b
  auto solve = [&](const auto& b) -> DenseMatrix {
    return eq.col_scale.asDiagonal() * lu.solve(eq.row_scale.asDiagonal() * b);
  };
  // (a problem without complementarity rows has an n × 0 Q: nothing to solve for)
  const DenseMatrix PinvQ = problem.Q.cols() > 0 ? solve(problem.Q) : DenseMatrix(n, 0);
  const Vector Pinvu = n > 0 ? Vector(solve(problem.u)) : Vector();
  solve_reduced(problem, PinvQ, Pinvu, options, out);
  return out;
}

MixedLcpResult solve_mixed(const SparseMixedLcpProblem& problem, const MixedLcpOptions& options) {
  MixedLcpResult out;
  if (std::string why = validate_mixed(problem); !why.empty()) {
    out.lcp.message = why;
    return out;
  }
  const Eigen::Index n = problem.u.size();
  if (const std::optional<SparseMatrix> Pinv = small_block_inverse(problem.P)) {
    const SparseMatrix PinvQ = *Pinv * problem.Q;
    solve_reduced(problem, PinvQ, Vector(*Pinv * problem.u), options, out);
    return out;
  }
  SparseMatrix P = problem.P;
  P.makeCompressed();
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> lu;
  bool factored = true;
  if (n > 0) {
    lu.compute(P);
    factored = lu.info() == Eigen::Success;
    if (factored) {
      // SparseLU can miss near-singularity: require a tiny residual on a test solve
      const Vector probe = Vector::Ones(n);
      const Vector b = P * probe;
      const Vector x = lu.solve(b);
      factored = x.allFinite() && (P * x - b).lpNorm<Eigen::Infinity>() <=
                                      1e-8 * std::max(b.lpNorm<Eigen::Infinity>(), kTiny);
    }
  }
  if (!factored) {
    // singular or nearly so: the dense path detects the dependent rows and regularizes
    const MixedLcpProblem dense{DenseMatrix(problem.P),
                                DenseMatrix(problem.Q),
                                DenseMatrix(problem.K),
                                DenseMatrix(problem.S),
                                problem.u,
                                problem.v,
                                problem.name};
    return solve_mixed(dense, options);
  }
  SparseMatrix PinvQ(n, problem.Q.cols());
  Vector Pinvu(n);
  if (n > 0) {
    if (problem.Q.cols() > 0) PinvQ = solve_columns(lu, problem.Q);
    Pinvu = lu.solve(problem.u);
  }
  solve_reduced(problem, PinvQ, Pinvu, options, out);
  return out;
}

// the reduction's time: the whole solve but the reduced LCP's own
template <typename Problem>
MixedLcpResult timed(const Problem& problem, const MixedLcpOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  MixedLcpResult out = solve_mixed(problem, options);
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.reduce_seconds = std::max(0.0, total - out.lcp.seconds);
  return out;
}

}  // namespace

MixedLcpResult solve_mixed_lcp(const MixedLcpProblem& problem, const MixedLcpOptions& options) {
  return timed(problem, options);
}

MixedLcpResult solve_mixed_lcp(const SparseMixedLcpProblem& problem,
                               const MixedLcpOptions& options) {
  return timed(problem, options);
}

LcpProblem reduce_mixed_lcp(const MixedLcpProblem& problem) {
  if (std::string why = validate_mixed(problem); !why.empty()) throw Error(why);
  const Equilibrated eq = equilibrate(problem.P);
  Eigen::FullPivLU<DenseMatrix> lu(eq.P_hat);
  if (lu.rank() < problem.P.rows()) throw Error(singular_message(dependent_rows(problem.P, 0.0)));
  auto solve = [&](const auto& b) -> DenseMatrix {
    return eq.col_scale.asDiagonal() * lu.solve(eq.row_scale.asDiagonal() * b);
  };
  LcpProblem reduced;
  reduced.M = DenseMatrix(problem.S) - problem.K * solve(problem.Q);
  reduced.q = problem.v - problem.K * Vector(solve(problem.u));
  reduced.name = problem.name;
  return reduced;
}

}  // namespace pivot::lcp
