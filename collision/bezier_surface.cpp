#include "pivot/collision/bezier_surface.hpp"

#include "pivot/core/error.hpp"

namespace pivot {

namespace {

// cubic Bernstein polynomials and their first three derivatives at t:
// B = ((1−t)³, 3t(1−t)², 3t²(1−t), t³)
std::array<std::array<double, 4>, 4> bernstein(double t) {
  const double s = 1.0 - t;
  return {{{s * s * s, 3.0 * t * s * s, 3.0 * t * t * s, t * t * t},
           {-3.0 * s * s, 3.0 * s * (1.0 - 3.0 * t), 3.0 * t * (2.0 - 3.0 * t), 3.0 * t * t},
           {6.0 * s, 6.0 * (3.0 * t - 2.0), 6.0 * (1.0 - 3.0 * t), 6.0 * t},
           {-6.0, 18.0, -18.0, 6.0}}};
}

// the blossom f(t1, t2, t3) of a cubic Bézier curve: de Casteljau with one argument per level
Vec3 blossom(const std::array<Vec3, 4>& P, double t1, double t2, double t3) {
  std::array<Vec3, 4> b = P;
  const double ts[3] = {t1, t2, t3};
  for (int level = 0; level < 3; ++level)
    for (int k = 0; k < 3 - level; ++k) b[k] = (1.0 - ts[level]) * b[k] + ts[level] * b[k + 1];
  return b[0];
}

// the control points of the piece [a, b] of a cubic: f(a,a,a), f(a,a,b), f(a,b,b), f(b,b,b)
std::array<Vec3, 4> sub_curve(const std::array<Vec3, 4>& P, double a, double b) {
  return {blossom(P, a, a, a), blossom(P, a, a, b), blossom(P, a, b, b), blossom(P, b, b, b)};
}

}  // namespace

BezierSurface::BezierSurface(std::vector<BezierPatch> patches) : patches_(std::move(patches)) {
  if (patches_.empty()) throw Error("bezier surface: no patches");
  double size = 0.0;
  for (const BezierPatch& p : patches_)
    for (const Vec3& x : p) {
      if (!x.allFinite()) throw Error("bezier surface: control points must be finite");
      size = std::max(size, x.cwiseAbs().maxCoeff());
    }
  domain_.vertices = {Vec2(0, 0), Vec2(1, 0), Vec2(1, 1), Vec2(0, 1)};
  links_ = link_edges_by_geometry(*this, 1e-10 * std::max(size, 1e-300));
}

// p_{u^a v^b} = Σ_i Σ_j B_i^(a)(u) B_j^(b)(v) P_ij
SurfaceJet BezierSurface::evaluate(int patch, const Vec2& uv) const {
  const BezierPatch& P = patches_[patch];
  const auto Bu = bernstein(uv.x()), Bv = bernstein(uv.y());
  auto sum = [&](int a, int b) {
    Vec3 r = Vec3::Zero();
    for (int i = 0; i < 4; ++i) {
      Vec3 row = Vec3::Zero();
      for (int j = 0; j < 4; ++j) row += Bv[b][j] * P[4 * i + j];
      r += Bu[a][i] * row;
    }
    return r;
  };
  return SurfaceJet::from_derivatives(sum);
}

Vec3 BezierSurface::point(int patch, const Vec2& uv) const {
  const BezierPatch& P = patches_[patch];
  const auto Bu = bernstein(uv.x()), Bv = bernstein(uv.y());
  Vec3 r = Vec3::Zero();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) r += Bu[0][i] * Bv[0][j] * P[4 * i + j];
  return r;
}

std::vector<BezierPatch> subdivide_bezier_patch(const BezierPatch& patch, int nu, int nv) {
  if (nu < 1 || nv < 1) throw Error("subdivide_bezier_patch: need at least 1 × 1 pieces");
  std::vector<BezierPatch> out;
  for (int a = 0; a < nu; ++a) {
    // split along u: each column j (fixed j, varying i) is a cubic in u
    BezierPatch strip;
    for (int j = 0; j < 4; ++j) {
      const std::array<Vec3, 4> col{patch[j], patch[4 + j], patch[8 + j], patch[12 + j]};
      const auto piece = sub_curve(col, double(a) / nu, double(a + 1) / nu);
      for (int i = 0; i < 4; ++i) strip[4 * i + j] = piece[i];
    }
    for (int b = 0; b < nv; ++b) {
      BezierPatch sub;
      for (int i = 0; i < 4; ++i) {
        const std::array<Vec3, 4> row{strip[4 * i], strip[4 * i + 1], strip[4 * i + 2],
                                      strip[4 * i + 3]};
        const auto piece = sub_curve(row, double(b) / nv, double(b + 1) / nv);
        for (int j = 0; j < 4; ++j) sub[4 * i + j] = piece[j];
      }
      out.push_back(sub);
    }
  }
  return out;
}

// one turn: q(u', v') = p(1 − v', u') = Σ B_{3−i}(v') B_j(u') P_ij, so Q[j][3 − i] = P[i][j]
BezierPatch rotate_bezier_parameters(const BezierPatch& patch, int quarter_turns) {
  BezierPatch p = patch;
  const int turns = ((quarter_turns % 4) + 4) % 4;
  for (int t = 0; t < turns; ++t) {
    BezierPatch q;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) q[4 * j + (3 - i)] = p[4 * i + j];
    p = q;
  }
  return p;
}

BezierPatch transform_bezier_patch(const BezierPatch& patch, const Mat3& A, const Vec3& t) {
  BezierPatch q;
  for (int k = 0; k < 16; ++k) q[k] = A * patch[k] + t;
  return q;
}

}  // namespace pivot
