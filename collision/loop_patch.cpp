#include "pivot/collision/loop_patch.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <numbers>

#include "pivot/core/error.hpp"

namespace pivot::detail {

namespace {

// a polynomial of total degree ≤ 4 in (v, w): c[5 i + j] multiplies v^i w^j
struct Quartic {
  std::array<double, 25> c{};
};
Quartic operator+(Quartic a, const Quartic& b) {
  for (int k = 0; k < 25; ++k) a.c[k] += b.c[k];
  return a;
}
Quartic operator-(Quartic a, const Quartic& b) {
  for (int k = 0; k < 25; ++k) a.c[k] -= b.c[k];
  return a;
}
Quartic operator*(double s, Quartic a) {
  for (double& x : a.c) x *= s;
  return a;
}
Quartic operator*(const Quartic& a, const Quartic& b) {
  Quartic r;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; i + j < 5; ++j)
      for (int k = 0; i + k < 5; ++k)
        for (int l = 0; i + j + k + l < 5; ++l)
          r.c[5 * (i + k) + j + l] += a.c[5 * i + j] * b.c[5 * k + l];
  return r;
}

// Stam 1998, App. A: with u = 1 − v − w, 12 N_i = the quartics below
template <class T>
std::array<T, 12> box_spline_basis(const T& u, const T& v, const T& w) {
  const T u2 = u * u, u3 = u2 * u, u4 = u3 * u;
  const T v2 = v * v, v3 = v2 * v, v4 = v3 * v;
  const T w2 = w * w, w3 = w2 * w, w4 = w3 * w;
  std::array<T, 12> N;
  N[0] = u4 + 2 * u3 * v;
  N[1] = u4 + 2 * u3 * w;
  N[2] = u4 + 2 * u3 * w + 6 * u3 * v + 6 * u2 * v * w + 12 * u2 * v2 + 6 * u * v2 * w +
         6 * u * v3 + 2 * v3 * w + v4;
  N[3] = 6 * u4 + 24 * u3 * w + 24 * u2 * w2 + 8 * u * w3 + w4 + 24 * u3 * v + 60 * u2 * v * w +
         36 * u * v * w2 + 6 * v * w3 + 24 * u2 * v2 + 36 * u * v2 * w + 12 * v2 * w2 + 8 * u * v3 +
         6 * v3 * w + v4;
  N[4] = u4 + 6 * u3 * w + 12 * u2 * w2 + 6 * u * w3 + w4 + 2 * u3 * v + 6 * u2 * v * w +
         6 * u * v * w2 + 2 * v * w3;
  N[5] = 2 * u * v3 + v4;
  N[6] = u4 + 6 * u3 * w + 12 * u2 * w2 + 6 * u * w3 + w4 + 8 * u3 * v + 36 * u2 * v * w +
         36 * u * v * w2 + 8 * v * w3 + 24 * u2 * v2 + 60 * u * v2 * w + 24 * v2 * w2 +
         24 * u * v3 + 24 * v3 * w + 6 * v4;
  N[7] = u4 + 8 * u3 * w + 24 * u2 * w2 + 24 * u * w3 + 6 * w4 + 6 * u3 * v + 36 * u2 * v * w +
         60 * u * v * w2 + 24 * v * w3 + 12 * u2 * v2 + 36 * u * v2 * w + 24 * v2 * w2 +
         6 * u * v3 + 8 * v3 * w + v4;
  N[8] = 2 * u * w3 + w4;
  N[9] = 2 * v3 * w + v4;
  N[10] = 2 * u * w3 + w4 + 6 * u * v * w2 + 6 * v * w3 + 6 * u * v2 * w + 12 * v2 * w2 +
          2 * u * v3 + 6 * v3 * w + v4;
  N[11] = w4 + 2 * v * w3;
  for (T& n : N) n = (1.0 / 12.0) * n;
  return N;
}

// the 12 basis functions' monomial coefficients, exact up to rounding (computed once)
const std::array<Quartic, 12>& basis_coefficients() {
  static const std::array<Quartic, 12> table = [] {
    Quartic one, v, w;
    one.c[0] = 1.0;
    v.c[5] = 1.0;
    w.c[1] = 1.0;
    return box_spline_basis(one - v - w, v, w);
  }();
  return table;
}

constexpr double falling(int n, int k) {  // n (n − 1) ... (n − k + 1)
  double r = 1.0;
  for (int i = 0; i < k; ++i) r *= n - i;
  return r;
}

}  // namespace

LoopQuartic loop_regular_coefficients(const std::array<Vec3, 12>& points) {
  const std::array<Quartic, 12>& N = basis_coefficients();
  LoopQuartic a;
  for (Vec3& x : a) x.setZero();
  for (int i = 0; i < 12; ++i)
    for (int k = 0; k < 25; ++k)
      if (N[i].c[k] != 0.0) a[k] += N[i].c[k] * points[i];
  return a;
}

SurfaceJet loop_quartic_jet(const LoopQuartic& a, const Vec2& vw) {
  std::array<double, 5> vp{1.0}, wp{1.0};
  for (int k = 1; k < 5; ++k) {
    vp[k] = vp[k - 1] * vw.x();
    wp[k] = wp[k - 1] * vw.y();
  }
  // ∂^(p+q)/∂v^p ∂w^q of Σ a_ij v^i w^j
  auto d = [&](int p, int q) {
    Vec3 r = Vec3::Zero();
    for (int i = p; i < 5; ++i)
      for (int j = q; i + j < 5; ++j)
        r += (falling(i, p) * vp[i - p] * falling(j, q) * wp[j - q]) * a[5 * i + j];
    return r;
  };
  return SurfaceJet::from_derivatives(d);
}

SurfaceJet loop_regular_jet(const std::array<Vec3, 12>& points, const Vec2& vw) {
  return loop_quartic_jet(loop_regular_coefficients(points), vw);
}

std::array<int, 12> loop_regular_vertices(const LoopMesh& mesh, int a, int b, int c) {
  // rings counter-clockwise: a from b: (b, c, 4, 1, 0, 2); b from a: (a, 2, 5, 9, 10, c);
  // c from a: (a, b, 10, 11, 8, 4), in the lattice numbering of the header
  const std::vector<int> ra = mesh.ring(a, b), rb = mesh.ring(b, a), rc = mesh.ring(c, a);
  if (ra.size() != 6 || rb.size() != 6 || rc.size() != 6)
    throw Error("loop surface: internal error: a regular patch needs three valence-6 rings");
  return {ra[4], ra[3], ra[5], a, ra[2], rb[2], b, c, rc[4], rb[3], rb[4], rc[3]};
}

std::vector<int> loop_ev_vertices(const LoopMesh& mesh, int a, int b, int c) {
  std::vector<int> K = mesh.ring(a, b);
  K.insert(K.begin(), a);
  const std::vector<int> rb = mesh.ring(b, a), rc = mesh.ring(c, a);
  if (rb.size() != 6 || rc.size() != 6 || K.size() < 4 || K[2] != c)
    throw Error("loop surface: internal error: an EV patch needs valence-6 neighbours");
  K.insert(K.end(), {rb[2], rb[3], rb[4], rc[3], rc[4]});
  return K;
}

namespace {

// a disk of `rings` rings around a vertex of valence N, every other vertex regular: N sectors
// of the regular triangle lattice, sector s spanned by spokes s and s + 1 (counter-clockwise)
LoopMesh synthetic_ev_mesh(int N, int rings, int& b, int& c) {
  std::map<std::array<int, 3>, int> id;
  auto vertex = [&](int s, int i, int j) {
    if (i == 0 && j == 0) return 0;
    if (i == 0) return id.emplace(std::array<int, 3>{(s + 1) % N, j, 0}, 0).first->second;
    return id.emplace(std::array<int, 3>{s, i, j}, 0).first->second;
  };
  // number the vertices first (id 0 is the EV)
  int next = 1;
  for (int s = 0; s < N; ++s)
    for (int i = 1; i <= rings; ++i)
      for (int j = 0; i + j <= rings; ++j) id[{s, i, j}] = next++;
  std::vector<std::array<int, 3>> faces;
  for (int s = 0; s < N; ++s)
    for (int i = 0; i < rings; ++i)
      for (int j = 0; i + j < rings; ++j) {
        faces.push_back({vertex(s, i, j), vertex(s, i + 1, j), vertex(s, i, j + 1)});
        if (i + j + 2 <= rings)
          faces.push_back({vertex(s, i + 1, j), vertex(s, i + 1, j + 1), vertex(s, i, j + 1)});
      }
  b = vertex(0, 1, 0);
  c = vertex(0, 0, 1);
  return LoopMesh(next, std::move(faces), fmt::format("valence-{} disk", N));
}

// rows of `stencils` for new vertices `rows`, as a matrix over the old vertices `cols`; every
// weight must fall on a column (Stam 1998 §3: the K points determine the next level's K + 6)
Eigen::MatrixXd stencil_matrix(const std::vector<LoopStencil>& stencils,
                               const std::vector<int>& rows, const std::vector<int>& cols) {
  Eigen::MatrixXd M =
      Eigen::MatrixXd::Zero(static_cast<int>(rows.size()), static_cast<int>(cols.size()));
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (const auto& [old, weight] : stencils[rows[r]]) {
      const auto it = std::find(cols.begin(), cols.end(), old);
      if (it == cols.end())
        throw Error("loop surface: internal error: a stencil reaches outside the patch's points");
      M(static_cast<int>(r), static_cast<int>(it - cols.begin())) += weight;
    }
  return M;
}

}  // namespace

LoopEvBasis loop_ev_basis(int N) {
  if (N < 3 || N > 64)
    throw Error(fmt::format(
        "loop surface: a vertex of valence {} (supported: 3 to 64 for an interior vertex)", N));
  int b = 0, c = 0;
  const LoopMesh disk = synthetic_ev_mesh(N, 4, b, c);
  const std::vector<int> K0 = loop_ev_vertices(disk, 0, b, c);
  const LoopMesh::Refined fine = disk.subdivide();
  // the face (a, b, c) is the one holding the directed edge a → b; its children 4 f + k
  const int f = disk.face_of_edge(0, b);
  const auto& t0 = fine.mesh.face(4 * f + 0);  // (a', e_ab, e_ca): the EV's sub-triangle
  const auto& t1 = fine.mesh.face(4 * f + 1);  // Ω_1 = (e_ab, b', e_bc)
  const auto& t3 = fine.mesh.face(4 * f + 2);  // Ω_3 = (e_ca, e_bc, c')
  const auto& tm = fine.mesh.face(4 * f + 3);  // (e_ab, e_bc, e_ca); Ω_2 starts at e_bc

  LoopEvBasis basis;
  basis.valence = N;
  basis.A = stencil_matrix(fine.stencils, loop_ev_vertices(fine.mesh, t0[0], t0[1], t0[2]), K0);
  auto twelve = [&](int a, int bb, int cc) {
    const std::array<int, 12> r = loop_regular_vertices(fine.mesh, a, bb, cc);
    return stencil_matrix(fine.stencils, std::vector<int>(r.begin(), r.end()), K0);
  };
  basis.B[0] = twelve(t1[0], t1[1], t1[2]);
  basis.B[1] = twelve(tm[1], tm[2], tm[0]);
  basis.B[2] = twelve(t3[0], t3[1], t3[2]);
  // Loop's limit mask (1 − Nχ) a + χ Σ ring, χ = 1 / (N + 3 / (8β)) (Loop 1987)
  const double beta =
      (5.0 / 8.0 - std::pow(3.0 / 8.0 + std::cos(2.0 * std::numbers::pi / N) / 4.0, 2)) / N;
  const double chi = 1.0 / (N + 3.0 / (8.0 * beta));
  basis.limit_mask = Eigen::RowVectorXd::Zero(N + 6);
  basis.limit_mask(0) = 1.0 - N * chi;
  basis.limit_mask.segment(1, N).setConstant(chi);

  // A = V Λ V⁻¹ (Stam 1998 §4). Loop's A has real eigenvalues, but repeated ones (pairs
  // cos(2πk/N) = cos(2π(N−k)/N), and 1/8, 1/16 several times) get complex eigenvector bases
  // from a general solver: the complex solver's V, kept only if it reproduces A.
  const Eigen::MatrixXcd Ac = basis.A.cast<std::complex<double>>();
  const Eigen::ComplexEigenSolver<Eigen::MatrixXcd> es(Ac);
  if (es.info() == Eigen::Success) {
    const Eigen::MatrixXcd& V = es.eigenvectors();
    const Eigen::JacobiSVD<Eigen::MatrixXcd> svd(V);
    const Eigen::VectorXd sv = svd.singularValues();
    if (sv(sv.size() - 1) > 1e-6 * sv(0)) {
      basis.lambda = es.eigenvalues();
      basis.V_inverse = V.inverse();
      const double err = (V * basis.lambda.asDiagonal() * basis.V_inverse - Ac).norm();
      if (err < 1e-12 * std::max(1.0, basis.A.norm())) {
        basis.diagonal = true;
        for (int k = 0; k < 3; ++k) basis.Phi[k] = basis.B[k].cast<std::complex<double>>() * V;
      }
    }
  }
  return basis;
}

SurfaceJet loop_ev_jet(const LoopEvBasis& basis, const Eigen::MatrixXd& C0,
                       const Eigen::MatrixXcd& C_hat, Vec2 vw, bool centred) {
  // keep away from the EV itself, where the parameterization is singular (Stam 1998 §4)
  constexpr double kNearest = 0x1p-40;
  const double sum = vw.x() + vw.y();
  if (!(sum >= kNearest)) {
    const Vec2 dir = sum > 0.0 ? Vec2(vw / sum) : Vec2(0.5, 0.5);
    vw = kNearest * dir;
  }
  int m = 0;
  while (vw.x() + vw.y() < 0.5) {
    vw *= 2.0;
    ++m;
  }
  // the sub-triangle and its map t_k (Stam 1998 §3): Ω_1 v ≥ 1/2, Ω_3 w ≥ 1/2, else Ω_2
  int k = 1;
  Vec2 t;
  double sign = 1.0;
  if (vw.x() >= 0.5) {
    k = 0;
    t = Vec2(2.0 * vw.x() - 1.0, 2.0 * vw.y());
  } else if (vw.y() >= 0.5) {
    k = 2;
    t = Vec2(2.0 * vw.x(), 2.0 * vw.y() - 1.0);
  } else {
    t = Vec2(1.0 - 2.0 * vw.x(), 1.0 - 2.0 * vw.y());
    sign = -1.0;
  }
  Eigen::MatrixXd Q;  // 12 × 3
  if (basis.diagonal) {
    Eigen::VectorXcd lm(basis.lambda.size());
    for (int i = 0; i < lm.size(); ++i) lm[i] = std::pow(basis.lambda[i], m);
    Q = (basis.Phi[k] * (lm.asDiagonal() * C_hat)).real();
  } else {
    Eigen::MatrixXd C = C0;
    for (int i = 0; i < m; ++i) {
      C = basis.A * C;
      if (centred) C.rowwise() -= basis.limit_mask * C;
    }
    Q = basis.B[k] * C;
  }
  std::array<Vec3, 12> P;
  for (int i = 0; i < 12; ++i) P[i] = Q.row(i).transpose();
  const SurfaceJet s = loop_regular_jet(P, t);
  // chain rule: d/dv = sign 2^(m+1) d/dt_1 (and likewise for w)
  const double d1 = sign * std::ldexp(1.0, m + 1), d2 = d1 * d1, d3 = d2 * d1;
  SurfaceJet j;
  j.p = s.p;
  j.p_u = d1 * s.p_u;
  j.p_v = d1 * s.p_v;
  j.p_uu = d2 * s.p_uu;
  j.p_uv = d2 * s.p_uv;
  j.p_vv = d2 * s.p_vv;
  j.p_uuu = d3 * s.p_uuu;
  j.p_uuv = d3 * s.p_uuv;
  j.p_uvv = d3 * s.p_uvv;
  j.p_vvv = d3 * s.p_vvv;
  return j;
}

}  // namespace pivot::detail
