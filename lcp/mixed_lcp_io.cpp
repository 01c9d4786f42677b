// Reading mixed LCP problem files (Siconos numerics `.dat` text format).
//
// Every error is a pivot::Error whose message reads "FILE:LINE: what was expected, what was found"
// (or "FILE: what" when no single line is to blame).
//
// ─── Mixed LCP files (read_mixed_lcp_file) ───────────────────────────────────────────────────
//
// The Siconos MixedLinearComplementarityProblem text format (mixedLinearComplementarity_
// printInFile), read as a whitespace-separated token stream, like Siconos' own fscanf reader:
//
//   isStorageType1  isStorageType2      each 0 or 1, at least one is 1
//   n  m                                n equality rows / free variables, m complementarity rows
//   if storage type 1 (one matrix M of size n + m, and q):
//     blocksRows     0 = r₀ < r₁ < … < r_k = n + m    row blocks (read until the value n + m)
//     blocksIsComp   k values, 0 = equality block, 1 = complementarity block
//     M              a NumericsMatrix: storage (0 dense | 1 sparse block), rows, columns, and for
//                    dense storage "rows columns" again then rows·columns numbers COLUMN-MAJOR
//                    (Siconos breaks the text line after every `columns` values; lines are not
//                    significant here); for sparse block storage the block format above
//     q              `columns` numbers
//   if storage type 2 (the four blocks, each written ROW by ROW):
//     A (n × n), B (m × m), C (n × m), D (m × n), a (n), b (m)
//   the rest         free text (several files append a reference solution), ignored
//
// Siconos' equations are  A u + C v + a = 0,  w = D u + B v + b,  0 ≤ v ⊥ w ≥ 0, i.e. in
// the notation of lcp_problem.hpp  P = A, Q = C, K = D, S = B, u = a, v = b, x = u, z = v.
// With storage type 1 the rows of the equality blocks (and the variables of the same indices)
// form x, those of the complementarity blocks form z, each in their order in M; for the usual
// layout blocksRows = 0 n n+m, blocksIsComp = 0 1 that is P = M(0:n, 0:n), Q = M(0:n, n:), ….
// When both storage types are present they must agree exactly (they are printed from the same
// numbers); storage type 1 is then the one used.
//
// Checked by hand on m2n1_mlcp.dat: n = 1, m = 2, M = [1 2 0; 0 1 4/3; 0 0 1] (its columns are
// the text lines 11–13), q = (−1, 1, −3); the ABCD part repeats it: A = 1, B = [1 4/3; 0 1],
// C = [2 0], D = [0; 0], a = −1, b = (1, −3). Then w₂ = z₂ − 3 ⊥ z₂ gives z₂ = 3, w₁ =
// z₁ + 5 ⊥ z₁ gives z₁ = 0, w₁ = 5, and x = 1 − 2 z₁ = 1: the appended reference
// "0 3 5 0" is (z, w).
//
// Unsupported (a pivot::Error names the feature): the compressed sparse storage (2) of a
// NumericsMatrix, and a rectangular M (Rectangular_mlcp.dat: more equality rows than free
// variables), which the MixedLcpProblem type, with its square P, cannot represent.

#include <fmt/format.h>

#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/problem_text.hpp"

namespace pivot::lcp {

using namespace detail;

// ─── mixed LCP ───────────────────────────────────────────────────────────────────────────────

MixedLcpProblem read_mixed_lcp_file(const std::filesystem::path& path) {
  const std::string text = read_text(path);
  const auto lines = split_lines(text);
  TokenStream in(path, lines, 0);

  const auto st1 = in.integer("isStorageType1 (0 or 1)");
  if (st1 != 0 && st1 != 1)
    in.fail_here(fmt::format("expected isStorageType1 = 0 or 1, found {}", st1));
  const auto st2 = in.integer("isStorageType2 (0 or 1)");
  if (st2 != 0 && st2 != 1)
    in.fail_here(fmt::format("expected isStorageType2 = 0 or 1, found {}", st2));
  if (st1 == 0 && st2 == 0)
    in.fail_here("neither storage type 1 (M, q) nor storage type 2 (A, B, C, D) is given");
  const auto n = in.integer("n, the number of equality rows");
  if (n < 0 || n > kMaxSize) in.fail_here(fmt::format("n must be in 0..{}, found {}", kMaxSize, n));
  const auto m = in.integer("m, the number of complementarity rows");
  if (m < 0 || m > kMaxSize) in.fail_here(fmt::format("m must be in 0..{}, found {}", kMaxSize, m));
  if (n + m == 0) in.fail_here("n + m must be positive, found n = 0 and m = 0");
  const long long size = n + m;

  MixedLcpProblem problem;
  problem.name = path.stem().string();

  DenseMatrix M1;
  Vector q1;
  std::vector<Eigen::Index> eq_rows, comp_rows;
  if (st1 == 1) {
    // blocksRows: 0 = r0 < r1 < ... < rk = n + m
    std::vector<long long> blocks_rows{in.integer("blocksRows[0] = 0")};
    if (blocks_rows[0] != 0)
      in.fail_here(fmt::format("expected blocksRows[0] = 0, found {}", blocks_rows[0]));
    while (blocks_rows.back() < size) {
      const auto r = in.integer(fmt::format("blocksRows[{}]", blocks_rows.size()));
      if (r <= blocks_rows.back() || r > size)
        in.fail_here(fmt::format("blocksRows must increase up to n + m = {}, found {} after {}",
                                 size, r, blocks_rows.back()));
      blocks_rows.push_back(r);
    }
    const std::size_t nb_blocks = blocks_rows.size() - 1;
    for (std::size_t b = 0; b < nb_blocks; ++b) {
      const auto is_comp =
          in.integer(fmt::format("blocksIsComp[{}] (0 equality, 1 complementarity)", b));
      if (is_comp != 0 && is_comp != 1)
        in.fail_here(fmt::format("expected blocksIsComp[{}] = 0 or 1, found {}", b, is_comp));
      for (long long r = blocks_rows[b]; r < blocks_rows[b + 1]; ++r)
        (is_comp ? comp_rows : eq_rows).push_back(static_cast<Eigen::Index>(r));
    }
    if (static_cast<long long>(eq_rows.size()) != n)
      in.fail_here(
          fmt::format("the equality blocks cover {} rows, expected n = {}", eq_rows.size(), n));

    const int matrix_line = in.next_line();
    M1 = read_numerics_matrix(in, "M");
    if (M1.rows() != M1.cols())
      fail(path, matrix_line,
           fmt::format("unsupported feature: rectangular M ({} rows × {} columns, n = {}, m = {}); "
                       "only square "
                       "mixed LCPs (as many equality rows as free variables) can be read",
                       M1.rows(), M1.cols(), n, m));
    if (M1.rows() != size)
      fail(path, matrix_line,
           fmt::format("M is {} × {}, expected n + m = {}", M1.rows(), M1.cols(), size));
    in.require(size, "q");
    q1.resize(size);
    for (long long i = 0; i < size; ++i) q1(i) = in.number(fmt::format("entry {} of q", i));

    problem.P = M1(eq_rows, eq_rows);
    problem.Q = M1(eq_rows, comp_rows);
    problem.K = M1(comp_rows, eq_rows);
    problem.S = M1(comp_rows, comp_rows);
    problem.u = q1(eq_rows);
    problem.v = q1(comp_rows);
  }

  if (st2 == 1) {
    auto read_rows = [&](long long rows, long long cols, const char* name) {
      in.require(rows * cols,
                 fmt::format("the {} × {} entries of {}, row by row", rows, cols, name));
      DenseMatrix X(rows, cols);
      for (long long i = 0; i < rows; ++i)
        for (long long j = 0; j < cols; ++j)
          X(i, j) = in.number(fmt::format("entry ({}, {}) of {}", i, j, name));
      return X;
    };
    auto read_vector = [&](long long count, const char* name) {
      in.require(count, name);
      Vector x(count);
      for (long long i = 0; i < count; ++i)
        x(i) = in.number(fmt::format("entry {} of {}", i, name));
      return x;
    };
    const int first_line = in.next_line();
    DenseMatrix A = read_rows(n, n, "A");
    DenseMatrix B = read_rows(m, m, "B");
    DenseMatrix C = read_rows(n, m, "C");
    DenseMatrix D = read_rows(m, n, "D");
    Vector a = read_vector(n, "a");
    Vector b = read_vector(m, "b");
    if (st1 == 1) {
      auto check = [&](const DenseMatrix& from_m, const DenseMatrix& block, const char* name) {
        for (Eigen::Index i = 0; i < block.rows(); ++i)
          for (Eigen::Index j = 0; j < block.cols(); ++j)
            if (!(from_m(i, j) == block(i, j)))
              fail(path, first_line,
                   fmt::format("storage type 1 (M, q) and storage type 2 (A, B, C, D, a, b) "
                               "disagree: {}({}, {}) "
                               "is {:.17g} in M and {:.17g} in {}",
                               name, i, j, from_m(i, j), block(i, j), name));
      };
      check(problem.P, A, "A");
      check(problem.S, B, "B");
      check(problem.Q, C, "C");
      check(problem.K, D, "D");
      check(problem.u, a, "a");
      check(problem.v, b, "b");
    } else {
      problem.P = std::move(A);
      problem.S = std::move(B);
      problem.Q = std::move(C);
      problem.K = std::move(D);
      problem.u = std::move(a);
      problem.v = std::move(b);
    }
  }
  return problem;
}

}  // namespace pivot::lcp
