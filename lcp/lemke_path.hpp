#pragma once
// Long file: one class, LemkeSolver, whose path, basis inverse, ratio test, lexicographic tie
// break and early completion share its private state; splitting it would expose that state.
// Lemke's pivoting path (internal): the revised method with a block basis inverse and the
// lexico-minimum ratio test, from the standard start or from a guessed basis (warm Lemke).
// lemke.cpp runs it under the retry policy of lcp/solve_policy.hpp.
//
//
// Augmented system (Cline eq. 2.35), with z̃ = (z, z₀) and M̃ = [M d]:
//     w = M̃ z̃ + q,   w, z̃ ≥ 0.
// A basis is described by L, the rows whose w is nonbasic (w_i = 0), and Z, the basic
// components of z̃ (|L| = |Z| = k). With A = M̃(L, Z):
//     z_Z = −A⁻¹ q_L,            w_i = q_i + M̃(i, Z) z_Z   for i ∉ L.
// So the basis matrix B of [I, −M̃] has the inverse
//     row of z_Z(b):  −(A⁻¹)(b, ·) on the columns L, 0 elsewhere;
//     row of w_r:     e_rᵀ − M̃(r, Z) A⁻¹ on the columns L,
// which the lexicographic ratio test reads row by row (Murty 1988).
// Only A⁻¹ (k × k) is stored; each pivot changes A by one of four moves, each an O(k²) update:
//   z_j in, w_r out: A grows by row r and column j     (bordering)
//   z_j in, z_l out: column l of A becomes column j     (Sherman–Morrison, Cline eq. 4.21)
//   w_i in, w_r out: row i of A becomes row r            (Sherman–Morrison on rows)
//   w_i in, z_l out: row i and column l are deleted      (block deletion)

#include <fmt/core.h>
#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "pivot/lcp/active_set.hpp"
#include "pivot/lcp/lcp_result.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/matrix_access.hpp"

namespace pivot::lcp::detail {

inline constexpr double kTiny = std::numeric_limits<double>::min();

struct Var {
  bool is_z = false;
  int index = 0;
};

// Completion: checks a candidate complementary active set S (z_S basic, w_S = 0) from a guess z;
// true when it produced a verified answer (kept by the caller)
using Completion = std::function<bool(const std::vector<int>& S, const Vector& guess)>;

template <typename Matrix>
class LemkeSolver {
 public:
  LemkeSolver(const Matrix& M, const Vector& q, const Vector& d, const LemkeOptions& options,
              Completion completion = {})
      : M_(M),
        q_(q),
        d_(d),
        opt_(options),
        n_(static_cast<int>(q.size())),
        completion_(std::move(completion)) {
    const int cap = n_ + 1;
    rows_.reserve(cap);
    cols_.reserve(cap);
    pos_row_.assign(n_, -1);
    pos_col_.assign(n_ + 1, -1);
    wval_.setZero(n_);
    zval_.setZero(cap);
    dz_.resize(cap);
    dw_.resize(n_);
    work_.resize(cap);
    work2_.resize(cap);
    gather_.resize(cap);
    position_.assign(n_, -1);
  }

  // runs Lemke from the standard start; fills z and the pivot counts
  LcpStatus run(int max_pivots, int refactor_interval) {
    // initial basis: {w} with row t replaced by z₀, t = argmax −q_t/d_t (ties: the largest index,
    // which keeps every row of (y, B⁻¹) lexicographically positive)
    int t = 0;
    double best = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < n_; ++i) {
      const double r = -q_(i) / d_(i);
      if (r >= best) {
        best = r;
        t = i;
      }
    }
    rows_ = {t};
    cols_ = {n_};
    pos_row_[t] = 0;
    pos_col_[n_] = 0;
    reserve_inverse(1);
    Ainv_(0, 0) = 1.0 / d_(t);
    zval_(0) = best;
    for (int i = 0; i < n_; ++i) wval_(i) = i == t ? 0.0 : q_(i) + d_(i) * best;
    pivots_ = 0;  // the initial exchange of w_t for z₀ is not counted (textbook convention)
    return follow_path(Var{true, t}, max_pivots, refactor_interval);
  }

  // Lemke from a guessed complementary basis α (z_α and w_ᾱ basic) whose candidate is not
  // feasible. The covering vector must be warm_covering(M, α), which makes every basic variable
  // grow at unit rate with z₀: z_α = z̄_α + z₀ 1 and w_ᾱ = w̄_ᾱ + z₀ 1 (z̄, w̄: the candidate).
  // z₀ = −min(z̄_α, w̄_ᾱ) makes the basis feasible with its most negative variable leaving, and
  // Lemke's path goes on from there, usually for a few pivots to a nearby basis. Without d > 0
  // the path may end on a ray where the standard start would not: the caller then starts over.
  LcpStatus run_from(const std::vector<int>& alpha, int max_pivots, int refactor_interval) {
    set_basis(alpha, alpha);
    refactor();
    // a singular M_αα: its LU gives no usable basis. Exactly singular blocks factor with pivots
    // at rounding level rather than 0, so the test is the block's condition number, not only
    // finite values: z of 4e19 from a zero row of M (a fuzz finding) was "feasible" and was
    // passed on as solved. With 1/κ₁ below n ε the block is singular to the precision at hand.
    if (!zval_.head(k()).allFinite() ||
        !(last_rcond_ > n_ * std::numeric_limits<double>::epsilon()))
      return LcpStatus::numerical_failure;
    Var leaving{true, -1};
    int leaving_pos = -1;
    double lowest = 0.0;
    for (int b = 0; b < k(); ++b)
      if (zval_(b) < lowest) {
        lowest = zval_(b);
        leaving = Var{true, cols_[b]};
        leaving_pos = b;
      }
    for (int i = 0; i < n_; ++i)
      if (pos_row_[i] < 0 && wval_(i) < lowest) {
        lowest = wval_(i);
        leaving = Var{false, i};
        leaving_pos = -1;
      }
    if (!leaving.is_z) {
      std::vector<int> rows = rows_, cols = cols_;
      rows.push_back(leaving.index);  // w_t leaves: row t joins L, z₀ joins Z
      cols.push_back(n_);
      set_basis(rows, cols);
    } else if (leaving_pos >= 0) {
      std::vector<int> cols = cols_;
      cols[leaving_pos] = n_;  // z_s leaves, z₀ takes its place
      set_basis(rows_, cols);
    } else {
      return LcpStatus::solved;  // the candidate is feasible: the caller judges it
    }
    refactor();
    pivots_ = 0;  // the exchange with z₀ is not counted, as in run()
    return follow_path(Var{!leaving.is_z, leaving.index}, max_pivots, refactor_interval);
  }

  // the covering vector of run_from(α): d = e_ᾱ − M(·, α) 1
  static Vector warm_covering(const Matrix& M, const std::vector<int>& alpha) {
    Vector d = Vector::Zero(M.rows());
    for (int j : alpha) detail::access::add_column(M, j, -1.0, d);
    std::vector<bool> in(static_cast<std::size_t>(M.rows()), false);
    for (int j : alpha) in[static_cast<std::size_t>(j)] = true;
    for (Eigen::Index i = 0; i < d.size(); ++i)
      if (!in[static_cast<std::size_t>(i)]) d(i) += 1.0;
    return d;
  }

  // pivots from the current almost-complementary basis, `entering` first, until z₀ leaves
  LcpStatus follow_path(Var entering, int max_pivots, int refactor_interval) {
    since_refactor_ = 0;
    z0_start_ = pos_col_[n_] >= 0 ? zval_(pos_col_[n_]) : 0.0;
    last_completion_z0_ = std::numeric_limits<double>::infinity();
    last_completion_pivot_ = 0;
    while (true) {
      if (pivots_ >= max_pivots) return LcpStatus::pivot_limit;
      if (opt_.interrupted && pivots_ % 64 == 63 && opt_.interrupted()) {
        interrupted_ = true;
        return LcpStatus::pivot_limit;
      }
      if (since_refactor_ >= std::max(refactor_interval, k())) refactor();
      if (try_completion(entering)) return LcpStatus::solved;
      compute_direction(entering);
      int leaving_pos = -1;
      bool leaving_is_z = false;
      if (!ratio_test(leaving_pos, leaving_is_z)) {
        // no blocking row: confirm on a fresh factorization before calling it a ray
        trouble_ = false;
        refactor();
        compute_direction(entering);
        if (!ratio_test(leaving_pos, leaving_is_z))
          return trouble_ ? LcpStatus::numerical_failure : LcpStatus::ray_termination;
      }
      const Var leaving = leaving_is_z ? Var{true, cols_[leaving_pos]}
                                       : Var{false, leaving_pos};  // for w, the row index
      pivot(entering, leaving, leaving_pos);
      ++pivots_;
      ++since_refactor_;
      if (leaving.is_z && leaving.index == n_) break;  // z₀ left: a complementary solution
      entering = Var{!leaving.is_z, leaving.index};
    }
    return LcpStatus::solved;
  }

  // z from the final basis by a fresh LU solve of A z_Z = −q_L (z₀ is not basic any more)
  Vector solution() {
    Vector z = Vector::Zero(n_);
    const int kk = k();
    if (kk == 0) return z;
    Vector rhs(kk);
    const DenseMatrix A = basis_block(rhs);
    Eigen::PartialPivLU<DenseMatrix> lu(A);
    Vector zz = lu.solve(rhs);
    zz += lu.solve(rhs - A * zz);  // one step of iterative refinement
    for (int b = 0; b < kk; ++b)
      if (cols_[b] < n_) z(cols_[b]) = zz(b);
    return z;
  }

  std::vector<int> active_set() const {
    std::vector<int> s;
    for (int c : cols_)
      if (c < n_) s.push_back(c);
    std::sort(s.begin(), s.end());
    return s;
  }

  int refactorizations() const { return refactorizations_; }
  /// how many pivots made each of the four moves of A (header comment), in that order: grow
  /// (z in, w out), column swap (z in, z out), row swap (w in, w out), delete (w in, z out)
  const std::array<int, 4>& moves() const { return moves_; }
  /// for tests: max |(A⁻¹)_updated − (A⁻¹)_fresh| / max |(A⁻¹)_fresh|, the updated inverse
  /// against a dense LU inverse of the current basis block A (0 when the basis is empty): how far
  /// the O(k²) updates have drifted from a refactorization
  double inverse_update_error() {
    const int kk = k();
    if (kk == 0) return 0.0;
    Vector rhs(kk);
    const DenseMatrix fresh = Eigen::PartialPivLU<DenseMatrix>(basis_block(rhs)).inverse();
    const double scale = fresh.cwiseAbs().maxCoeff();
    return (Ainv_.topLeftCorner(kk, kk) - fresh).cwiseAbs().maxCoeff() / std::max(scale, kTiny);
  }
  int pivots() const { return pivots_; }
  /// true when run() ended by a verified completion (the answer is with the Completion's owner)
  bool completed() const { return completed_; }
  /// true when the path stopped because LemkeOptions::interrupted said so
  bool interrupted() const { return interrupted_; }

 private:
  // Early completion. On the degenerate LCPs of resting contacts the path can creep for hundreds
  // of pivots with z₀ at rounding level (5e-12 against a start of 0.05 on a 5-level box
  // pyramid), where z₀'s ratio no longer separates reliably from its ties, and end on a false
  // ray. With z₀ that small the current almost-complementary basis is a solution but for z₀: r,
  // the index with both w_r and z_r nonbasic, either joins the active set (z_r enters in z₀'s
  // place) or not (w_r enters). Both complementary sets, S = L \ {r} first, then S = L, are
  // handed to the completion check, which accepts one only when its answer passes the residual
  // check on the problem as given. Tried when z₀ ≤ 1e-8 of its start, again each time z₀ has fallen
  // 4× further or after 32 more pivots.
  bool try_completion(const Var& entering) {
    if (!completion_ || pos_col_[n_] < 0) return false;
    const double z0 = zval_(pos_col_[n_]);
    if (!(z0 <= kCompletionRatio * z0_start_)) return false;
    if (!(z0 <= 0.25 * last_completion_z0_) && pivots_ - last_completion_pivot_ < 32) return false;
    last_completion_z0_ = z0;
    last_completion_pivot_ = pivots_;
    const int r = entering.index;  // both w_r and z_r are nonbasic
    Vector guess = Vector::Zero(n_);
    for (int b = 0; b < k(); ++b)
      if (cols_[b] < n_) guess(cols_[b]) = zval_(b);
    const std::vector<int> without_r = active_set();
    std::vector<int> with_r = without_r;
    with_r.insert(std::lower_bound(with_r.begin(), with_r.end(), r), r);
    completed_ = completion_(without_r, guess) || completion_(with_r, guess);
    return completed_;
  }

  void set_basis(const std::vector<int>& rows, const std::vector<int>& cols) {
    for (int r : rows_) pos_row_[r] = -1;
    for (int c : cols_) pos_col_[c] = -1;
    rows_ = rows;
    cols_ = cols;
    for (int a = 0; a < k(); ++a) {
      pos_row_[rows_[a]] = a;
      pos_col_[cols_[a]] = a;
    }
    reserve_inverse(k());
  }

  static constexpr double kCompletionRatio = 1e-8;
  int k() const { return static_cast<int>(cols_.size()); }
  // M̃(i, j): column n is the covering vector
  double Mt(int i, int j) const { return j < n_ ? detail::access::entry(M_, i, j) : d_(i); }

  // A = M̃(L, Z), and rhs = −q_L
  DenseMatrix basis_block(Vector& rhs) {
    const int kk = k();
    const int z0 = pos_col_[n_];
    std::vector<int> cols = cols_;
    if (z0 >= 0) cols[z0] = 0;  // a stand-in column of M, replaced by d_L below
    DenseMatrix A = detail::access::gather_block(M_, rows_, cols, position_);
    for (int a = 0; a < kk; ++a) {
      rhs(a) = -q_(rows_[a]);
      if (z0 >= 0) A(a, z0) = d_(rows_[a]);
    }
    return A;
  }

  // A⁻¹ is kept in the leading block of Ainv_, whose storage grows by doubling up to n + 1
  void reserve_inverse(int size) {
    if (Ainv_.rows() >= size) return;
    const int cap = std::min(n_ + 1, std::max({size, 2 * static_cast<int>(Ainv_.rows()), 16}));
    Ainv_.conservativeResize(cap, cap);
  }

  // rates of change of the basic variables per unit increase of the entering variable:
  // dz_ (per position of Z) and dw_ (per row, for rows not in L)
  void compute_direction(const Var& entering) {
    const int kk = k();
    auto dz = dz_.head(kk);
    if (entering.is_z) {
      auto col = work_.head(kk);
      column_at_rows(entering.index, col);
      dz.noalias() = -Ainv_.topLeftCorner(kk, kk) * col;
    } else {
      dz = Ainv_.col(pos_row_[entering.index]).head(kk);
    }
    // dw = M̃(·, j) + M̃(·, Z) dz, column by column (rows in L are computed but unused)
    if (entering.is_z)
      add_column(entering.index, 1.0, dw_, true);
    else
      dw_.setZero();
    for (int b = 0; b < kk; ++b) add_column(cols_[b], dz(b), dw_, false);
  }

  // out(a) = M̃(rows_[a], j)
  template <typename Out>
  void column_at_rows(int j, Out&& out) const {
    if (j < n_) {
      detail::access::gather_column(M_, j, rows_, pos_row_, out);
    } else {
      for (int a = 0; a < k(); ++a) out(a) = d_(rows_[a]);
    }
  }

  // out (+)= s · M̃(·, j)
  void add_column(int j, double s, Vector& out, bool assign) const {
    if (assign) out.setZero();
    if (j < n_)
      detail::access::add_column(M_, j, s, out);
    else
      out.noalias() += s * d_;
  }

  // bᵀA⁻¹ for b = M̃(r, Z), into out (size k)
  void row_times_inverse(int r, Eigen::Ref<Vector> out) {
    const int kk = k();
    auto b = gather_.head(kk);
    for (int c = 0; c < kk; ++c) b(c) = Mt(r, cols_[c]);
    out.noalias() = Ainv_.topLeftCorner(kk, kk).transpose() * b;
  }

  // The lexicographic rows of the tied variables, compact. A row of B⁻¹ is zero outside the
  // columns L (and, for w_r, the column r ∉ L of its unit entry), so each tied row is kept on
  // the columns lex_cols_ = L ∪ {r of the tied w_r} only, sorted by column index: comparing
  // there is comparing the full rows (a column where both rows are 0 is skipped by the
  // comparison anyway), at O(k) per row instead of O(n).
  //   row of z_Z(b): −(A⁻¹)(b, ·) on L
  //   row of w_r:    e_rᵀ − M̃(r, Z) A⁻¹ on L
  void lex_columns() {
    const int kk = k();
    lex_cols_.clear();
    for (int a = 0; a < kk; ++a) lex_cols_.push_back({rows_[a], a});
    int slot = kk;
    for (const auto& c : ties_)
      if (!c.is_z) lex_cols_.push_back({c.pos, slot++});
    std::sort(lex_cols_.begin(), lex_cols_.end());
  }

  // the compact row (slots 0…k−1: columns L by position; k + j: the j-th tied w's unit column)
  void lex_row(int pos, bool is_z, int w_slot, Vector& out) {
    const int kk = k();
    out.setZero(kk + w_slot_count_);
    if (is_z) {
      out.head(kk) = -Ainv_.row(pos).head(kk).transpose();
    } else {
      out(w_slot) = 1.0;
      auto t = work2_.head(kk);
      row_times_inverse_sparse(pos, t);
      out.head(kk) -= t;
    }
  }

  // bᵀA⁻¹ for b = M̃(r, Z) from the stored entries of row r of M only (a sparse M: about
  // nnz(row) · k instead of k²; a dense M: row_times_inverse)
  void row_times_inverse_sparse(int r, Eigen::Ref<Vector> out) {
    if constexpr (!std::is_same_v<Matrix, SparseMatrix>) {
      row_times_inverse(r, out);
    } else {
      if (M_rows_.rows() != n_) M_rows_ = M_;  // row-major copy, made once per path
      // the rows of A⁻¹ as contiguous columns of its transpose (transposed_inverse())
      out.setZero();
      for (RowMajorSparse::InnerIterator it(M_rows_, r); it; ++it)
        if (const int b = pos_col_[static_cast<std::size_t>(it.col())]; b >= 0)
          out.noalias() += it.value() * Ainv_t_.col(b);
      if (const int b = pos_col_[n_]; b >= 0) out.noalias() += d_(r) * Ainv_t_.col(b);
    }
  }

  // minimum ratio test with the lexicographic tie break; false when no row blocks
  bool ratio_test(int& leaving_pos, bool& leaving_is_z) {
    const int kk = k();
    double dmax = 0.0, ymax = 0.0;
    for (int b = 0; b < kk; ++b) {
      dmax = std::max(dmax, std::abs(dz_(b)));
      ymax = std::max(ymax, std::abs(zval_(b)));
    }
    for (int i = 0; i < n_; ++i)
      if (pos_row_[i] < 0) {
        dmax = std::max(dmax, std::abs(dw_(i)));
        ymax = std::max(ymax, std::abs(wval_(i)));
      }
    if (!std::isfinite(dmax) || !std::isfinite(ymax)) {
      trouble_ = true;  // the basis inverse has broken down: no row can be trusted
      return false;
    }
    if (!(dmax > 0.0)) return false;
    // a basic variable blocks when it decreases: rate D = −d(value) > tol ‖D‖∞ (Cline §4.8.3)
    const double dtol = opt_.pivot_tolerance * dmax;
    candidates_.clear();
    double theta = std::numeric_limits<double>::infinity();
    auto consider = [&](int pos, bool is_z, double value, double rate) {
      if (rate <= dtol) return;
      const double ratio = std::max(value, 0.0) / rate;
      candidates_.push_back({pos, is_z, ratio, rate});
      theta = std::min(theta, ratio);
    };
    for (int b = 0; b < kk; ++b) consider(b, true, zval_(b), -dz_(b));
    for (int i = 0; i < n_; ++i)
      if (pos_row_[i] < 0) consider(i, false, wval_(i), -dw_(i));
    if (candidates_.empty()) return false;
    if (!std::isfinite(theta)) {
      trouble_ = true;
      return false;
    }

    const double tie = 1e-12 * std::max(theta, std::max(ymax, kTiny) / dmax);
    ties_.clear();
    for (const auto& c : candidates_)
      if (c.ratio <= theta + tie) ties_.push_back(c);
    // z₀ leaving ends the algorithm with a solution: always take it when it is tied
    for (const auto& c : ties_)
      if (c.is_z && cols_[c.pos] == n_) {
        leaving_pos = c.pos;
        leaving_is_z = true;
        return true;
      }
    std::size_t best = 0;
    if (ties_.size() > 1) {
      // lexicographic minimum of (B⁻¹)_r· / D_r over the tied rows, on their compact rows
      w_slot_count_ = 0;
      for (const auto& c : ties_) w_slot_count_ += c.is_z ? 0 : 1;
      lex_columns();
      if constexpr (std::is_same_v<Matrix, SparseMatrix>)
        if (w_slot_count_ > 0) Ainv_t_ = Ainv_.topLeftCorner(k(), k()).transpose();
      lex_rows_.resize(ties_.size());
      double scale = 0.0;
      int w_slot = k();
      for (std::size_t c = 0; c < ties_.size(); ++c) {
        lex_row(ties_[c].pos, ties_[c].is_z, ties_[c].is_z ? -1 : w_slot++, lex_rows_[c]);
        lex_rows_[c] /= ties_[c].rate;
        scale = std::max(scale, lex_rows_[c].template lpNorm<Eigen::Infinity>());
      }
      const double eq_tol = 1e-12 * std::max(scale, kTiny);
      for (std::size_t c = 1; c < ties_.size(); ++c) {
        for (const auto& [col, slot] : lex_cols_) {
          const double a = lex_rows_[c](slot), b = lex_rows_[best](slot);
          if (std::abs(a - b) <= eq_tol) continue;
          if (a < b) best = c;
          break;
        }
      }
    }
    leaving_pos = ties_[best].pos;
    leaving_is_z = ties_[best].is_z;
    return true;
  }

  // moves the entering variable into the basis and the leaving one out, updating values and A⁻¹
  void pivot(const Var& entering, const Var& leaving, int leaving_pos) {
    const int kk = k();
    const double rate = leaving.is_z ? -dz_(leaving_pos) : -dw_(leaving.index);
    const double value = leaving.is_z ? zval_(leaving_pos) : wval_(leaving.index);
    const double theta = std::max(value, 0.0) / rate;
    // values move along the direction by θ
    for (int b = 0; b < kk; ++b) zval_(b) += theta * dz_(b);
    for (int i = 0; i < n_; ++i)
      if (pos_row_[i] < 0) wval_(i) += theta * dw_(i);

    if (entering.is_z && !leaving.is_z) reserve_inverse(kk + 1);  // before X refers to it
    auto X = Ainv_.topLeftCorner(kk, kk);
    ++moves_[entering.is_z ? (leaving.is_z ? 1 : 0) : (leaving.is_z ? 3 : 2)];
    if (entering.is_z && !leaving.is_z) {
      // grow: A' = [[A, a], [bᵀ, α]], a = M̃(L, j), bᵀ = M̃(r, Z), α = M̃(r, j)
      // s = α − bᵀA⁻¹a is the rate dw_r = −D_r (nonzero by the ratio test)
      const int j = entering.index, r = leaving.index;
      const double s = dw_(r);
      auto Xa = work_.head(kk);  // A⁻¹ a = −dz
      Xa = -dz_.head(kk);
      auto bX = work2_.head(kk);  // bᵀ A⁻¹
      row_times_inverse(r, bX);
      X.noalias() += (Xa / s) * bX.transpose();
      Ainv_.col(kk).head(kk) = -Xa / s;
      Ainv_.row(kk).head(kk) = -bX.transpose() / s;
      Ainv_(kk, kk) = 1.0 / s;
      rows_.push_back(r);
      cols_.push_back(j);
      pos_row_[r] = kk;
      pos_col_[j] = kk;
      zval_(kk) = theta;
      wval_(r) = 0.0;
    } else if (entering.is_z && leaving.is_z) {
      // column l ← M̃(L, j):  A'⁻¹ = A⁻¹ − (s − e_l) (A⁻¹)_l· / s_l,  s = A⁻¹ a = −dz
      const int l = leaving_pos;
      auto s = work_.head(kk);
      s = -dz_.head(kk);
      const double sl = s(l);
      s(l) -= 1.0;
      const Eigen::RowVectorXd xl = X.row(l);
      X.noalias() -= (s / sl) * xl;
      pos_col_[cols_[l]] = -1;
      cols_[l] = entering.index;
      pos_col_[entering.index] = l;
      zval_(l) = theta;
    } else if (!entering.is_z && !leaving.is_z) {
      // row p ← M̃(r, Z):  A'⁻¹ = A⁻¹ − (A⁻¹)_·p (t − e_p)ᵀ / t_p,  tᵀ = M̃(r, Z) A⁻¹
      const int p = pos_row_[entering.index], r = leaving.index;
      auto t = work_.head(kk);
      row_times_inverse(r, t);
      const double tp = t(p);
      t(p) -= 1.0;
      const Vector xp = X.col(p);
      X.noalias() -= xp * (t.transpose() / tp);
      pos_row_[entering.index] = -1;
      rows_[p] = r;
      pos_row_[r] = p;
      wval_(entering.index) = theta;
      wval_(r) = 0.0;
    } else {
      // delete row p of A (w_i enters) and column l (z_l leaves):
      // (A minus row p, col l)⁻¹ = X(−l, −p) − X(−l, p) X(l, −p) / X(l, p)
      int p = pos_row_[entering.index];
      int l = leaving_pos;
      const int last = kk - 1;
      // move p and l to the last positions so the result is the leading (k−1) block
      if (p != last) {
        X.col(p).swap(X.col(last));
        std::swap(rows_[p], rows_[last]);
        pos_row_[rows_[p]] = p;
        pos_row_[rows_[last]] = last;
      }
      if (l != last) {
        X.row(l).swap(X.row(last));
        std::swap(cols_[l], cols_[last]);
        std::swap(zval_(l), zval_(last));
        pos_col_[cols_[l]] = l;
        pos_col_[cols_[last]] = last;
      }
      p = l = last;
      const double pivot_value = X(l, p);
      const Vector xcol = X.col(p).head(last);
      const Eigen::RowVectorXd xrow = X.row(l).head(last);
      Ainv_.topLeftCorner(last, last).noalias() -= xcol * (xrow / pivot_value);
      pos_row_[rows_[last]] = -1;
      pos_col_[cols_[last]] = -1;
      rows_.pop_back();
      cols_.pop_back();
      wval_(entering.index) = theta;
    }
  }

  // A⁻¹ and the basic values afresh from an LU of A
  void refactor() {
    ++refactorizations_;
    since_refactor_ = 0;
    const int kk = k();
    last_rcond_ = 1.0;
    if (kk == 0) return;
    Vector rhs(kk);
    const DenseMatrix A = basis_block(rhs);
    Eigen::PartialPivLU<DenseMatrix> lu(A);
    Ainv_.topLeftCorner(kk, kk) = lu.inverse();
    // 1 / (‖A‖₁ ‖A⁻¹‖₁) from the inverse at hand (Eigen's rcond() estimate said 0.01 for a
    // block with a zero row, whose inverse had entries of 1e17)
    const double norms = A.cwiseAbs().colwise().sum().maxCoeff() *
                         Ainv_.topLeftCorner(kk, kk).cwiseAbs().colwise().sum().maxCoeff();
    last_rcond_ = norms > 0.0 ? 1.0 / norms : 0.0;
    zval_.head(kk) = lu.solve(rhs);
    wval_ = q_;
    for (int b = 0; b < kk; ++b) add_column(cols_[b], zval_(b), wval_, false);
    for (int a = 0; a < kk; ++a) wval_(rows_[a]) = 0.0;
  }

  const Matrix& M_;
  const Vector& q_;
  const Vector& d_;
  const LemkeOptions& opt_;
  const int n_;

  DenseMatrix Ainv_;           // A⁻¹ in its leading k × k block: rows ↔ Z, columns ↔ L
  std::vector<int> rows_;      // L: rows whose w is nonbasic, by position
  std::vector<int> cols_;      // Z: basic z̃ indices by position (n is z₀)
  std::vector<int> pos_row_;   // position of row i in L, or −1 (w_i basic)
  std::vector<int> pos_col_;   // position of z̃_j in Z, or −1
  std::vector<int> position_;  // scratch of detail::access::gather_block, all −1
  Vector wval_, zval_;         // basic values: w by row, z̃ by position
  Vector dz_, dw_, work_, work2_, gather_;
  struct Candidate {
    int pos;
    bool is_z;
    double ratio;
    double rate;
  };
  std::vector<Candidate> candidates_, ties_;
  std::vector<Vector> lex_rows_;               // compact lexicographic rows of the ties
  std::vector<std::pair<int, int>> lex_cols_;  // (column of B⁻¹, slot in a compact row)
  int w_slot_count_ = 0;                       // tied w's: their unit columns' slots
  using RowMajorSparse = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
  RowMajorSparse M_rows_;  // a sparse M by rows, for row_times_inverse_sparse
  DenseMatrix Ainv_t_;     // (A⁻¹)ᵀ at the current tie break: rows of A⁻¹ read contiguously
  Completion completion_;
  bool completed_ = false;
  bool interrupted_ = false;
  double last_rcond_ = 1.0;  // 1 / κ₁ of the last refactor()'s basis block
  double z0_start_ = 0.0, last_completion_z0_ = 0.0;
  int last_completion_pivot_ = 0;
  int pivots_ = 0;
  bool trouble_ = false;  // a non-finite value appeared (singular basis)
  int since_refactor_ = 0;
  int refactorizations_ = 0;
  std::array<int, 4> moves_{};
};

}  // namespace pivot::lcp::detail
