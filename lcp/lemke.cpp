// Long file: to be split into one file per concept (issue #25, in progress).
// Lemke's algorithm, revised form with a block basis inverse (see lemke.hpp for the summary).
//
// Augmented system (Cline eq. 2.35), with z̃ = (z, z₀) and M̃ = [M d]:
//     w = M̃ z̃ + q,   w, z̃ ≥ 0.
// A basis is described by L, the rows whose w is nonbasic (w_i = 0), and Z, the basic
// components of z̃ (|L| = |Z| = k). With A = M̃(L, Z):
//     z_Z = −A⁻¹ q_L,            w_i = q_i + M̃(i, Z) z_Z   for i ∉ L.
// So the basis matrix B of [I, −M̃] has the inverse
//     row of z_Z(b):  −(A⁻¹)(b, ·) on the columns L, 0 elsewhere;
//     row of w_r:     e_rᵀ − M̃(r, Z) A⁻¹ on the columns L,
// which the lexicographic ratio test reads row by row (Murty 1988; notes/cline.md §3.4).
// Only A⁻¹ (k × k) is stored; each pivot changes A by one of four moves, each an O(k²) update:
//   z_j in, w_r out: A grows by row r and column j     (bordering)
//   z_j in, z_l out: column l of A becomes column j     (Sherman–Morrison, Cline eq. 4.21)
//   w_i in, w_r out: row i of A becomes row r            (Sherman–Morrison on rows)
//   w_i in, z_l out: row i and column l are deleted      (block deletion)
#include "pivot/lcp/lemke.hpp"

#include <fmt/core.h>
#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "pivot/lcp/matrix_access.hpp"

namespace pivot::lcp {
namespace {

constexpr double kTiny = std::numeric_limits<double>::min();
// a sparse M with more than this fraction of its n² entries stored is solved in dense storage
constexpr double kDenseFraction = 0.25;

// The residuals of z, or of max(z, 0) when z fails and its projection passes. A degenerate basis
// has basic z_i whose exact value is 0; the solve returns them as ±rounding (−4e-18 next to
// ‖z‖∞ = 0.13 on a 5-level box pyramid). A negative one makes w_j = μ z_i − … of a friction-cone
// row negative relative to its own scale, which is that same rounding, and the componentwise
// check rejects an exact basis; the projection removes that. The other way round, the
// minimum-norm answer on the singular block of redundant contacts may have z_i slightly below
// 0 (within the check) whose projection would unbalance other rows: z itself is tried first.
// Nothing is hidden: what is returned is exactly what was judged.
template <typename Matrix>
bool judge(const Matrix& M, const Vector& q, Vector& z, double tolerance, Vector& w,
           LcpResiduals& residuals) {
  residuals = measure_residuals(M, q, z, &w);
  if (residuals.worst() <= tolerance || !(z.minCoeff() < 0.0))
    return residuals.worst() <= tolerance;
  Vector projected = z.cwiseMax(0.0), w_projected;
  const LcpResiduals r = measure_residuals(M, q, projected, &w_projected);
  if (!(r.worst() <= tolerance)) return false;
  z = std::move(projected);
  w = std::move(w_projected);
  residuals = r;
  return true;
}

// a variable of the augmented problem: w_i (is_z = false) or z̃_j (j = n is z₀)
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
    if (!zval_.head(k()).allFinite()) return LcpStatus::numerical_failure;  // singular M_αα
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
    for (int j : alpha) access::add_column(M, j, -1.0, d);
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
  int pivots() const { return pivots_; }
  /// true when run() ended by a verified completion (the answer is with the Completion's owner)
  bool completed() const { return completed_; }

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
  double Mt(int i, int j) const { return j < n_ ? access::entry(M_, i, j) : d_(i); }

  // A = M̃(L, Z), and rhs = −q_L
  DenseMatrix basis_block(Vector& rhs) {
    const int kk = k();
    const int z0 = pos_col_[n_];
    std::vector<int> cols = cols_;
    if (z0 >= 0) cols[z0] = 0;  // a stand-in column of M, replaced by d_L below
    DenseMatrix A = access::gather_block(M_, rows_, cols, position_);
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
      access::gather_column(M_, j, rows_, pos_row_, out);
    } else {
      for (int a = 0; a < k(); ++a) out(a) = d_(rows_[a]);
    }
  }

  // out (+)= s · M̃(·, j)
  void add_column(int j, double s, Vector& out, bool assign) const {
    if (assign) out.setZero();
    if (j < n_)
      access::add_column(M_, j, s, out);
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

  // row of B⁻¹ (over the n equation columns) of a basic variable
  void inverse_row(int pos, bool is_z, Vector& out) {
    const int kk = k();
    out.setZero(n_);
    if (is_z) {
      for (int a = 0; a < kk; ++a) out(rows_[a]) = -Ainv_(pos, a);
    } else {
      out(pos) = 1.0;
      auto t = work2_.head(kk);
      row_times_inverse(pos, t);
      for (int a = 0; a < kk; ++a) out(rows_[a]) -= t(a);
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
      // lexicographic minimum of (B⁻¹)_r· / D_r over the tied rows
      lex_rows_.resize(ties_.size());
      double scale = 0.0;
      for (std::size_t c = 0; c < ties_.size(); ++c) {
        inverse_row(ties_[c].pos, ties_[c].is_z, lex_rows_[c]);
        lex_rows_[c] /= ties_[c].rate;
        scale = std::max(scale, lex_rows_[c].lpNorm<Eigen::Infinity>());
      }
      const double eq_tol = 1e-12 * std::max(scale, kTiny);
      for (std::size_t c = 1; c < ties_.size(); ++c) {
        for (int col = 0; col < n_; ++col) {
          const double a = lex_rows_[c](col), b = lex_rows_[best](col);
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
    if (kk == 0) return;
    Vector rhs(kk);
    const DenseMatrix A = basis_block(rhs);
    Eigen::PartialPivLU<DenseMatrix> lu(A);
    Ainv_.topLeftCorner(kk, kk) = lu.inverse();
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
  std::vector<int> position_;  // scratch of access::gather_block, all −1
  Vector wval_, zval_;         // basic values: w by row, z̃ by position
  Vector dz_, dw_, work_, work2_, gather_;
  struct Candidate {
    int pos;
    bool is_z;
    double ratio;
    double rate;
  };
  std::vector<Candidate> candidates_, ties_;
  std::vector<Vector> lex_rows_;
  Completion completion_;
  bool completed_ = false;
  double z0_start_ = 0.0, last_completion_z0_ = 0.0;
  int last_completion_pivot_ = 0;
  int pivots_ = 0;
  bool trouble_ = false;  // a non-finite value appeared (singular basis)
  int since_refactor_ = 0;
  int refactorizations_ = 0;
};

// z on the active set S: solves M(S,S) z_S = −q_S (z = 0 off S) starting from the guess z (zero
// when empty) by two rounds of z_S += M(S,S)⁺ (−q_S − M(S,S) z_S), the minimum-norm correction
// of a rank-revealing (complete orthogonal) decomposition. For a nonsingular block this is the
// unique solution; for the rank-deficient blocks of redundant contacts it stays next to the
// guess (the regularized answer) instead of jumping to an arbitrary one. False for a bad set.
// indices in [0, n), strictly increasing
bool valid_active_set(const std::vector<int>& active, Eigen::Index n) {
  for (std::size_t a = 0; a < active.size(); ++a)
    if (active[a] < 0 || active[a] >= n || (a > 0 && active[a] <= active[a - 1])) return false;
  return true;
}

template <typename Matrix>
bool solve_active_set(const Matrix& M, const Vector& q, const std::vector<int>& active, Vector& z) {
  const Eigen::Index n = q.size();
  const auto k = static_cast<Eigen::Index>(active.size());
  if (!valid_active_set(active, n)) return false;
  const Vector guess = z.size() == n ? z : Vector::Zero(n);
  z = Vector::Zero(n);
  if (k == 0) return true;
  std::vector<int> position(static_cast<std::size_t>(n), -1);
  const DenseMatrix A = access::gather_block(M, active, active, position);
  Vector rhs(k), zz(k);
  for (Eigen::Index a = 0; a < k; ++a) {
    rhs(a) = -q(active[a]);
    zz(a) = guess(active[a]);
  }
  const Eigen::CompleteOrthogonalDecomposition<DenseMatrix> cod(A);
  for (int round = 0; round < 2; ++round) zz += cod.solve(Vector(rhs - A * zz));
  if (!zz.allFinite()) return false;
  for (Eigen::Index a = 0; a < k; ++a) z(active[a]) = zz(a);
  return true;
}

// accepts z for the given active set when the residual check passes; z is the guess on entry
// and the candidate on exit (before the projection onto z ≥ 0, so polish() sees its signs)
template <typename Matrix>
bool accept_active_set(const Matrix& M, const Vector& q, const std::vector<int>& active,
                       double tolerance, Vector& z, Vector& w, LcpResult& result) {
  if (!solve_active_set(M, q, active, z)) return false;
  Vector judged = z;
  LcpResiduals res;
  if (!judge(M, q, judged, tolerance, w, res)) return false;
  result.z = judged;
  result.w = w;
  result.residuals = res;
  result.active_set = active;
  result.status = LcpStatus::solved;
  result.message.clear();
  return true;
}

// the warm start: the guessed active set, accepted only when verified
template <typename Matrix>
bool try_warm_start(const Matrix& M, const Vector& q, const std::vector<int>& active,
                    double tolerance, LcpResult& result) {
  Vector z, w;
  if (!accept_active_set(M, q, active, tolerance, z, w, result)) return false;
  result.path = StartPath::warm_start;
  result.pivots = 0;
  return true;
}

// On an ill-conditioned problem the basis Lemke ends on can miss by rounding: a z_i slightly
// negative, or a w_i. Correct the active set from the signs (drop z_i < 0, add w_i < 0: a block
// principal pivot) and re-solve, a few times; only a verified answer is accepted.
template <typename Matrix>
bool polish(const Matrix& M, const Vector& q, double tolerance, LcpResult& result) {
  std::vector<int> active = result.active_set;
  Vector z = result.z, w = result.w;
  // first the same active set, refined on M from Lemke's z (which may come from M + δI)
  if (accept_active_set(M, q, active, tolerance, z, w, result)) return true;
  if (z.size() != q.size()) return false;
  w = M * z + q;
  for (int round = 0; round < 3; ++round) {
    std::vector<bool> in(q.size(), false);
    for (int i : active) in[i] = true;
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      if (in[i] && z(i) < 0.0)
        in[i] = false;
      else if (!in[i] && w(i) < 0.0)
        in[i] = true;
    }
    std::vector<int> next;
    for (Eigen::Index i = 0; i < q.size(); ++i)
      if (in[i]) next.push_back(static_cast<int>(i));
    if (next == active) return false;
    active = std::move(next);
    if (accept_active_set(M, q, active, tolerance, z, w, result)) return true;
    if (z.size() != q.size()) return false;
    w = M * z + q;
  }
  return false;
}

template <typename Matrix>
LcpResult solve(const Matrix& M, const Vector& q, const LemkeOptions& options) {
  LcpResult result;
  if (std::string why = validate(M, q); !why.empty()) {
    result.message = why;
    return result;
  }
  const auto n = static_cast<int>(q.size());
  Vector d = options.covering.size() == 0 ? Vector(Vector::Ones(n)) : options.covering;
  if (d.size() != n) {
    result.message = fmt::format("covering vector has {} entries, expected {}", d.size(), n);
    return result;
  }
  for (int i = 0; i < n; ++i)
    if (!(d(i) > 0.0) || !std::isfinite(d(i))) {
      result.message =
          fmt::format("covering vector entry {} is {} (must be positive, finite)", i, d(i));
      return result;
    }
  if (options.max_pivots < 0 || options.refactor_interval < 1 || !(options.pivot_tolerance >= 0) ||
      !(options.residual_tolerance > 0)) {
    result.message = "invalid Lemke options (max_pivots, refactor_interval or a tolerance)";
    return result;
  }

  // trivial: q ≥ 0 gives z = 0
  if (n == 0 || q.minCoeff() >= 0.0) {
    result.z = Vector::Zero(n);
    result.residuals = measure_residuals(M, q, result.z, &result.w);
    result.status = LcpStatus::solved;
    result.path = StartPath::trivial;
    return result;
  }
  if (options.warm_start &&
      try_warm_start(M, q, *options.warm_start, options.residual_tolerance, result))
    return result;

  const int max_pivots = options.max_pivots > 0 ? options.max_pivots : 100 * n + 1000;
  result.path = StartPath::lemke;
  // A ray or a failed residual check can come from a near-singular basis chosen through a tiny
  // pivot (Cline §4.8.3), typically on the rank-deficient, highly degenerate matrices of resting
  // contacts. Each is re-checked from scratch before it is reported: with M + δI, δ = 1e-10 ‖M‖∞
  // (strictly copositive, so Lemke's path cannot end on a ray; the answer is still judged on
  // the original M), then with frequent refactorization and a 100× larger, then a 100× smaller
  // pivot tolerance. A genuine ray ends every attempt on a ray; `solved` is only ever returned
  // verified on the problem as given.
  // Then a 10⁴× smaller pivot tolerance at the usual refactorization interval, and the
  // attempts again with another covering vector: each d_i scaled by a factor in [1, 1.5) spread
  // by the golden ratio, so the rows do not tie the way they did with d = 1. On the degenerate
  // friction LCPs of box pyramids the path through near-ties, not the matrix, is what fails;
  // another path usually succeeds (docs/lcp.md, "hard cases").
  struct Attempt {
    double pivot_tolerance;
    int refactor_interval;
    double regularization;
    bool spread_covering;
    bool from_warm_start = false;  // run_from(options.warm_start) with its own covering vector
  };
  const double m_norm = access::max_row_abs_sum(M);
  const bool warm_path = options.warm_start && valid_active_set(*options.warm_start, n);
  const Attempt attempts[] = {
      {options.pivot_tolerance, options.refactor_interval, 0.0, false, true},
      {options.pivot_tolerance, options.refactor_interval, 0.0, false},
      {options.pivot_tolerance, options.refactor_interval, 1e-10 * m_norm, false},
      {std::min(options.pivot_tolerance * 100.0, 1e-6), 4, 0.0, false},
      {options.pivot_tolerance / 100.0, 4, 0.0, false},
      {options.pivot_tolerance * 1e-4, options.refactor_interval, 0.0, false},
      {options.pivot_tolerance, options.refactor_interval, 0.0, true},
      {options.pivot_tolerance, options.refactor_interval, 1e-10 * m_norm, true},
      {std::min(options.pivot_tolerance * 100.0, 1e-6), 4, 0.0, true},
      {options.pivot_tolerance * 1e-4, options.refactor_interval, 0.0, true},
  };
  Vector spread = d;
  for (int i = 0; i < n; ++i)
    spread(i) *= 1.0 + 0.5 * std::fmod(static_cast<double>(i) * 0.6180339887498949, 1.0);
  // Each attempt gets at most 10 n + 1000 pivots (Lemke's path is a few n pivots on every
  // problem we have seen; a longer one is a numerical cycle, as a 61 000-pivot run on a 5-level
  // pyramid was); the whole cascade gets max_pivots.
  const int attempt_budget = std::min(max_pivots, 10 * n + 1000);
  // the path from a warm start should be short (a nearby basis); a long one is cut off and the
  // standard start used instead
  const int warm_budget = n / 4 + 50;
  int total_pivots = 0;
  bool residual_failed = false;
  LcpStatus last = LcpStatus::ray_termination;
  Matrix regularized;
  for (const Attempt& attempt : attempts) {
    if (attempt.from_warm_start && !warm_path) continue;
    if (attempt.regularization > 0.0)
      regularized = access::plus_diagonal(M, attempt.regularization);
    const Matrix& M_used = attempt.regularization > 0.0 ? regularized : M;
    LemkeOptions tuned = options;
    tuned.pivot_tolerance = attempt.pivot_tolerance;
    // a completion is judged on the problem as given (M, not M_used)
    const Completion completion = [&](const std::vector<int>& S, const Vector& guess) {
      Vector z = guess, w;
      return accept_active_set(M, q, S, options.residual_tolerance, z, w, result);
    };
    const Vector covering = attempt.from_warm_start
                                ? LemkeSolver<Matrix>::warm_covering(M, *options.warm_start)
                                : (attempt.spread_covering ? spread : d);
    LemkeSolver<Matrix> solver(M_used, q, covering, tuned, completion);
    result.path = attempt.from_warm_start ? StartPath::warm_lemke : StartPath::lemke;
    if (attempt.from_warm_start)
      last = solver.run_from(*options.warm_start,
                             std::min({warm_budget, attempt_budget, max_pivots - total_pivots}),
                             attempt.refactor_interval);
    else
      last = solver.run(std::min(attempt_budget, max_pivots - total_pivots),
                        attempt.refactor_interval);
    result.refactorizations += solver.refactorizations();
    total_pivots += solver.pivots();
    result.pivots = total_pivots;
    if (solver.completed()) return result;
    if (last == LcpStatus::pivot_limit && total_pivots >= max_pivots) break;
    // the warm path's own failures say nothing about the problem: the standard start decides
    if (last == LcpStatus::numerical_failure && !attempt.from_warm_start) residual_failed = true;
    if (last != LcpStatus::solved) continue;
    result.z = solver.solution();
    result.active_set = solver.active_set();
    if (judge(M, q, result.z, options.residual_tolerance, result.w, result.residuals)) {
      result.status = LcpStatus::solved;
      return result;
    }
    if (polish(M, q, options.residual_tolerance, result)) return result;
    // an answer of M + δI that fits no solution of M is expected when M has none
    if (attempt.regularization == 0.0 && !attempt.from_warm_start) residual_failed = true;
  }
  if (residual_failed) {
    result.status = LcpStatus::numerical_failure;
    result.message =
        result.z.size() == n
            ? fmt::format("the answer fails the residual check (worst {:.3g} > {:.3g})",
                          result.residuals.worst(), options.residual_tolerance)
            : std::string("the basis became singular along Lemke's path");
    if (result.z.size() != n) {
      result.z = Vector::Zero(n);
      result.w = q;
      result.residuals = measure_residuals(M, q, result.z);
    }
    return result;
  }
  result.status = last;
  result.z = Vector::Zero(n);
  result.w = q;
  result.residuals = measure_residuals(M, q, result.z);
  result.active_set.clear();
  result.message =
      last == LcpStatus::ray_termination
          ? "secondary ray: no solution reachable along Lemke's path"
          : fmt::format("no solution within {} pivots (the attempts together)", total_pivots);
  return result;
}

}  // namespace

LcpResult solve_lemke(const LcpProblem& problem, const LemkeOptions& options) {
  return solve(problem.M, problem.q, options);
}

LcpResult solve_lemke(const SparseLcpProblem& problem, const LemkeOptions& options) {
  // the basis inverse is dense whatever the storage; M itself is read in its own storage unless
  // it is so full that dense column operations are cheaper
  const double n = static_cast<double>(problem.q.size());
  if (static_cast<double>(problem.M.nonZeros()) > kDenseFraction * n * n)
    return solve(DenseMatrix(problem.M), problem.q, options);
  return solve(problem.M, problem.q, options);
}

}  // namespace pivot::lcp
