// A repeated small dense solve into the same LcpResult allocates nothing (lcp/small_lemke.hpp):
// this file replaces malloc, calloc and realloc of test_lcp with ones that count the calls and
// forward to glibc's (__libc_malloc, ...), which sees Eigen's allocations and operator new's
// alike. Not under the sanitizers, which replace them themselves.
#include <cstdlib>  // defines __GLIBC__

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && defined(__GLIBC__)
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstdlib>

#include "pivot/lcp/lemke.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void __libc_free(void* p);

void* malloc(std::size_t size) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, size);
}
void free(void* p) noexcept {
  __libc_free(p);
}
}

using namespace pivot::lcp;

TEST_CASE("small Lemke: a repeated solve into the same result allocates nothing",
          "[lcp][small][allocation]") {
  // a diagonally dominant (P-matrix) problem of n = 12 with several pivots
  const int n = 12;
  LcpProblem p;
  p.M = Eigen::MatrixXd::Identity(n, n) * 4.0;
  p.q.resize(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      if (i != j) p.M(i, j) = 0.3 * std::sin(1.0 + i * 7 + j * 3);
    p.q(i) = (i % 3 == 0 ? 1.0 : -1.0) * (1.0 + 0.1 * i);
  }
  LcpResult result;
  solve_lemke(p, {}, result);  // the first solve sizes the result's vectors
  REQUIRE(result.ok());
  REQUIRE(result.pivots > 0);
  const Eigen::VectorXd first = result.z;
  const long before = allocations.load();
  for (int k = 0; k < 100; ++k) solve_lemke(p, {}, result);
  const long during = allocations.load() - before;
  CHECK(during == 0);
  CHECK(result.ok());
  CHECK(result.z == first);
}

// A warm start that is accepted, answered into the same result, allocates nothing when its
// block has k ≤ 32 rows (the fixed-capacity decomposition, lcp/block_solve.hpp): for n ≤ 32 on
// the small path, and beyond it with the residual check in a thread's reused vectors.
// Contact-like problems w = (B Bᵀ + εI) z + q warm-started from their own answer, most of q
// positive so that the active set stays small.
TEST_CASE("a repeated warm-started solve into the same result allocates nothing",
          "[lcp][warm_start][allocation]") {
  for (const int n : {12, 60, 120}) {
    LcpProblem p;
    Eigen::MatrixXd B(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) B(i, j) = std::sin(1.0 + 0.37 * i + 1.91 * j + 0.01 * i * j);
    p.M = B * B.transpose() + 1e-3 * Eigen::MatrixXd::Identity(n, n);
    p.q.resize(n);
    for (int i = 0; i < n; ++i) p.q(i) = 0.7 + std::cos(2.0 + 1.3 * i);
    LemkeOptions options;
    options.warm_start = solve_lemke(p).active_set;
    INFO("n = " << n << ", active set of " << options.warm_start->size());
    REQUIRE(!options.warm_start->empty());
    REQUIRE(options.warm_start->size() <= 32);
    LcpResult result;
    solve_lemke(p, options, result);  // sizes the result's vectors and this thread's storage
    REQUIRE(result.ok());
    REQUIRE(result.path == StartPath::warm_start);
    const Eigen::VectorXd first = result.z;
    const long before = allocations.load();
    for (int k = 0; k < 20; ++k) solve_lemke(p, options, result);
    CHECK(allocations.load() - before == 0);
    CHECK(result.path == StartPath::warm_start);
    CHECK(result.z == first);
  }
}
#endif
