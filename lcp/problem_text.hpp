#pragma once
// Problem files as text (internal): errors with file and line, lines and tokens, numbers parsed
// like Siconos' fscanf reader, a token stream with line numbers, and the NumericsMatrix
// storages (dense and sparse block). Shared by lcp_io.cpp (LCP files) and mixed_lcp_io.cpp
// (mixed LCP files); the formats are described there.

#include <fmt/format.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "pivot/core/error.hpp"
#include "pivot/core/number_text.hpp"
#include "pivot/lcp/lcp_problem.hpp"

namespace pivot::lcp::detail {

namespace fs = std::filesystem;

// ─── errors ──────────────────────────────────────────────────────────────────────────────────

[[noreturn]] inline void fail(const fs::path& path, int line, const std::string& what) {
  if (line > 0) throw Error(fmt::format("{}:{}: {}", path.string(), line, what));
  throw Error(fmt::format("{}: {}", path.string(), what));
}

/// a token, shortened and made printable for an error message
inline std::string quoted(std::string_view token) {
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

/// the largest problem file read, bytes (1 GiB)
constexpr std::size_t kMaxProblemBytes = std::size_t{1} << 30;

inline std::string read_text(const fs::path& path) {
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
  // at most kMaxProblemBytes + 1 bytes: a larger or endless input (/dev/zero) is refused
  std::string text;
  std::vector<char> chunk(std::size_t{1} << 16);
  while (in && text.size() <= kMaxProblemBytes) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) fail(path, 0, "cannot read the problem file (I/O error)");
  if (text.size() > kMaxProblemBytes)
    fail(path, 0, fmt::format("the file is larger than the limit of {} MiB for a problem file",
                              kMaxProblemBytes >> 20));
  return text;
}

/// the lines of text, without their end-of-line characters ("\n" or "\r\n")
inline std::vector<std::string_view> split_lines(std::string_view text) {
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

inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

inline std::vector<std::string_view> split_tokens(std::string_view line) {
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
inline NumberStatus parse_double(std::string_view token, double& value) {
  // overflow is an error; underflow (below the smallest subnormal) reads as strtod reads it
  const pivot::ParsedNumber n = pivot::parse_number(token);
  value = n.value;
  switch (n.status) {
    case pivot::NumberStatus::ok:
      return std::isfinite(value) ? NumberStatus::ok : NumberStatus::not_finite;
    case pivot::NumberStatus::underflow:
      return NumberStatus::ok;
    case pivot::NumberStatus::overflow:
      return NumberStatus::not_finite;
    case pivot::NumberStatus::not_a_number:
      break;
  }
  return NumberStatus::not_a_number;
}

inline double to_double(const fs::path& path, int line, std::string_view token,
                        const std::string& what) {
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

inline long long to_integer(const fs::path& path, int line, std::string_view token,
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
/// the most entries a matrix read from a file may have (it is stored dense): 2^28 doubles,
/// 2 GiB, e.g. n = 16384 for an n × n M; checked before the matrix is allocated
constexpr long long kMaxDenseEntries = 1LL << 28;

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

/// fails at the current token unless a rows × cols dense matrix is within kMaxDenseEntries
inline void check_dense_size(const TokenStream& in, long long rows, long long cols,
                             const std::string& name) {
  if (rows > kMaxDenseEntries / std::max(1LL, cols))
    in.fail_here(fmt::format("{} is {} × {}: {:.3g} GB as a dense matrix, more than the limit of "
                             "{} entries (2 GiB)",
                             name, rows, cols,
                             8.0 * static_cast<double>(rows) * static_cast<double>(cols) / 1e9,
                             kMaxDenseEntries));
}

// ─── NumericsMatrix storages ─────────────────────────────────────────────────────────────────

/// the SparseBlockStructuredMatrix text (SBM_write_in_file) of a rows × cols matrix, to dense
inline DenseMatrix read_sparse_block(TokenStream& in, long long rows, long long cols,
                                     const std::string& name) {
  const auto nbblocks = in.integer(fmt::format("the number of blocks of {}", name));
  if (nbblocks < 0)
    in.fail_here(fmt::format("the number of blocks of {} is negative ({})", name, nbblocks));
  // checked before anything of rows × cols is allocated: a 28-byte file declaring n = 10⁶
  // must not allocate n × n here
  check_dense_size(in, rows, cols, name);
  if (nbblocks == 0) return DenseMatrix::Zero(rows, cols);  // Siconos writes nothing more
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
  // the values the blocks need must be in the file before the matrix is allocated
  long long values = 0;
  for (long long br = 0; br < blocknumber0; ++br) {
    const long long nr = blocksize0[br] - (br == 0 ? 0 : blocksize0[br - 1]);
    for (long long b = index1[br]; b < index1[br + 1]; ++b) {
      const long long bc = index2[b];
      values += 1 + nr * (blocksize1[bc] - (bc == 0 ? 0 : blocksize1[bc - 1]));
    }
  }
  in.require(values, fmt::format("the numbers and values of the {} blocks of {}", nbblocks, name));
  DenseMatrix M = DenseMatrix::Zero(rows, cols);
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
inline DenseMatrix read_numerics_matrix(TokenStream& in, const std::string& name) {
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
  check_dense_size(in, rows, cols, name);
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

inline std::string_view line_at(const fs::path& path, const std::vector<std::string_view>& lines,
                                std::size_t index, const std::string& what) {
  if (index >= lines.size())
    fail(path, static_cast<int>(lines.size()) + 1,
         fmt::format("unexpected end of file: expected {}", what));
  return lines[index];
}

/// a line holding exactly one integer
inline long long integer_line(const fs::path& path, const std::vector<std::string_view>& lines,
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
inline void numbers_line(const fs::path& path, const std::vector<std::string_view>& lines,
                         std::size_t index, long long count, const std::string& what, double* out) {
  const auto tokens =
      split_tokens(line_at(path, lines, index, fmt::format("{} ({} numbers)", what, count)));
  const int line = static_cast<int>(index) + 1;
  if (static_cast<long long>(tokens.size()) != count)
    fail(path, line, fmt::format("expected {} numbers ({}), found {}", count, what, tokens.size()));
  for (long long k = 0; k < count; ++k)
    out[k] = to_double(path, line, tokens[k], fmt::format("entry {} of {}", k, what));
}

inline void check_size_against(const fs::path& path, int line, long long value, long long n,
                               const char* what) {
  if (value != n) fail(path, line, fmt::format("expected {} = n = {}, found {}", what, n, value));
}

}  // namespace pivot::lcp::detail
