// Long file: to be split into one file per concept (issue #25, in progress).
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

#include "pivot/lcp/lcp_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <vector>

namespace pivot::lcp {
namespace {

namespace fs = std::filesystem;

// ─── errors ──────────────────────────────────────────────────────────────────────────────────

[[noreturn]] void fail(const fs::path& path, int line, const std::string& what) {
  if (line > 0) throw Error(fmt::format("{}:{}: {}", path.string(), line, what));
  throw Error(fmt::format("{}: {}", path.string(), what));
}

/// a token, shortened and made printable for an error message
std::string quoted(std::string_view token) {
  constexpr std::size_t kMax = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < token.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f)
      out += static_cast<char>(c);
    else
      out += fmt::format("\\x{:02x}", c);
  }
  if (token.size() > kMax) out += "…";
  return out + "'";
}

// ─── the file as lines and tokens ────────────────────────────────────────────────────────────

std::string read_text(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec))
    fail(path, 0, "cannot read: it is a directory, not a problem file");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    fail(path, 0,
         fmt::format("cannot open the problem file: {}",
                     err ? std::strerror(err) : "unknown error"));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) fail(path, 0, "cannot read the problem file (I/O error)");
  return std::move(buffer).str();
}

/// the lines of text, without their end-of-line characters ("\n" or "\r\n")
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::vector<std::string_view> split_tokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

// ─── numbers ─────────────────────────────────────────────────────────────────────────────────

enum class NumberStatus { ok, not_a_number, not_finite };

/// parses a whole token as a double (a leading '+' is accepted, as by fscanf)
NumberStatus parse_double(std::string_view token, double& value) {
  if (!token.empty() && token.front() == '+') {
    token.remove_prefix(1);
    if (!token.empty() && (token.front() == '+' || token.front() == '-'))
      return NumberStatus::not_a_number;
  }
  if (token.empty()) return NumberStatus::not_a_number;
  const char* first = token.data();
  const char* last = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(first, last, value, std::chars_format::general);
  if (ptr != last) return NumberStatus::not_a_number;
  if (ec == std::errc::invalid_argument) return NumberStatus::not_a_number;
  if (ec == std::errc::result_out_of_range) {
    // overflow is an error; underflow (below the smallest subnormal) reads as strtod reads it
    const std::string copy(token);
    char* end = nullptr;
    value = std::strtod(copy.c_str(), &end);
    if (std::isinf(value)) return NumberStatus::not_finite;
    return NumberStatus::ok;
  }
  if (!std::isfinite(value)) return NumberStatus::not_finite;
  return NumberStatus::ok;
}

double to_double(const fs::path& path, int line, std::string_view token, const std::string& what) {
  double value = 0.0;
  switch (parse_double(token, value)) {
    case NumberStatus::ok:
      return value;
    case NumberStatus::not_finite:
      fail(path, line,
           fmt::format("non-finite value {} ({}): NaN and infinite entries are not allowed",
                       quoted(token), what));
    case NumberStatus::not_a_number:
      break;
  }
  fail(path, line, fmt::format("expected a number ({}), found {}", what, quoted(token)));
}

long long to_integer(const fs::path& path, int line, std::string_view token,
                     const std::string& what) {
  std::string_view digits = token;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  long long value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size())
    fail(path, line, fmt::format("expected {} (an integer), found {}", what, quoted(token)));
  return value;
}

/// sizes are checked against this before anything is allocated
constexpr long long kMaxSize = 1'000'000;

// ─── a token stream with line numbers (sparse blocks, mixed files) ───────────────────────────

class TokenStream {
 public:
  /// the tokens of lines[first_line…] (0-based), each with its line number
  TokenStream(const fs::path& path, const std::vector<std::string_view>& lines,
              std::size_t first_line)
      : path_(path), end_line_(static_cast<int>(lines.size()) + 1) {
    for (std::size_t l = first_line; l < lines.size(); ++l)
      for (auto token : split_tokens(lines[l])) tokens_.push_back({token, static_cast<int>(l) + 1});
  }

  /// the next token; fails with "unexpected end of file: expected <what>" at the end
  std::string_view next(const std::string& what) {
    if (pos_ >= tokens_.size())
      fail(path_, end_line_, fmt::format("unexpected end of file: expected {}", what));
    current_ = tokens_[pos_].line;
    return tokens_[pos_++].text;
  }
  double number(const std::string& what) {
    const auto token = next(what);
    return to_double(path_, current_, token, what);
  }
  long long integer(const std::string& what) {
    const auto token = next(what);
    return to_integer(path_, current_, token, what);
  }
  /// fails at the end of the file unless `count` more tokens are there (checked before allocating)
  void require(long long count, const std::string& what) const {
    if (count > static_cast<long long>(tokens_.size() - pos_))
      fail(path_, end_line_,
           fmt::format("unexpected end of file: expected {} ({} numbers, {} left)", what, count,
                       tokens_.size() - pos_));
  }
  /// the line of the last token read (1-based)
  int line() const { return current_; }
  /// the line of the next token (or the end of the file)
  int next_line() const { return pos_ < tokens_.size() ? tokens_[pos_].line : end_line_; }
  const fs::path& path() const { return path_; }
  [[noreturn]] void fail_here(const std::string& what) const { fail(path_, current_, what); }

 private:
  struct Token {
    std::string_view text;
    int line;
  };
  const fs::path& path_;
  int end_line_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int current_ = 0;
};

// ─── NumericsMatrix storages ─────────────────────────────────────────────────────────────────

/// the SparseBlockStructuredMatrix text (SBM_write_in_file) of a rows × cols matrix, to dense
DenseMatrix read_sparse_block(TokenStream& in, long long rows, long long cols,
                              const std::string& name) {
  const auto nbblocks = in.integer(fmt::format("the number of blocks of {}", name));
  if (nbblocks < 0)
    in.fail_here(fmt::format("the number of blocks of {} is negative ({})", name, nbblocks));
  DenseMatrix M = DenseMatrix::Zero(rows, cols);
  if (nbblocks == 0) return M;  // Siconos writes nothing more for an empty matrix
  const auto blocknumber0 = in.integer(fmt::format("the number of block rows of {}", name));
  if (blocknumber0 < 1 || blocknumber0 > rows)
    in.fail_here(fmt::format("the number of block rows of {} must be in 1..{}, found {}", name,
                             rows, blocknumber0));
  const auto blocknumber1 = in.integer(fmt::format("the number of block columns of {}", name));
  if (blocknumber1 < 1 || blocknumber1 > cols)
    in.fail_here(fmt::format("the number of block columns of {} must be in 1..{}, found {}", name,
                             cols, blocknumber1));
  auto read_sizes = [&](long long count, long long total, const char* kind) {
    std::vector<long long> sizes;
    long long previous = 0;
    for (long long i = 0; i < count; ++i) {
      const auto s =
          in.integer(fmt::format("the cumulative size of block {} {} of {}", kind, i, name));
      if (s <= previous || s > total)
        in.fail_here(fmt::format(
            "the cumulative block {} sizes of {} must increase up to {}, found {} after {}", kind,
            name, total, s, previous));
      sizes.push_back(s);
      previous = s;
    }
    if (previous != total)
      in.fail_here(fmt::format("the block {} sizes of {} add up to {}, expected {}", kind, name,
                               previous, total));
    return sizes;
  };
  const auto blocksize0 = read_sizes(blocknumber0, rows, "row");
  const auto blocksize1 = read_sizes(blocknumber1, cols, "column");
  const auto filled1 = in.integer(fmt::format("filled1 of {} (block rows + 1)", name));
  if (filled1 != blocknumber0 + 1)
    in.fail_here(fmt::format("filled1 of {} must be the number of block rows + 1 = {}, found {}",
                             name, blocknumber0 + 1, filled1));
  const auto filled2 = in.integer(fmt::format("filled2 of {} (the number of blocks)", name));
  if (filled2 != nbblocks)
    in.fail_here(fmt::format("filled2 of {} must be the number of blocks {}, found {}", name,
                             nbblocks, filled2));
  if (nbblocks > blocknumber0 * blocknumber1)
    in.fail_here(fmt::format("{} has {} blocks but only {} × {} block positions", name, nbblocks,
                             blocknumber0, blocknumber1));
  std::vector<long long> index1(static_cast<std::size_t>(filled1));
  for (long long i = 0; i < filled1; ++i) {
    index1[i] = in.integer(fmt::format("row pointer {} of the blocks of {}", i, name));
    const long long lower = i == 0 ? 0 : index1[i - 1];
    if ((i == 0 && index1[i] != 0) || index1[i] < lower || index1[i] > nbblocks)
      in.fail_here(fmt::format(
          "row pointer {} of the blocks of {} must be in {}..{} (and 0 first), found {}", i, name,
          lower, nbblocks, index1[i]));
  }
  if (index1.back() != nbblocks)
    in.fail_here(fmt::format("the last row pointer of the blocks of {} must be {}, found {}", name,
                             nbblocks, index1.back()));
  std::vector<long long> index2(static_cast<std::size_t>(filled2));
  for (long long i = 0; i < filled2; ++i) {
    index2[i] = in.integer(fmt::format("the block column of block {} of {}", i, name));
    if (index2[i] < 0 || index2[i] >= blocknumber1)
      in.fail_here(fmt::format("the block column of block {} of {} must be in 0..{}, found {}", i,
                               name, blocknumber1 - 1, index2[i]));
  }
  std::vector<char> seen(static_cast<std::size_t>(blocknumber0 * blocknumber1), 0);
  for (long long br = 0; br < blocknumber0; ++br) {
    const long long r0 = br == 0 ? 0 : blocksize0[br - 1];
    const long long nr = blocksize0[br] - r0;
    for (long long b = index1[br]; b < index1[br + 1]; ++b) {
      const long long bc = index2[b];
      const long long c0 = bc == 0 ? 0 : blocksize1[bc - 1];
      const long long nc = blocksize1[bc] - c0;
      char& mark = seen[static_cast<std::size_t>(br * blocknumber1 + bc)];
      if (mark) in.fail_here(fmt::format("block ({}, {}) of {} is given twice", br, bc, name));
      mark = 1;
      const auto number = in.integer(fmt::format("the number of block {} of {}", b, name));
      if (number != b)
        in.fail_here(fmt::format("expected block number {} of {}, found {}", b, name, number));
      in.require(nr * nc, fmt::format("the {} × {} values of block {} of {}", nr, nc, b, name));
      for (long long j = 0; j < nc; ++j)
        for (long long i = 0; i < nr; ++i)
          M(r0 + i, c0 + j) = in.number(
              fmt::format("entry ({}, {}) of block {} of {}, column-major", i, j, b, name));
    }
  }
  return M;
}

/// a NumericsMatrix (NM_write_in_file): storage, rows, columns, then the storage's data
DenseMatrix read_numerics_matrix(TokenStream& in, const std::string& name) {
  const auto storage =
      in.integer(fmt::format("the storage type of {} (0 dense, 1 sparse block)", name));
  const int storage_line = in.line();
  const auto rows = in.integer(fmt::format("the number of rows of {}", name));
  if (rows < 1 || rows > kMaxSize)
    in.fail_here(
        fmt::format("the number of rows of {} must be in 1..{}, found {}", name, kMaxSize, rows));
  const auto cols = in.integer(fmt::format("the number of columns of {}", name));
  if (cols < 1 || cols > kMaxSize)
    in.fail_here(fmt::format("the number of columns of {} must be in 1..{}, found {}", name,
                             kMaxSize, cols));
  if (storage == 0) {
    const auto rows2 = in.integer(fmt::format("the number of rows of {} (repeated)", name));
    const auto cols2 = in.integer(fmt::format("the number of columns of {} (repeated)", name));
    if (rows2 != rows || cols2 != cols)
      in.fail_here(fmt::format("the size of {} is given as {} × {} and then as {} × {}", name, rows,
                               cols, rows2, cols2));
    in.require(rows * cols,
               fmt::format("the {} × {} entries of {}, column-major", rows, cols, name));
    DenseMatrix M(rows, cols);
    for (long long j = 0; j < cols; ++j)
      for (long long i = 0; i < rows; ++i)
        M(i, j) = in.number(fmt::format("entry ({}, {}) of {}, stored column-major", i, j, name));
    return M;
  }
  if (storage == 1) return read_sparse_block(in, rows, cols, name);
  if (storage == 2)
    fail(in.path(), storage_line,
         fmt::format(
             "unsupported feature: storage type 2 (compressed sparse) for {}; only 0 (dense) and "
             "1 (sparse block) can be read",
             name));
  fail(in.path(), storage_line,
       fmt::format("expected the storage type of {} (0 dense, 1 sparse block), found {}", name,
                   storage));
}

// ─── line-oriented helpers (dense LCP files) ─────────────────────────────────────────────────

std::string_view line_at(const fs::path& path, const std::vector<std::string_view>& lines,
                         std::size_t index, const std::string& what) {
  if (index >= lines.size())
    fail(path, static_cast<int>(lines.size()) + 1,
         fmt::format("unexpected end of file: expected {}", what));
  return lines[index];
}

/// a line holding exactly one integer
long long integer_line(const fs::path& path, const std::vector<std::string_view>& lines,
                       std::size_t index, const std::string& what) {
  const auto tokens = split_tokens(line_at(path, lines, index, what));
  const int line = static_cast<int>(index) + 1;
  if (tokens.empty()) fail(path, line, fmt::format("expected {}, found an empty line", what));
  const long long value = to_integer(path, line, tokens[0], what);
  if (tokens.size() > 1)
    fail(path, line,
         fmt::format("expected {} alone on the line, found {} more items starting with {}", what,
                     tokens.size() - 1, quoted(tokens[1])));
  return value;
}

/// a line holding exactly `count` numbers
void numbers_line(const fs::path& path, const std::vector<std::string_view>& lines,
                  std::size_t index, long long count, const std::string& what, double* out) {
  const auto tokens =
      split_tokens(line_at(path, lines, index, fmt::format("{} ({} numbers)", what, count)));
  const int line = static_cast<int>(index) + 1;
  if (static_cast<long long>(tokens.size()) != count)
    fail(path, line, fmt::format("expected {} numbers ({}), found {}", count, what, tokens.size()));
  for (long long k = 0; k < count; ++k)
    out[k] = to_double(path, line, tokens[k], fmt::format("entry {} of {}", k, what));
}

void check_size_against(const fs::path& path, int line, long long value, long long n,
                        const char* what) {
  if (value != n) fail(path, line, fmt::format("expected {} = n = {}, found {}", what, n, value));
}

}  // namespace

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
