#include "pivot/collision/loop_ev_chart.hpp"

#include <fmt/format.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "pivot/core/error.hpp"

namespace pivot::detail {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr int kSides = 16;  // of the chart's domain polygon

double wrap_angle(double a) {  // into [0, 2π)
  a = std::fmod(a, kTwoPi);
  return a < 0.0 ? a + kTwoPi : a;
}

// the partials ∂^(i+j) f / ∂v^i ∂w^j (1 ≤ i + j ≤ 3) of one coordinate of a jet
struct Partials {
  std::array<std::array<double, 4>, 4> d{};
};
Partials partials(const SurfaceJet& j, const Eigen::Vector3d& along) {
  Partials f;
  f.d[1][0] = along.dot(j.p_u);
  f.d[0][1] = along.dot(j.p_v);
  f.d[2][0] = along.dot(j.p_uu);
  f.d[1][1] = along.dot(j.p_uv);
  f.d[0][2] = along.dot(j.p_vv);
  f.d[3][0] = along.dot(j.p_uuu);
  f.d[2][1] = along.dot(j.p_uuv);
  f.d[1][2] = along.dot(j.p_uvv);
  f.d[0][3] = along.dot(j.p_vvv);
  return f;
}

// Σ_{from ≤ i+j ≤ 3} f_ij a^i b^j / (i! j!): Taylor's formula of f at (v_0 + a, w_0 + b) minus
// the terms below degree `from`, for series a, b without constant terms (truncated at degree 3)
struct Powers {
  std::array<Taylor2, 4> a, b;
  Powers(const Taylor2& x, const Taylor2& y) {
    a[0] = b[0] = Taylor2::constant(1.0);
    for (int k = 1; k < 4; ++k) {
      a[k] = a[k - 1] * x;
      b[k] = b[k - 1] * y;
    }
  }
};
Taylor2 substitute(const Partials& f, const Powers& s, int from) {
  constexpr std::array<double, 4> factorial{1.0, 1.0, 2.0, 6.0};
  Taylor2 r;
  for (int i = 0; i <= 3; ++i)
    for (int j = 0; i + j <= 3; ++j)
      if (i + j >= from && f.d[i][j] != 0.0)
        r += (f.d[i][j] / (factorial[i] * factorial[j])) * (s.a[i] * s.b[j]);
  return r;
}

}  // namespace

LoopEvChart::LoopEvChart(std::shared_ptr<const LoopEvBasis> basis, std::vector<int> patches,
                         const std::vector<Eigen::MatrixXd>& C0, double cut)
    : basis_(std::move(basis)), patches_(std::move(patches)), cut_(cut) {
  const int N = basis_->valence;
  if (static_cast<int>(patches_.size()) != N || static_cast<int>(C0.size()) != N)
    throw Error("loop surface: internal error: an EV chart needs the N patches around the EV");
  // Loop's limit position and tangent masks (Loop 1987; Stam 1998 §4: the left eigenvectors of
  // the eigenvalues 1 and λ_1): c_0 = (1 − Nχ) a + χ Σ r_i, χ = 1 / (N + 3 / (8β)), and
  // t_1 = Σ cos(2πi/N) r_i, t_2 = Σ sin(2πi/N) r_i over the ring r_i counter-clockwise
  const Eigen::MatrixXd& P = C0[0];
  const double cosN = std::cos(kTwoPi / N);
  const double beta = (5.0 / 8.0 - std::pow(3.0 / 8.0 + cosN / 4.0, 2)) / N;
  const double chi = 1.0 / (N + 3.0 / (8.0 * beta));
  const Vec3 a = P.row(0).transpose();
  c0_ = (1.0 - N * chi) * a;
  Vec3 t1 = Vec3::Zero(), t2 = Vec3::Zero();
  L_ = 0.0;
  for (int i = 0; i < N; ++i) {
    const Vec3 r = P.row(1 + i).transpose();
    c0_ += chi * r;
    t1 += std::cos(kTwoPi * i / N) * r;
    t2 += std::sin(kTwoPi * i / N) * r;
    L_ += (r - a).norm() / N;
  }
  const Vec3 n = t1.cross(t2);
  if (!(L_ > 0.0) || !(n.norm() > 1e-9 * t1.norm() * t2.norm()))
    throw Error("loop surface: degenerate tangent plane at an extraordinary vertex");
  n_ = n.normalized();
  e1_ = t1.normalized();
  e2_ = n_.cross(e1_);
  kappa_ = std::log(3.0 / 8.0 + cosN / 4.0) / std::log(0.5);

  // the control points with c_0 subtracted: the patches then evaluate p − c_0 directly, and in
  // the eigenbasis the eigenvalue-1 component (the constant) is removed exactly
  for (int k = 0; k < N; ++k) {
    C_.push_back(C0[k].rowwise() - c0_.transpose());
    if (basis_->diagonal) {
      Eigen::MatrixXcd Ch = basis_->V_inverse * C_.back().cast<std::complex<double>>();
      for (int i = 0; i < basis_->lambda.size(); ++i)
        if (std::abs(basis_->lambda[i] - 1.0) < 1e-9) Ch.row(i).setZero();
      C_hat_.push_back(std::move(Ch));
    } else {
      C_hat_.emplace_back();
    }
  }

  // the sectors: the angle of each patch's edge (v, 0) in the chart, and the chart's reach at
  // the cut; the sectors must turn once around counter-clockwise
  double turn = 0.0;
  for (int k = 0; k < N; ++k) {
    const Vec2 x = chart_point(k, Vec2(cut_, 0.0));
    sector_.push_back(std::atan2(x.y(), x.x()));
    reach_.push_back(chart_point(k, Vec2(cut_ / 2, cut_ / 2)).norm());
  }
  // the smallest |x| evaluated: v + w = 2^-36 on every patch (|x| ∝ (v + w)^κ), above the
  // 2^-40 at which loop_ev_jet stops; below it the surface is its tangent plane to rounding
  // for valences up to 6 (|x| ≤ 1e-11 of the reach, and the normal turns by O(|x|))
  r_min_ = *std::min_element(reach_.begin(), reach_.end()) *
           std::pow(0x1p-36 / (cut_ / 2 + cut_ / 2), kappa_);
  for (int k = 0; k < N; ++k) {
    const double step = wrap_angle(sector_[(k + 1) % N] - sector_[k]);
    if (!(step > 0.0 && step < std::numbers::pi))
      throw Error("loop surface: the patches around an extraordinary vertex fold over");
    turn += step;
  }
  if (!(std::abs(turn - kTwoPi) < 1e-6))
    throw Error("loop surface: the patches around an extraordinary vertex do not turn once");
  // the disk: every point of v + w = cut inside it with a margin, and it inside v + w < 1/2
  double r_cut = 0.0, r_far = 1e300;
  for (int k = 0; k < N; ++k)
    for (int i = 0; i <= 32; ++i) {
      const double s = i / 32.0;
      r_cut = std::max(r_cut, chart_point(k, cut_ * Vec2(1.0 - s, s)).norm());
      r_far = std::min(r_far, chart_point(k, 0.5 * Vec2(1.0 - s, s)).norm());
    }
  const double inscribed = 1.25 * r_cut, circumscribed = inscribed / std::cos(kTwoPi / kSides / 2);
  if (!(circumscribed < 0.9 * r_far))
    throw Error(fmt::format(
        "loop surface: no regular chart fits at an extraordinary vertex (reach {:.3g} at the "
        "cut, {:.3g} at v + w = 1/2)",
        r_cut, r_far));
  for (int i = 0; i < kSides; ++i)
    domain_.vertices.push_back(circumscribed *
                               Vec2(std::cos(kTwoPi * i / kSides), std::sin(kTwoPi * i / kSides)));
}

SurfaceJet LoopEvChart::centred_jet(int k, const Vec2& vw) const {
  return loop_ev_jet(*basis_, C_[k], C_hat_[k], vw, true);
}

Vec2 LoopEvChart::chart_point(int k, const Vec2& vw) const {
  const Vec3 p = centred_jet(k, vw).p;
  return Vec2(e1_.dot(p), e2_.dot(p)) / L_;
}

// Newton's method on F(v, w) = x in patch k from vw, with step halving while the residual
// does not fall; converged when the residual is below 1e-13 |x|
std::optional<Vec2> LoopEvChart::newton(int k, const Vec2& x, Vec2 vw) const {
  const double goal = 1e-13 * x.norm();
  auto residual = [&](const Vec2& at, Eigen::Matrix2d* J) {
    const SurfaceJet s = centred_jet(k, at);
    if (J) *J << e1_.dot(s.p_u), e1_.dot(s.p_v), e2_.dot(s.p_u), e2_.dot(s.p_v);
    if (J) *J /= L_;
    return Vec2(Vec2(e1_.dot(s.p), e2_.dot(s.p)) / L_ - x);
  };
  Eigen::Matrix2d J;
  Vec2 r = residual(vw, &J);
  for (int it = 0; it < 60; ++it) {
    if (r.norm() <= goal) return vw;
    const Vec2 step = -J.lu().solve(r);
    if (!step.allFinite()) return std::nullopt;
    double t = 1.0;
    for (int half = 0; half < 40; ++half, t *= 0.5) {
      Vec2 next = vw + t * step;
      // stay on the EV's side of the patch, away from the EV itself
      if (next.sum() < 0.05 * vw.sum()) continue;
      const Vec2 r_next = residual(next, nullptr);
      if (r_next.norm() < r.norm()) {
        vw = next;
        r = residual(vw, &J);
        break;
      }
    }
    if (t < 1e-11) break;
  }
  if (r.norm() <= 1e3 * goal) return vw;
  return std::nullopt;
}

std::optional<std::pair<int, Vec2>> LoopEvChart::patch_point(const Vec2& x) const {
  const int N = static_cast<int>(patches_.size());
  const double theta = std::atan2(x.y(), x.x());
  int k = 0;
  double f = 0.0;
  for (int i = 0; i < N; ++i) {
    const double span = wrap_angle(sector_[(i + 1) % N] - sector_[i]);
    const double off = wrap_angle(theta - sector_[i]);
    if (off < span) {
      k = i;
      f = off / span;
      break;
    }
  }
  // the sector's patch first, then its neighbours near the shared edges
  for (const auto& [patch, frac] :
       {std::pair{k, f}, std::pair{(k + 1) % N, 0.02}, std::pair{(k + N - 1) % N, 0.98}}) {
    const double s = (cut_ / 2 + cut_ / 2) * std::pow(x.norm() / reach_[patch], 1.0 / kappa_);
    const std::optional<Vec2> vw = newton(patch, x, s * Vec2(1.0 - frac, frac));
    if (vw && vw->x() >= -1e-12 && vw->y() >= -1e-12) return std::pair{patch, *vw};
  }
  return std::nullopt;
}

SurfaceJet LoopEvChart::jet(const Vec2& x_in) const {
  // the EV itself: on the same ray at r_min (the patches' own limit, loop_ev_jet's 2^-40)
  const double r_min = r_min_;
  Vec2 x = x_in;
  if (!(x.norm() >= r_min)) x = x.norm() > 0.0 ? Vec2(r_min * x.normalized()) : Vec2(r_min, 0.0);
  const std::optional<std::pair<int, Vec2>> at = patch_point(x);
  if (!at)
    throw Error(
        fmt::format("loop surface: chart point ({:.6g}, {:.6g}) of an extraordinary "
                    "vertex is off its patches",
                    x_in.x(), x_in.y()));
  const SurfaceJet P = centred_jet(at->first, at->second);  // p − c_0 and its partials
  // the series reversion: δ(ξ) with F(vw + δ) = x + ξ to third order, by the fixed point
  // δ ← J⁻¹ (ξ − [F(vw + δ) − F(vw) − J δ]), exact to one more degree per pass
  const Partials F1 = partials(P, e1_ / L_), F2 = partials(P, e2_ / L_);
  Eigen::Matrix2d J;
  J << F1.d[1][0], F1.d[0][1], F2.d[1][0], F2.d[0][1];
  const Eigen::Matrix2d Ji = J.inverse();
  const Taylor2 xi1 = Taylor2::variable_u(0.0), xi2 = Taylor2::variable_v(0.0);
  Taylor2 a = Ji(0, 0) * xi1 + Ji(0, 1) * xi2, b = Ji(1, 0) * xi1 + Ji(1, 1) * xi2;
  for (int pass = 0; pass < 3; ++pass) {
    const Powers s(a, b);
    const Taylor2 r1 = xi1 - substitute(F1, s, 2), r2 = xi2 - substitute(F2, s, 2);
    a = Ji(0, 0) * r1 + Ji(0, 1) * r2;
    b = Ji(1, 0) * r1 + Ji(1, 1) * r2;
  }
  const Powers s(a, b);
  Taylor2Vec3 out;
  for (int c = 0; c < 3; ++c) {
    out.e[c] = substitute(partials(P, Vec3::Unit(c)), s, 1);
    out.e[c].c[0] = c0_[c] + P.p[c];
  }
  return out.to_jet();
}

}  // namespace pivot::detail
