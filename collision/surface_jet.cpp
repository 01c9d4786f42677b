#include "pivot/collision/surface_jet.hpp"

namespace pivot {

SurfaceJet SurfaceJet::transformed(const Mat3& R, const Vec3& t) const {
  SurfaceJet j;
  j.p = R * p + t;
  j.p_u = R * p_u;
  j.p_v = R * p_v;
  j.p_uu = R * p_uu;
  j.p_uv = R * p_uv;
  j.p_vv = R * p_vv;
  j.p_uuu = R * p_uuu;
  j.p_uuv = R * p_uuv;
  j.p_uvv = R * p_uvv;
  j.p_vvv = R * p_vvv;
  return j;
}

namespace {

constexpr int factorial(int n) {
  return n <= 1 ? 1 : n * factorial(n - 1);
}

// (i, j) of each coefficient index
constexpr std::array<int, 10> power_u{0, 1, 0, 2, 1, 0, 3, 2, 1, 0};
constexpr std::array<int, 10> power_v{0, 0, 1, 0, 1, 2, 0, 1, 2, 3};

}  // namespace

Taylor2 Taylor2::constant(double a) {
  Taylor2 t;
  t.c[0] = a;
  return t;
}

Taylor2 Taylor2::variable_u(double a) {
  Taylor2 t;
  t.c[0] = a;
  t.c[index(1, 0)] = 1.0;
  return t;
}

Taylor2 Taylor2::variable_v(double a) {
  Taylor2 t;
  t.c[0] = a;
  t.c[index(0, 1)] = 1.0;
  return t;
}

double Taylor2::derivative(int i, int j) const {
  return c[index(i, j)] * factorial(i) * factorial(j);
}

// ∂/∂u of Σ c_ij du^i dv^j = Σ i c_ij du^(i−1) dv^j
Taylor2 Taylor2::d_u() const {
  Taylor2 r;
  for (int k = 0; k < 10; ++k) {
    const int i = power_u[k], j = power_v[k];
    if (i + j <= 2) r.c[k] = (i + 1) * c[index(i + 1, j)];
  }
  return r;
}

Taylor2 Taylor2::d_v() const {
  Taylor2 r;
  for (int k = 0; k < 10; ++k) {
    const int i = power_u[k], j = power_v[k];
    if (i + j <= 2) r.c[k] = (j + 1) * c[index(i, j + 1)];
  }
  return r;
}

Taylor2& Taylor2::operator+=(const Taylor2& o) {
  for (int k = 0; k < 10; ++k) c[k] += o.c[k];
  return *this;
}

Taylor2& Taylor2::operator-=(const Taylor2& o) {
  for (int k = 0; k < 10; ++k) c[k] -= o.c[k];
  return *this;
}

Taylor2& Taylor2::operator*=(double k) {
  for (double& x : c) x *= k;
  return *this;
}

Taylor2 operator+(Taylor2 a, const Taylor2& b) {
  return a += b;
}
Taylor2 operator-(Taylor2 a, const Taylor2& b) {
  return a -= b;
}
Taylor2 operator-(Taylor2 a) {
  return a *= -1.0;
}
Taylor2 operator*(Taylor2 a, double k) {
  return a *= k;
}
Taylor2 operator*(double k, Taylor2 a) {
  return a *= k;
}
Taylor2 operator+(Taylor2 a, double k) {
  a.c[0] += k;
  return a;
}

namespace {

// the 35 index pairs (k, l) with deg k + deg l ≤ 3 and the index of their product monomial
struct ProductTerm {
  int k, l, target;
};

constexpr std::array<ProductTerm, 35> product_terms() {
  std::array<ProductTerm, 35> t{};
  int n = 0;
  for (int k = 0; k < 10; ++k)
    for (int l = 0; l < 10; ++l) {
      const int i = power_u[k] + power_u[l], j = power_v[k] + power_v[l];
      if (i + j <= 3) t[n++] = {k, l, Taylor2::index(i, j)};
    }
  return t;
}

constexpr std::array<ProductTerm, 35> terms = product_terms();

}  // namespace

// (Σ a_k m_k)(Σ b_l m_l) keeping the monomials of total degree ≤ 3
Taylor2 operator*(const Taylor2& a, const Taylor2& b) {
  Taylor2 r;
  for (const ProductTerm& t : terms) r.c[t.target] += a.c[t.k] * b.c[t.l];
  return r;
}

Taylor2 compose(const Taylor2& x, double g0, double g1, double g2, double g3) {
  Taylor2 d = x;
  d.c[0] = 0.0;
  const Taylor2 d2 = d * d;
  const Taylor2 d3 = d2 * d;
  Taylor2 r = g1 * d + (0.5 * g2) * d2 + (g3 / 6.0) * d3;
  r.c[0] += g0;
  return r;
}

Taylor2 sqrt(const Taylor2& x) {
  const double s = std::sqrt(x.value());
  // (√x)' = 1/(2√x), '' = −1/(4 x√x), ''' = 3/(8 x²√x)
  return compose(x, s, 0.5 / s, -0.25 / (x.value() * s), 0.375 / (x.value() * x.value() * s));
}

Taylor2 reciprocal(const Taylor2& x) {
  const double r = 1.0 / x.value();
  return compose(x, r, -r * r, 2.0 * r * r * r, -6.0 * r * r * r * r);
}

Taylor2 sin(const Taylor2& x) {
  const double s = std::sin(x.value()), c = std::cos(x.value());
  return compose(x, s, c, -s, -c);
}

Taylor2 cos(const Taylor2& x) {
  const double s = std::sin(x.value()), c = std::cos(x.value());
  return compose(x, c, -s, -c, s);
}

Taylor2Vec3 Taylor2Vec3::from_jet(const SurfaceJet& jet) {
  // c_ij = ∂^(i+j)p / ∂u^i∂v^j / (i! j!)
  const std::array<Vec3, 10> coeff{
      jet.p,          jet.p_u,         jet.p_v,         0.5 * jet.p_uu,  jet.p_uv,
      0.5 * jet.p_vv, jet.p_uuu / 6.0, 0.5 * jet.p_uuv, 0.5 * jet.p_uvv, jet.p_vvv / 6.0};
  Taylor2Vec3 r;
  for (int k = 0; k < 10; ++k)
    for (int a = 0; a < 3; ++a) r.e[a].c[k] = coeff[k][a];
  return r;
}

SurfaceJet Taylor2Vec3::to_jet() const {
  SurfaceJet j;
  j.p = coefficient(Taylor2::index(0, 0));
  j.p_u = coefficient(Taylor2::index(1, 0));
  j.p_v = coefficient(Taylor2::index(0, 1));
  j.p_uu = 2.0 * coefficient(Taylor2::index(2, 0));
  j.p_uv = coefficient(Taylor2::index(1, 1));
  j.p_vv = 2.0 * coefficient(Taylor2::index(0, 2));
  j.p_uuu = 6.0 * coefficient(Taylor2::index(3, 0));
  j.p_uuv = 2.0 * coefficient(Taylor2::index(2, 1));
  j.p_uvv = 2.0 * coefficient(Taylor2::index(1, 2));
  j.p_vvv = 6.0 * coefficient(Taylor2::index(0, 3));
  return j;
}

Taylor2Vec3 Taylor2Vec3::d_u() const {
  return {{e[0].d_u(), e[1].d_u(), e[2].d_u()}};
}
Taylor2Vec3 Taylor2Vec3::d_v() const {
  return {{e[0].d_v(), e[1].d_v(), e[2].d_v()}};
}

Taylor2Vec3 operator+(const Taylor2Vec3& a, const Taylor2Vec3& b) {
  return {{a.e[0] + b.e[0], a.e[1] + b.e[1], a.e[2] + b.e[2]}};
}

Taylor2Vec3 operator-(const Taylor2Vec3& a, const Taylor2Vec3& b) {
  return {{a.e[0] - b.e[0], a.e[1] - b.e[1], a.e[2] - b.e[2]}};
}

Taylor2Vec3 operator*(const Taylor2& k, const Taylor2Vec3& a) {
  return {{k * a.e[0], k * a.e[1], k * a.e[2]}};
}

Taylor2Vec3 operator*(const Taylor2& k, const Vec3& a) {
  return {{a[0] * k, a[1] * k, a[2] * k}};
}

Taylor2 dot(const Taylor2Vec3& a, const Taylor2Vec3& b) {
  return a.e[0] * b.e[0] + a.e[1] * b.e[1] + a.e[2] * b.e[2];
}

Taylor2Vec3 cross(const Taylor2Vec3& a, const Taylor2Vec3& b) {
  return {{a.e[1] * b.e[2] - a.e[2] * b.e[1], a.e[2] * b.e[0] - a.e[0] * b.e[2],
           a.e[0] * b.e[1] - a.e[1] * b.e[0]}};
}

Taylor2Vec3 normalized(const Taylor2Vec3& a) {
  return reciprocal(sqrt(dot(a, a))) * a;
}

}  // namespace pivot
