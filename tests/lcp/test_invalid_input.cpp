// Invalid input: bad problems give status invalid_input with a message that says what is wrong;
// bad files give a pivot::Error naming the file and the line; writing then reading round-trips.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>

#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/mixed_lcp.hpp"
#include "lcp_test_support.hpp"
#include "support/test_data.hpp"

using namespace pivot::lcp;
using namespace pivot::test;
namespace fs = std::filesystem;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// the message mentions at least one of the words (case-insensitive)
bool mentions(const std::string& message, std::initializer_list<const char*> words) {
  const std::string m = lower(message);
  return std::any_of(words.begin(), words.end(),
                     [&](const char* w) { return m.find(w) != std::string::npos; });
}

void check_invalid(const LcpResult& result, std::initializer_list<const char*> words) {
  INFO("status " << to_string(result.status) << ", message: \"" << result.message << "\"");
  CHECK(result.status == LcpStatus::invalid_input);
  CHECK(!result.message.empty());
  CHECK(mentions(result.message, words));
  CHECK_FALSE(result.ok());
}

LcpProblem good_problem() {
  std::mt19937 rng(5);
  LcpProblem p;
  p.M = random_spd(rng, 3);
  p.q = random_vector(rng, 3);
  p.name = "good";
  return p;
}

/// a scratch folder, removed at the end of the test
struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device rd;
    path = fs::temp_directory_path() /
           ("pivot-lcp-test-" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  fs::path file(const std::string& name, const std::string& text) const {
    const fs::path p = path / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

/// the pivot::Error message of reading `path`, or "" when it reads
std::string read_error(const fs::path& path, bool mixed = false) {
  try {
    if (mixed)
      (void)read_mixed_lcp_file(path);
    else
      (void)read_lcp_file(path);
  } catch (const pivot::Error& e) {
    return e.what();
  }
  return "";
}

const char* const kSmall =
    "3\n0\n3\n3\n3\t3\n"
    "2 1 0\n"
    "1 2 1\n"
    "0 1 2\n"
    "-1 -2 -3\n"
    "\nremark\n";

}  // namespace

// ─── problems ────────────────────────────────────────────────────────────────────────────────

TEST_CASE("invalid input: non-square M", "[lcp][invalid]") {
  LcpProblem p = good_problem();
  p.M = MatrixXd::Identity(3, 2);
  check_invalid(solve_lemke(p),
                {"square", "size", "rows", "columns", "dimension", "shape", "×", "3x2", "3 x 2"});
}

TEST_CASE("invalid input: q does not match M", "[lcp][invalid]") {
  LcpProblem p = good_problem();
  p.q = VectorXd::Ones(4);
  check_invalid(solve_lemke(p), {"size", "match", "length", "dimension", "entries"});
}

TEST_CASE("invalid input: empty problem", "[lcp][invalid]") {
  LcpProblem p;
  const LcpResult result = solve_lemke(p);
  INFO("status " << to_string(result.status) << ", message: " << result.message);
  // an empty problem has the trivial answer or is rejected; never a crash
  CHECK((result.status == LcpStatus::invalid_input || result.status == LcpStatus::solved));
}

TEST_CASE("invalid input: NaN in M, Inf in q", "[lcp][invalid]") {
  LcpProblem p = good_problem();
  p.M(1, 2) = kNaN;
  check_invalid(solve_lemke(p), {"nan", "finite"});
  LcpProblem r = good_problem();
  r.q(0) = kInf;
  check_invalid(solve_lemke(r), {"inf", "finite"});
  LcpProblem s = good_problem();
  s.q(2) = -kInf;
  check_invalid(solve_lemke(s), {"inf", "finite"});
}

TEST_CASE("invalid input: NaN in a sparse M", "[lcp][invalid]") {
  const LcpProblem dense = good_problem();
  SparseLcpProblem p;
  p.M = dense.M.sparseView();
  p.M.coeffRef(0, 0) = kNaN;
  p.q = dense.q;
  check_invalid(solve_lemke(p), {"nan", "finite"});
  SparseLcpProblem r;
  r.M = dense.M.sparseView();
  r.q = VectorXd::Ones(2);
  check_invalid(solve_lemke(r), {"size", "match", "length", "dimension", "entries"});
}

TEST_CASE("invalid input: bad covering vectors", "[lcp][invalid]") {
  LcpProblem p = good_problem();
  p.q(0) = -1.0;  // so that Lemke would need the covering vector
  {
    LemkeOptions o;
    o.covering = VectorXd::Ones(3);
    o.covering(1) = 0.0;
    check_invalid(solve_lemke(p, o), {"covering"});
  }
  {
    LemkeOptions o;
    o.covering = VectorXd::Ones(3);
    o.covering(2) = -1.0;
    check_invalid(solve_lemke(p, o), {"covering"});
  }
  {
    LemkeOptions o;
    o.covering = VectorXd::Ones(2);
    check_invalid(solve_lemke(p, o), {"covering"});
  }
  {
    LemkeOptions o;
    o.covering = VectorXd::Ones(3);
    o.covering(0) = kNaN;
    check_invalid(solve_lemke(p, o), {"covering"});
  }
  {
    // a valid, non-uniform covering vector is accepted
    LemkeOptions o;
    o.covering = VectorXd::LinSpaced(3, 1.0, 3.0);
    const LcpResult result = solve_lemke(p, o);
    INFO(result.message);
    CHECK(result.status == LcpStatus::solved);
  }
}

TEST_CASE("invalid input: mixed problems with inconsistent blocks", "[lcp][invalid][mixed]") {
  // a solvable problem to start from: the blocks of one SPD matrix
  std::mt19937 rng(11);
  const MatrixXd H = random_spd(rng, 5);
  MixedLcpProblem p;
  p.P = H.topLeftCorner(2, 2);
  p.Q = H.topRightCorner(2, 3);
  p.K = H.bottomLeftCorner(3, 2);
  p.S = H.bottomRightCorner(3, 3);
  p.u = random_vector(rng, 2);
  p.v = random_vector(rng, 3);
  REQUIRE(solve_mixed_lcp(p).ok());
  {
    MixedLcpProblem bad = p;
    bad.Q = random_matrix(rng, 2, 2);
    const MixedLcpResult r = solve_mixed_lcp(bad);
    INFO(r.lcp.message);
    CHECK(r.lcp.status == LcpStatus::invalid_input);
    CHECK(!r.lcp.message.empty());
  }
  {
    MixedLcpProblem bad = p;
    bad.u(1) = kNaN;
    const MixedLcpResult r = solve_mixed_lcp(bad);
    INFO(r.lcp.message);
    CHECK(r.lcp.status == LcpStatus::invalid_input);
    CHECK(mentions(r.lcp.message, {"nan", "finite"}));
  }
  {
    MixedLcpOptions o;
    o.regularization = VectorXd::Ones(5);  // wrong size: P is 2 × 2
    const MixedLcpResult r = solve_mixed_lcp(p, o);
    INFO(r.lcp.message);
    // a regularization is only used for a singular P; if checked, it must be rejected cleanly
    CHECK((r.lcp.status == LcpStatus::invalid_input || r.lcp.status == LcpStatus::solved));
  }
}

// ─── files ───────────────────────────────────────────────────────────────────────────────────

TEST_CASE("invalid files: a missing file", "[lcp][invalid][io]") {
  const fs::path missing = fs::temp_directory_path() / "pivot-no-such-dir" / "no_such_problem.dat";
  const std::string message = read_error(missing);
  INFO(message);
  CHECK(message.find("no_such_problem.dat") != std::string::npos);
  CHECK_THROWS_AS(read_mixed_lcp_file(missing), pivot::Error);
  CHECK_THROWS_AS(read_lcp_file(fs::temp_directory_path()), pivot::Error);  // a directory
}

TEST_CASE("invalid files: the small reference file reads", "[lcp][io]") {
  TempDir dir;
  const LcpProblem p = read_lcp_file(dir.file("small.dat", kSmall));
  MatrixXd M(3, 3);
  M << 2, 1, 0, 1, 2, 1, 0, 1, 2;
  CHECK(p.M == M);
  CHECK(p.q == (VectorXd(3) << -1, -2, -3).finished());
  CHECK(p.name == "small");
}

TEST_CASE("invalid files: M is read column-major", "[lcp][io]") {
  TempDir dir;
  // line j is column j: M = [1 3; 2 4]
  const LcpProblem p = read_lcp_file(dir.file("colmajor.dat", "2\n0\n2\n2\n2\t2\n1 2\n3 4\n5 6\n"));
  CHECK(p.M(0, 0) == 1.0);
  CHECK(p.M(1, 0) == 2.0);
  CHECK(p.M(0, 1) == 3.0);
  CHECK(p.M(1, 1) == 4.0);
  CHECK(p.q(1) == 6.0);
}

TEST_CASE("invalid files: truncated, garbage and malformed files", "[lcp][invalid][io]") {
  TempDir dir;
  struct Case {
    const char* name;
    std::string text;
    const char* line;      // the "file:LINE:" the message must point at
    const char* expected;  // a word the message must contain
  };
  const std::vector<Case> cases = {
      {"empty", "", ":1:", "end of file"},
      {"truncated_header", "3\n0\n3\n", ":4:", "end of file"},
      {"truncated_matrix", "3\n0\n3\n3\n3\t3\n2 1 0\n1 2 1\n", ":8:", "end of file"},
      {"truncated_q", "3\n0\n3\n3\n3\t3\n2 1 0\n1 2 1\n0 1 2\n", ":9:", "end of file"},
      {"short_line", "3\n0\n3\n3\n3\t3\n2 1 0\n1 2\n0 1 2\n-1 -2 -3\n",
       ":7:", "expected 3 numbers"},
      {"long_line", "3\n0\n3\n3\n3\t3\n2 1 0\n1 2 1 7\n0 1 2\n-1 -2 -3\n",
       ":7:", "expected 3 numbers"},
      {"short_q", "3\n0\n3\n3\n3\t3\n2 1 0\n1 2 1\n0 1 2\n-1 -2\n", ":9:", "q"},
      {"garbage", "hello world\nthis is not a problem\n", ":1:", "hello"},
      {"binary",
       std::string("\x7f"
                   "ELF\x02\x01\x01\0\0\0",
                   10),
       ":1:", "expected"},
      {"non_numeric", "3\n0\n3\n3\n3\t3\n2 1 0\n1 two 1\n0 1 2\n-1 -2 -3\n", ":7:", "'two'"},
      {"number_suffix", "3\n0\n3\n3\n3\t3\n2 1 0\n1 2 1\n0 1 2\n-1 -2 -3x\n", ":9:", "'-3x'"},
      {"nan_in_m", "3\n0\n3\n3\n3\t3\n2 1 0\n1 nan 1\n0 1 2\n-1 -2 -3\n", ":7:", "non-finite"},
      {"inf_in_q", "3\n0\n3\n3\n3\t3\n2 1 0\n1 2 1\n0 1 2\n-1 inf -3\n", ":9:", "non-finite"},
      {"overflow", "3\n0\n3\n3\n3\t3\n2 1 0\n1 2 1\n0 1 2\n-1 1e999 -3\n", ":9:", "non-finite"},
      {"zero_size", "0\n0\n0\n0\n0\t0\n\n", ":1:", "positive"},
      {"huge_size_short_file", "100000\n0\n100000\n100000\n100000\t100000\n1 2 3\n",
       ":6:", "expected 100000 numbers"},
      {"negative_size", "-3\n0\n3\n3\n3\t3\n", ":1:", "positive"},
      {"size_mismatch", "3\n0\n3\n4\n3\t4\n", ":4:", "columns"},
      {"bad_storage", "3\n7\n3\n3\n3\t3\n", ":2:", "storage"},
      {"csc_storage", "3\n2\n3\n3\n", ":2:", "unsupported"},
      {"fractional_size", "2.5\n0\n", ":1:", "integer"},
      {"bad_block", "2\n1\n2\n2\n1\n1\n1\n2\t\n2\t\n2\n1\n0\t1\t\n0\t\n5\n1\n2\n3\n4\n-1 -1\n",
       ":14:", "block number"},
      {"truncated_block", "2\n1\n2\n2\n1\n1\n1\n2\t\n2\t\n2\n1\n0\t1\t\n0\t\n0\n1\n2\n",
       ":17:", "end of file"},
  };
  for (const auto& c : cases) {
    const fs::path path = dir.file(std::string(c.name) + ".dat", c.text);
    const std::string message = read_error(path);
    INFO("case " << c.name << ": \"" << message << "\"");
    REQUIRE(!message.empty());
    CHECK(message.find(path.string()) != std::string::npos);
    CHECK(message.find(c.line) != std::string::npos);
    CHECK(lower(message).find(lower(c.expected)) != std::string::npos);
  }
}

TEST_CASE("invalid files: malformed mixed LCP files", "[lcp][invalid][io][mixed]") {
  TempDir dir;
  // deudeu_mlcp.dat in both storages (checked to read), then broken variants of it
  const std::string header = "1\n1\n1\n1\n0 1 2 \n0 1 \n0\n2\n2\n2\t2\n";
  const std::string m = " 1 0\n -1 1\n";
  const std::string q = " -1 1\n";
  const std::string abcd = " 1\n 1\n -1\n 0\n -1\n 1 0.000000 1.000000\n";
  {
    const MixedLcpProblem p = read_mixed_lcp_file(dir.file("deudeu.dat", header + m + q + abcd));
    CHECK(p.P(0, 0) == 1.0);
    CHECK(p.Q(0, 0) == -1.0);
    CHECK(p.K(0, 0) == 0.0);
    CHECK(p.S(0, 0) == 1.0);
    CHECK(p.u(0) == -1.0);
    CHECK(p.v(0) == 1.0);
  }
  struct Case {
    const char* name;
    std::string text;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"empty", "", "end of file"},
      {"truncated", header + m, "end of file"},
      {"garbage", "mixed problem\n", "'mixed'"},
      {"nan", header + " 1 nan\n -1 1\n" + q + abcd, "non-finite"},
      {"disagree", header + m + q + " 2\n 1\n -1\n 0\n -1\n 1\n", "disagree"},
      {"no_storage", "0\n0\n1\n1\n", "storage"},
      {"bad_blocks", "1\n0\n1\n1\n0 3 \n", "blocksrows"},
      {"csc", "1\n0\n1\n1\n0 1 2 \n0 1 \n2\n2\n2\n", "unsupported"},
      {"rectangular", "1\n0\n1\n1\n0 1 2 \n0 1 \n0\n3\n2\n3\t2\n1 2\n3 4\n5 6\n0 0\n",
       "unsupported"},
  };
  for (const auto& c : cases) {
    const fs::path path = dir.file(std::string(c.name) + ".dat", c.text);
    const std::string message = read_error(path, true);
    INFO("case " << c.name << ": \"" << message << "\"");
    REQUIRE(!message.empty());
    CHECK(message.find(path.string()) != std::string::npos);
    CHECK(lower(message).find(lower(c.expected)) != std::string::npos);
  }
}

// ─── writing ─────────────────────────────────────────────────────────────────────────────────

TEST_CASE("round trip: writing then reading gives the same numbers, bit for bit", "[lcp][io]") {
  TempDir dir;
  std::mt19937 rng(424242);
  LcpProblem p;
  p.M = random_pd_nonsymmetric(rng, 7);
  p.q = random_vector(rng, 7);
  // awkward values: thirds, extremes, subnormals, negative zero
  p.M(0, 1) = 1.0 / 3.0;
  p.M(2, 3) = 1e-300;
  p.M(3, 2) = -1.7976931348623157e308;
  p.M(4, 4) = std::numeric_limits<double>::denorm_min();
  p.M(5, 6) = -0.0;
  p.q(0) = 0.1;
  p.q(1) = -2.0 / 3.0;
  p.q(2) = 123456789.123456789;
  p.name = "roundtrip";
  const fs::path path = dir.path / "roundtrip.dat";
  write_lcp_file(path, p, "written by test_invalid_input.cpp\nsecond remark line");
  const LcpProblem back = read_lcp_file(path);
  CHECK(back.name == "roundtrip");
  REQUIRE(back.M.rows() == 7);
  REQUIRE(back.M.cols() == 7);
  REQUIRE(back.q.size() == 7);
  for (Eigen::Index j = 0; j < 7; ++j)
    for (Eigen::Index i = 0; i < 7; ++i) {
      INFO("M(" << i << ", " << j << ")");
      CHECK(back.M(i, j) == p.M(i, j));
      CHECK(std::signbit(back.M(i, j)) == std::signbit(p.M(i, j)));
    }
  CHECK(back.q == p.q);
  // writing what was read gives the same file
  const fs::path again = dir.path / "again.dat";
  write_lcp_file(again, back, "written by test_invalid_input.cpp\nsecond remark line");
  std::ifstream a(path, std::ios::binary), b(again, std::ios::binary);
  const std::string ta((std::istreambuf_iterator<char>(a)), {}),
      tb((std::istreambuf_iterator<char>(b)), {});
  CHECK(ta == tb);
}

TEST_CASE("round trip: the shared data files survive a write and a read", "[lcp][io][data]") {
  const auto data = shared_data_dir();
  if (!data) {
    WARN("shared data folder absent: skipping the data-file round trip");
    return;
  }
  TempDir dir;
  for (const char* rel : {"lcp/siconos/lcp_mmc.dat", "lcp/siconos/lcp_trivial_block.dat",
                          "lcp/contact/ap_nc4_s1.dat"}) {
    const fs::path source = *data / rel;
    if (!fs::exists(source)) continue;
    const LcpProblem p = read_lcp_file(source);
    const fs::path copy = dir.path / source.filename();
    write_lcp_file(copy, p);
    const LcpProblem back = read_lcp_file(copy);
    INFO(rel);
    CHECK(back.M == p.M);
    CHECK(back.q == p.q);
  }
}

TEST_CASE("round trip: writing an invalid problem is refused", "[lcp][io][invalid]") {
  TempDir dir;
  LcpProblem p = good_problem();
  p.q(1) = kNaN;
  CHECK_THROWS_AS(write_lcp_file(dir.path / "nan.dat", p), pivot::Error);
  LcpProblem r = good_problem();
  r.M = MatrixXd::Ones(3, 2);
  CHECK_THROWS_AS(write_lcp_file(dir.path / "rect.dat", r), pivot::Error);
  CHECK_THROWS_AS(write_lcp_file(dir.path / "no-such-dir" / "x.dat", good_problem()), pivot::Error);
}

// Issue #24: a 28-byte sparse-block file declaring n = 10⁶ allocated n × n (8 TB) before reading
// a block and ended in std::bad_alloc. The size is now checked against the dense limit (and the
// blocks against the file's data) before anything is allocated: a pivot::Error with the line.
TEST_CASE("invalid files: a tiny file declaring a huge matrix is refused before allocating",
          "[lcp][invalid][io][limits]") {
  const TempDir dir;
  // n, storage 1 (sparse block), rows, columns, 0 blocks: 30 bytes
  const fs::path empty_blocks = dir.file("huge0.dat", "1000000\n1\n1000000\n1000000\n0\n");
  const std::string e0 = read_error(empty_blocks);
  CHECK_THAT(e0, Catch::Matchers::Contains("huge0.dat:5:") &&
                     Catch::Matchers::Contains("more than the limit of 268435456 entries"));
  // within the dense limit, but the one declared 100 × 100 block is not in the file
  const fs::path missing_block =
      dir.file("missing.dat", "100\n1\n100\n100\n1\n1\n1\n100\n100\n2\n1\n0 1\n0\n");
  CHECK_THAT(read_error(missing_block),
             Catch::Matchers::Contains("unexpected end of file") &&
                 Catch::Matchers::Contains("the numbers and values of the 1 blocks of M"));
}
