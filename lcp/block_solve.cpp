// The block solve of an active set (block_solve.hpp).
#include "pivot/lcp/block_solve.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "pivot/lcp/small_cod.hpp"
#include "pivot/lcp/small_lemke.hpp"
#include "pivot/lcp/small_lu.hpp"

namespace pivot::lcp::detail {
namespace {

constexpr int kCapacity = kSmallLemkeMax;
static_assert(kCapacity <= kSmallCodMax);

// x = A⁺ b = P Zᵀ [T⁻¹ (Qᵀ b)(0:r); 0] from the decomposition A P = Q [T 0; 0 0] Z: the steps of
// CompleteOrthogonalDecomposition::solve(), in that order, with c and y in the caller's vectors
// (its own solve makes them anew). Zᵀ is the product of r Householder reflections, the k-th acting
// on entry k and the last n − r entries (its vector in row k of the decomposition's right block).
template <typename Cod, typename Vec>
void minimum_norm_solve(const Cod& cod, const Vec& b, Vec& c, Vec& y, Vec& x) {
  const Eigen::Index r = cod.rank(), n = cod.cols();
  if (r == 0) {
    x.setZero();
    return;
  }
  c = b;
  c.applyOnTheLeft(cod.householderQ().setLength(r).adjoint());
  y.topRows(r) =
      cod.matrixT().topLeftCorner(r, r).template triangularView<Eigen::Upper>().solve(c.topRows(r));
  if (r < n) {
    y.bottomRows(n - r).setZero();
    double workspace[1];  // one right-hand side
    for (Eigen::Index k = 0; k < r; ++k) {
      if (k != r - 1) std::swap(y(k), y(r - 1));
      y.middleRows(r - 1, n - r + 1)
          .applyHouseholderOnTheLeft(cod.matrixQTZ().row(k).tail(n - r).adjoint(), cod.zCoeffs()(k),
                                     workspace);
      if (k != r - 1) std::swap(y(k), y(r - 1));
    }
  }
  x.noalias() = cod.colsPermutation() * y;
}

// the storage of blocks beyond kCapacity: Eigen's dynamic matrices, kept from call to call
struct LargeBlock {
  Eigen::MatrixXd A;
  Eigen::VectorXd rhs, zz, product, r, c, y, step;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
};

// A block whose LU's reciprocal condition estimate is above kWellConditioned is nonsingular
// beyond doubt (the decomposition's rank decision is k ε relative to its largest pivot): its
// minimum-norm solution is its only one, which the LU gives as well. Blocks of at most
// kSmallLuMax rows (SmallLu and the inverse it gives) and of more than kLuBlock rows (Eigen's
// PartialPivLU and its rcond()) are tried that way first (block_solve.hpp).
constexpr double kWellConditioned = 1e-8;
constexpr Eigen::Index kLuBlock = 128;

}  // namespace

void BlockSolve::begin(Eigen::Index k) {
  k_ = k;
  const auto size = static_cast<std::size_t>(k);
  if (a_.size() < size * size) a_.resize(size * size);
  if (rhs_.size() < size) rhs_.resize(size);
  if (zz_.size() < size) zz_.resize(size);
}

bool BlockSolve::refine() {
  const Eigen::Index k = k_;
  Eigen::Map<Eigen::VectorXd> zz = answer();
  if (k == 0) return true;
  if (k <= kSmallLuMax && refine_well_conditioned(static_cast<int>(k))) return zz.allFinite();
  if (k <= kCapacity) {
    // Eigen's decomposition and solve, their operations in their order (small_cod.hpp)
    thread_local SmallCod cod;
    const double* A = a_.data();
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i) cod.at(i, j) = A[static_cast<std::size_t>(j * k + i)];
    cod.decompose(static_cast<int>(k));
    std::array<double, kCapacity> product, r, c, y, step;
    for (int round = 0; round < 2; ++round) {
      SmallCod::product(A, static_cast<int>(k), zz.data(), product.data());
      for (int i = 0; i < k; ++i) r[i] = rhs_[static_cast<std::size_t>(i)] - product[i];
      cod.solve(r.data(), c.data(), y.data(), step.data());
      for (int i = 0; i < k; ++i) zz(i) += step[i];
    }
  } else {
    thread_local LargeBlock s;
    s.A = block();
    s.rhs = rhs();
    s.zz = zz;
    for (Eigen::VectorXd* v : {&s.product, &s.r, &s.c, &s.y, &s.step}) v->resize(k);
    if (k > kLuBlock) s.lu.compute(s.A);
    if (k > kLuBlock && s.lu.rcond() > kWellConditioned) {
      for (int round = 0; round < 2; ++round) {
        s.product.noalias() = s.A * s.zz;
        s.r = s.rhs - s.product;
        s.step.noalias() = s.lu.solve(s.r);
        s.zz += s.step;
      }
      zz = s.zz;
      return zz.allFinite();
    }
    s.cod.compute(s.A);
    for (int round = 0; round < 2; ++round) {
      s.product.noalias() = s.A * s.zz;
      s.r = s.rhs - s.product;
      minimum_norm_solve(s.cod, s.r, s.c, s.y, s.step);
      s.zz += s.step;
    }
    zz = s.zz;
  }
  return zz.allFinite();
}

namespace {

// zz ← zz + X (rhs − A zz), twice, with X ≈ A⁻¹ (iterative refinement with an approximate
// inverse)
template <typename Matrix, typename Vector>
void refine_with_inverse(const Matrix& A, const Matrix& X, const Vector& rhs,
                         Eigen::Map<Eigen::VectorXd>& zz) {
  for (int round = 0; round < 2; ++round) {
    const Vector r = rhs - A * zz;
    zz += X * r;
  }
}

// A block's inverse from SmallLu's factors and whether the block is well conditioned, kept by
// each thread with the block it was computed for: the next block of the same bits (a resting or
// rolling contact whose Delassus block repeats from step to step) reuses them, the same bits
// again. The inverse is always the LU's: a block of rank k − 2 or less has all its 2 × 2 minors at
// rounding level, and an inverse by cofactors divides rounding by rounding into entries of order
// one that look well conditioned; the LU's pivots are at rounding level there, and its inverse's
// entries of order 1/ε.
struct KeptInverse {
  static constexpr std::size_t kEntries = static_cast<std::size_t>(SmallLu::kLd) * SmallLu::kLd;
  int k = 0;
  std::array<double, kEntries> block;    // column-major, leading dimension k
  std::array<double, kEntries> inverse;  // column-major, leading dimension SmallLu::kLd
  bool well_conditioned = false;         // 1 / (‖A‖₁ ‖A⁻¹‖₁) > kWellConditioned
  SmallLu lu;
};

// this thread's inverse of the k × k block `a` (column-major, leading dimension k); K > 0: k known
// at compile time (the loops unroll)
template <int K>
const KeptInverse& inverse_of(const double* a, int k) {
  thread_local KeptInverse kept;
  if constexpr (K > 0) k = K;
  const auto entries = static_cast<std::size_t>(k) * static_cast<std::size_t>(k);
  if (kept.k == k && std::equal(a, a + entries, kept.block.begin())) return kept;
  kept.k = 0;  // no block while it is computed
  std::copy(a, a + entries, kept.block.begin());
  // ‖A‖₁ and ‖A⁻¹‖₁, the largest column sums; `finite` false on a non-finite sum (a NaN or
  // infinite entry of A, or of the inverse after a zero pivot), which std::max would drop
  bool finite = true;
  double norm = 0.0;
  for (int j = 0; j < k; ++j) {
    double column = 0.0;
    for (int i = 0; i < k; ++i) {
      kept.lu.at(i, j) = a[j * k + i];
      column += std::abs(a[j * k + i]);
    }
    finite = finite && std::isfinite(column);
    norm = std::max(norm, column);
  }
  kept.lu.factorize<K>(k);
  kept.lu.inverse<K>(kept.inverse);
  double inverse_norm = 0.0;
  for (int j = 0; j < k; ++j) {
    double column = 0.0;
    for (int i = 0; i < k; ++i) column += std::abs(kept.inverse[SmallLu::index(i, j)]);
    finite = finite && std::isfinite(column);
    inverse_norm = std::max(inverse_norm, column);
  }
  kept.well_conditioned = finite && 1.0 / (norm * inverse_norm) > kWellConditioned;
  kept.k = k;
  return kept;
}

// a k × k block refined with its kept inverse, false when it is not well conditioned; K > 0:
// k = K known at compile time, in Eigen's fixed-size types with every loop unrolled; K = 0: sizes
// known at run time, storage of kSmallLuMax
template <int K>
bool refine_kept(const double* a, const double* rhs, int k, Eigen::Map<Eigen::VectorXd>& zz) {
  constexpr int kRows = K > 0 ? K : Eigen::Dynamic;
  constexpr int kMaxRows = K > 0 ? K : kSmallLuMax;
  using Matrix = Eigen::Matrix<double, kRows, kRows, 0, kMaxRows, kMaxRows>;
  using Vector = Eigen::Matrix<double, kRows, 1, 0, kMaxRows, 1>;
  if constexpr (K > 0) k = K;
  const KeptInverse& kept = inverse_of<K>(a, k);
  if (!kept.well_conditioned) return false;
  const Matrix X =
      Eigen::Map<const Matrix, 0, Eigen::OuterStride<SmallLu::kLd>>(kept.inverse.data(), k, k);
  refine_with_inverse(Matrix(Eigen::Map<const Matrix>(a, k, k)), X,
                      Vector(Eigen::Map<const Vector>(rhs, k)), zz);
  return true;
}

// refine_kept<1> … refine_kept<kFixedBlocks>, indexed by k − 1
constexpr int kFixedBlocks = 8;
using RefineKept = bool (*)(const double*, const double*, int, Eigen::Map<Eigen::VectorXd>&);
template <int... K>
constexpr std::array<RefineKept, sizeof...(K)> refine_fixed_table(
    std::integer_sequence<int, K...>) {
  return {&refine_kept<K + 1>...};
}
constexpr auto kRefineFixed = refine_fixed_table(std::make_integer_sequence<int, kFixedBlocks>{});

}  // namespace

bool BlockSolve::refine_well_conditioned(int k) {
  Eigen::Map<Eigen::VectorXd> zz = answer();
  const RefineKept refine =
      k <= kFixedBlocks ? kRefineFixed[static_cast<std::size_t>(k - 1)] : &refine_kept<0>;
  return refine(a_.data(), rhs_.data(), k, zz);
}

BlockSolve& thread_block_solve() {
  thread_local BlockSolve solve;
  return solve;
}

}  // namespace pivot::lcp::detail
