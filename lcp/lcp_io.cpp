// Reading and writing LCP and mixed LCP problem files (Siconos numerics `.dat` text format).
//
// Every error is a pivot::Error whose message reads "FILE:LINE: what was expected, what was found"
// (or "FILE: what" when no single line is to blame), so that a caller can print it as is.
//
// ─── LCP files (read_lcp_file) ───────────────────────────────────────────────────────────────
//
//   line 1      n                      problem size, a positive integer
//   line 2      storage                0 = dense, 1 = sparse block (see below), 2 = unsupported
//   line 3      rows                   = n
//   line 4      columns                = n
//   dense storage (0), read line by line:
//   line 5      rows <TAB> columns     = n n
//   lines 6 …   n lines of n numbers   line 5 + j is COLUMN j of M (Siconos writes M column-major)
//   next line   n numbers              q
//   the rest    free text              source and remarks, ignored
//
// Sparse block storage (1, Siconos SparseBlockStructuredMatrix, written by SBM_write_in_file),
// read as a whitespace-separated token stream from line 5 on:
//   nbblocks, blocknumber0, blocknumber1,
//   blocksize0[blocknumber0]   cumulative row counts of the block rows (the last one is n),
//   blocksize1[blocknumber1]   cumulative column counts of the block columns,
//   filled1 (= blocknumber0 + 1), filled2 (= nbblocks),
//   index1_data[filled1]       CSR row pointers over the blocks,
//   index2_data[filled2]       block column of each block,
//   for every block, in order: its number, then its rows × columns values, column-major,
//   then the n numbers of q. Blocks that are not listed are zero.
//
// Unsupported (a pivot::Error names the feature): the compressed sparse storage (2) of a
// NumericsMatrix, and a rectangular M (Rectangular_mlcp.dat: more equality rows than free
// variables), which the MixedLcpProblem type, with its square P, cannot represent.

#include "pivot/lcp/lcp_io.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "pivot/lcp/problem_text.hpp"

namespace pivot::lcp {

using namespace detail;

// ─── LCP ─────────────────────────────────────────────────────────────────────────────────────

LcpProblem read_lcp_file(const std::filesystem::path& path) {
  const std::string text = read_text(path);
  const auto lines = split_lines(text);

  const long long n = integer_line(path, lines, 0, "the problem size n");
  if (n <= 0) fail(path, 1, fmt::format("the problem size n must be positive, found {}", n));
  if (n > kMaxSize)
    fail(path, 1, fmt::format("the problem size n = {} is larger than the limit {}", n, kMaxSize));
  const long long storage =
      integer_line(path, lines, 1, "the storage type (0 dense, 1 sparse block)");
  if (storage == 2)
    fail(path, 2,
         "unsupported feature: storage type 2 (compressed sparse); only 0 (dense) and 1 (sparse "
         "block) "
         "can be read");
  if (storage != 0 && storage != 1)
    fail(path, 2,
         fmt::format("expected the storage type (0 dense, 1 sparse block), found {}", storage));
  check_size_against(path, 3, integer_line(path, lines, 2, "the number of rows of M"), n,
                     "the number of rows of M");
  check_size_against(path, 4, integer_line(path, lines, 3, "the number of columns of M"), n,
                     "the number of columns of M");

  LcpProblem problem;
  problem.name = path.stem().string();
  problem.q.resize(n);

  if (storage == 1) {
    TokenStream in(path, lines, 4);
    problem.M = read_sparse_block(in, n, n, "M");
    in.require(n, "q");
    for (long long i = 0; i < n; ++i) problem.q(i) = in.number(fmt::format("entry {} of q", i));
    return problem;
  }

  {
    const auto tokens = split_tokens(line_at(path, lines, 4, "the size of M as \"rows columns\""));
    if (tokens.size() != 2)
      fail(path, 5,
           fmt::format("expected the size of M as two integers \"{} {}\", found {} items", n, n,
                       tokens.size()));
    check_size_against(path, 5, to_integer(path, 5, tokens[0], "the number of rows of M"), n,
                       "the number of rows of M");
    check_size_against(path, 5, to_integer(path, 5, tokens[1], "the number of columns of M"), n,
                       "the number of columns of M");
  }
  // check the length before allocating n × n numbers
  // n + 1 lines of n numbers need at least n (n + 1) characters: a file too short for that
  // is read line by line into a scratch row, so that the first bad line is reported (and no
  // n × n matrix is allocated for it)
  const std::size_t needed = 5 + static_cast<std::size_t>(n) + 1;
  const bool enough_text =
      static_cast<double>(text.size()) >= static_cast<double>(n) * static_cast<double>(n + 1);
  if (lines.size() < needed || !enough_text) {
    std::vector<double> scratch(static_cast<std::size_t>(n));
    for (std::size_t l = 5; l < std::min(lines.size(), needed); ++l)
      numbers_line(path, lines, l, n,
                   l - 5 < static_cast<std::size_t>(n)
                       ? fmt::format("column {} of M, stored column-major", l - 5)
                       : std::string("q"),
                   scratch.data());
  }
  if (lines.size() < needed) {
    const long long have = static_cast<long long>(lines.size()) - 5;
    const std::string what = have < n ? fmt::format(
                                            "column {} of M ({} numbers; M is stored column-major, "
                                            "one column per line)",
                                            have, n)
                                      : fmt::format("q ({} numbers)", n);
    fail(path, static_cast<int>(lines.size()) + 1,
         fmt::format("unexpected end of file: expected {}", what));
  }
  problem.M.resize(n, n);
  for (long long j = 0; j < n; ++j)
    numbers_line(path, lines, 5 + static_cast<std::size_t>(j), n,
                 fmt::format("column {} of M, stored column-major", j), problem.M.col(j).data());
  numbers_line(path, lines, 5 + static_cast<std::size_t>(n), n, "q", problem.q.data());
  return problem;
}

void write_lcp_file(const std::filesystem::path& path, const LcpProblem& problem,
                    const std::string& remark) {
  const auto n = problem.M.rows();
  if (n <= 0 || problem.M.cols() != n)
    fail(path, 0,
         fmt::format("cannot write: M must be square and non-empty, it is {} × {}",
                     problem.M.rows(), problem.M.cols()));
  if (problem.q.size() != n)
    fail(path, 0,
         fmt::format("cannot write: q has {} entries, M is {} × {}", problem.q.size(), n, n));
  if (!problem.M.allFinite() || !problem.q.allFinite())
    fail(path, 0,
         "cannot write: M or q has a NaN or infinite entry, which the format does not allow");

  std::string out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{}\n0\n{}\n{}\n{}\t{}\n", n, n, n, n, n);
  auto write_row = [&](auto&& values) {
    for (Eigen::Index i = 0; i < values.size(); ++i) {
      if (i > 0) out += ' ';
      fmt::format_to(it, "{:.17g}", values(i));
    }
    out += '\n';
  };
  for (Eigen::Index j = 0; j < n; ++j) write_row(problem.M.col(j));
  write_row(problem.q);
  if (!remark.empty()) {
    out += '\n';
    out += remark;
    if (remark.back() != '\n') out += '\n';
  }

  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    const int err = errno;
    fail(path, 0,
         fmt::format("cannot open for writing: {}", err ? std::strerror(err) : "unknown error"));
  }
  file.write(out.data(), static_cast<std::streamsize>(out.size()));
  file.close();
  if (!file) fail(path, 0, "cannot write the problem file (I/O error)");
}

}  // namespace pivot::lcp
