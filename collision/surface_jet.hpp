#pragma once
// Derivatives of a parametric surface at one parameter point, up to third order, and the
// truncated Taylor arithmetic that produces and consumes them.
//
// Kry & Pai's contact kinematics need, per surface, c and its ten partials c_u ... c_vvv
// (Kry & Pai 2002 §3.7 and footnote 4). Every surface in
// Pivot delivers them as a SurfaceJet. Where a closed form is long (normalized cube points,
// the contact frame x = c_u/|c_u|, ...) the code computes with Taylor2: a polynomial in
// (du, dv) of total degree ≤ 3 that is exact to that degree, i.e. forward-mode automatic
// differentiation to third order (the thesis did the same by hand for S-patches, Kry 2000
// §5.3, Fig. 5.11).

#include <array>
#include <cmath>

#include "pivot/core/spatial.hpp"

namespace pivot {

using Vec2 = Eigen::Vector2d;

/// a surface point and all partial derivatives up to third order at one (u, v), in the
/// surface's frame (m, m per parameter unit, ...)
struct SurfaceJet {
  Vec3 p = Vec3::Zero();
  Vec3 p_u = Vec3::Zero(), p_v = Vec3::Zero();
  Vec3 p_uu = Vec3::Zero(), p_uv = Vec3::Zero(), p_vv = Vec3::Zero();
  Vec3 p_uuu = Vec3::Zero(), p_uuv = Vec3::Zero(), p_uvv = Vec3::Zero(), p_vvv = Vec3::Zero();

  /// the jet of the moved surface R p + t (derivatives rotate, only p moves)
  [[nodiscard]] SurfaceJet transformed(const Mat3& R, const Vec3& t) const;

  /// the jet whose ∂^(i+j) p / ∂u^i ∂v^j is d(i, j), for i + j ≤ 3
  template <typename Derivative>
  [[nodiscard]] static SurfaceJet from_derivatives(Derivative&& d) {
    SurfaceJet j;
    j.p = d(0, 0);
    j.p_u = d(1, 0);
    j.p_v = d(0, 1);
    j.p_uu = d(2, 0);
    j.p_uv = d(1, 1);
    j.p_vv = d(0, 2);
    j.p_uuu = d(3, 0);
    j.p_uuv = d(2, 1);
    j.p_uvv = d(1, 2);
    j.p_vvv = d(0, 3);
    return j;
  }
};

/// f(u0 + du, v0 + dv) = Σ_{i+j≤3} c[index(i,j)] du^i dv^j, truncated at total degree 3.
/// Coefficient order: 1, du, dv, du², du dv, dv², du³, du² dv, du dv², dv³.
struct Taylor2 {
  std::array<double, 10> c{};

  [[nodiscard]] static constexpr int index(int i, int j) { return (i + j) * (i + j + 1) / 2 + j; }
  /// the constant a
  [[nodiscard]] static Taylor2 constant(double a);
  /// the coordinate u0 + du (or v0 + dv): value a, first-order coefficient 1
  [[nodiscard]] static Taylor2 variable_u(double a);
  [[nodiscard]] static Taylor2 variable_v(double a);

  [[nodiscard]] double value() const { return c[0]; }
  /// ∂^(i+j) f / ∂u^i ∂v^j at the expansion point (i + j ≤ 3)
  [[nodiscard]] double derivative(int i, int j) const;

  /// ∂/∂u as a series; its degree-3 part is unknown and set to zero (valid to degree 2)
  [[nodiscard]] Taylor2 d_u() const;
  [[nodiscard]] Taylor2 d_v() const;

  Taylor2& operator+=(const Taylor2& o);
  Taylor2& operator-=(const Taylor2& o);
  Taylor2& operator*=(double k);
};

[[nodiscard]] Taylor2 operator+(Taylor2 a, const Taylor2& b);
[[nodiscard]] Taylor2 operator-(Taylor2 a, const Taylor2& b);
[[nodiscard]] Taylor2 operator-(Taylor2 a);
[[nodiscard]] Taylor2 operator*(Taylor2 a, double k);
[[nodiscard]] Taylor2 operator*(double k, Taylor2 a);
[[nodiscard]] Taylor2 operator+(Taylor2 a, double k);
/// truncated product
[[nodiscard]] Taylor2 operator*(const Taylor2& a, const Taylor2& b);
/// g(x) for a scalar function with derivatives g0..g3 at x.value(): Taylor's formula
/// g(x0 + δ) = g0 + g1 δ + g2 δ²/2 + g3 δ³/6, δ the non-constant part of x
[[nodiscard]] Taylor2 compose(const Taylor2& x, double g0, double g1, double g2, double g3);
[[nodiscard]] Taylor2 sqrt(const Taylor2& x);        ///< x.value() > 0
[[nodiscard]] Taylor2 reciprocal(const Taylor2& x);  ///< 1/x, x.value() ≠ 0
[[nodiscard]] Taylor2 sin(const Taylor2& x);
[[nodiscard]] Taylor2 cos(const Taylor2& x);

/// a 3-vector of Taylor2 series (a surface point as a function of (u, v))
struct Taylor2Vec3 {
  std::array<Taylor2, 3> e{};

  /// the vector-valued series from a jet (c_ij = ∂^(i+j)p/∂u^i∂v^j / (i! j!))
  [[nodiscard]] static Taylor2Vec3 from_jet(const SurfaceJet& jet);
  /// the jet of this series (derivatives up to third order)
  [[nodiscard]] SurfaceJet to_jet() const;
  /// the vector of coefficient k (Taylor2::index)
  [[nodiscard]] Vec3 coefficient(int k) const { return {e[0].c[k], e[1].c[k], e[2].c[k]}; }
  [[nodiscard]] Vec3 value() const { return coefficient(0); }
  [[nodiscard]] Taylor2Vec3 d_u() const;
  [[nodiscard]] Taylor2Vec3 d_v() const;
};

[[nodiscard]] Taylor2Vec3 operator+(const Taylor2Vec3& a, const Taylor2Vec3& b);
[[nodiscard]] Taylor2Vec3 operator-(const Taylor2Vec3& a, const Taylor2Vec3& b);
[[nodiscard]] Taylor2Vec3 operator*(const Taylor2& k, const Taylor2Vec3& a);
[[nodiscard]] Taylor2 dot(const Taylor2Vec3& a, const Taylor2Vec3& b);
[[nodiscard]] Taylor2Vec3 cross(const Taylor2Vec3& a, const Taylor2Vec3& b);
/// a / |a|, |a.value()| > 0
[[nodiscard]] Taylor2Vec3 normalized(const Taylor2Vec3& a);
/// a constant vector times a scalar series
[[nodiscard]] Taylor2Vec3 operator*(const Taylor2& k, const Vec3& a);

}  // namespace pivot
