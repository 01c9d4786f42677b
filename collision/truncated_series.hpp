#pragma once
// Bivariate Taylor series truncated at a total degree D chosen by the caller, inline and
// allocation-free: the fast form of Taylor2 (surface_jet.hpp, which is D = 3) for code that needs
// fewer orders.
//
// f(u0 + du, v0 + dv) = Σ_{i+j≤D} c[index(i,j)] du^i dv^j, with Taylor2's coefficient order
// (1, du, dv, du², du dv, dv², ...), so that the first coefficients of a Taylor2 are those of a
// Series<D>. Every operation sums the same products in the same order as Taylor2's, so a
// coefficient of degree ≤ D comes out bit for bit as Taylor2 computes it (products of degree
// above D, which Taylor2 also forms, never reach them). The contact frame (engine/hybrid/
// contact_frame.cpp) needs its axes to degree 2 and H to degree 1: computing them with D = 2 and
// D = 1 instead of D = 3 is what makes the frame cheap (docs/hybrid.md, "Kinematics").

#include <array>
#include <cmath>

namespace pivot::detail::series {

/// (i + j)(i + j + 1)/2 + j: Taylor2::index
[[nodiscard]] constexpr int index(int i, int j) {
  return (i + j) * (i + j + 1) / 2 + j;
}
/// number of coefficients of total degree ≤ d
[[nodiscard]] constexpr int size(int d) {
  return (d + 1) * (d + 2) / 2;
}
/// the total degree, and the power of du, of coefficient k
[[nodiscard]] constexpr int degree(int k) {
  int d = 0;
  while (size(d) <= k) ++d;
  return d;
}
[[nodiscard]] constexpr int power_v(int k) {
  return k - size(degree(k) - 1);
}
[[nodiscard]] constexpr int power_u(int k) {
  return degree(k) - power_v(k);
}

template <int D>
struct Series {
  static_assert(D >= 0 && D <= 3, "degrees 0 to 3");
  static constexpr int n = size(D);
  std::array<double, n> c{};

  [[nodiscard]] double value() const { return c[0]; }
  /// ∂/∂u as a series; its degree-D part is unknown and set to zero (valid to degree D − 1)
  [[nodiscard]] Series d_u() const {
    Series r;
    for (int k = 0; k < n; ++k) {
      const int i = power_u(k), j = power_v(k);
      if (i + j < D) r.c[k] = (i + 1) * c[index(i + 1, j)];
    }
    return r;
  }
  [[nodiscard]] Series d_v() const {
    Series r;
    for (int k = 0; k < n; ++k) {
      const int i = power_u(k), j = power_v(k);
      if (i + j < D) r.c[k] = (j + 1) * c[index(i, j + 1)];
    }
    return r;
  }
  /// the same series kept to degree E ≤ D
  template <int E>
  [[nodiscard]] Series<E> truncated() const {
    static_assert(E <= D);
    Series<E> r;
    for (int k = 0; k < Series<E>::n; ++k) r.c[k] = c[k];
    return r;
  }
};

namespace detail {
struct ProductTerm {
  int k, l, target;
};
template <int D>
constexpr int product_count() {
  int count = 0;
  for (int k = 0; k < size(D); ++k)
    for (int l = 0; l < size(D); ++l)
      if (degree(k) + degree(l) <= D) ++count;
  return count;
}
/// the pairs (k, l) whose monomials multiply to degree ≤ D, k outer and l inner as in Taylor2
template <int D>
constexpr std::array<ProductTerm, product_count<D>()> product_terms() {
  std::array<ProductTerm, product_count<D>()> t{};
  int m = 0;
  for (int k = 0; k < size(D); ++k)
    for (int l = 0; l < size(D); ++l)
      if (degree(k) + degree(l) <= D)
        t[m++] = {k, l, index(power_u(k) + power_u(l), power_v(k) + power_v(l))};
  return t;
}
template <int D>
inline constexpr auto kProductTerms = product_terms<D>();
}  // namespace detail

template <int D>
[[nodiscard]] inline Series<D> operator+(Series<D> a, const Series<D>& b) {
  for (int k = 0; k < Series<D>::n; ++k) a.c[k] += b.c[k];
  return a;
}
template <int D>
[[nodiscard]] inline Series<D> operator-(Series<D> a, const Series<D>& b) {
  for (int k = 0; k < Series<D>::n; ++k) a.c[k] -= b.c[k];
  return a;
}
template <int D>
[[nodiscard]] inline Series<D> operator-(Series<D> a) {
  for (double& x : a.c) x *= -1.0;
  return a;
}
template <int D>
[[nodiscard]] inline Series<D> operator*(double k, Series<D> a) {
  for (double& x : a.c) x *= k;
  return a;
}
/// truncated product
template <int D>
[[nodiscard]] inline Series<D> operator*(const Series<D>& a, const Series<D>& b) {
  Series<D> r;
  for (const detail::ProductTerm& t : detail::kProductTerms<D>)
    r.c[t.target] += a.c[t.k] * b.c[t.l];
  return r;
}

/// g(x) from g's derivatives g0..g3 at x.value() (Taylor's formula, as Taylor2's compose)
template <int D>
[[nodiscard]] inline Series<D> compose(const Series<D>& x, double g0, double g1, double g2,
                                       double g3) {
  Series<D> d = x;
  d.c[0] = 0.0;
  Series<D> r = g1 * d;
  if constexpr (D >= 2) {
    const Series<D> d2 = d * d;
    r = r + (0.5 * g2) * d2;
    if constexpr (D >= 3) r = r + (g3 / 6.0) * (d2 * d);
  }
  r.c[0] += g0;
  return r;
}
template <int D>
[[nodiscard]] inline Series<D> sqrt(const Series<D>& x) {
  const double s = std::sqrt(x.value());
  return compose(x, s, 0.5 / s, -0.25 / (x.value() * s), 0.375 / (x.value() * x.value() * s));
}
template <int D>
[[nodiscard]] inline Series<D> reciprocal(const Series<D>& x) {
  const double r = 1.0 / x.value();
  return compose(x, r, -r * r, 2.0 * r * r * r, -6.0 * r * r * r * r);
}

/// a 3-vector of series
template <int D>
struct Vec3Series {
  std::array<Series<D>, 3> e{};
  /// the vector of coefficient k
  [[nodiscard]] std::array<double, 3> coefficient(int k) const {
    return {e[0].c[k], e[1].c[k], e[2].c[k]};
  }
  [[nodiscard]] Vec3Series d_u() const { return {{e[0].d_u(), e[1].d_u(), e[2].d_u()}}; }
  [[nodiscard]] Vec3Series d_v() const { return {{e[0].d_v(), e[1].d_v(), e[2].d_v()}}; }
  template <int E>
  [[nodiscard]] Vec3Series<E> truncated() const {
    return {
        {e[0].template truncated<E>(), e[1].template truncated<E>(), e[2].template truncated<E>()}};
  }
};

template <int D>
[[nodiscard]] inline Vec3Series<D> operator*(const Series<D>& k, const Vec3Series<D>& a) {
  return {{k * a.e[0], k * a.e[1], k * a.e[2]}};
}
template <int D>
[[nodiscard]] inline Series<D> dot(const Vec3Series<D>& a, const Vec3Series<D>& b) {
  return a.e[0] * b.e[0] + a.e[1] * b.e[1] + a.e[2] * b.e[2];
}
template <int D>
[[nodiscard]] inline Vec3Series<D> cross(const Vec3Series<D>& a, const Vec3Series<D>& b) {
  return {{a.e[1] * b.e[2] - a.e[2] * b.e[1], a.e[2] * b.e[0] - a.e[0] * b.e[2],
           a.e[0] * b.e[1] - a.e[1] * b.e[0]}};
}
/// a / |a|, |a.value()| > 0
template <int D>
[[nodiscard]] inline Vec3Series<D> normalized(const Vec3Series<D>& a) {
  return reciprocal(sqrt(dot(a, a))) * a;
}

}  // namespace pivot::detail::series
