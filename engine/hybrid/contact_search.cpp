#include "pivot/engine/hybrid/contact_search.hpp"

#include <cmath>

namespace pivot::detail {

namespace {

// one surface's point in body 2's frame, with its first derivatives
struct Local {
  Vec3 p, p_u, p_v;
};

Local local_point(const ContactSurface& s, const Pose& X_2B, const SurfacePoint& sp) {
  const SurfaceJet j = s.evaluate(sp.patch, sp.uv);
  const Mat3 R = X_2B.q_WB.toRotationMatrix();
  return {X_2B.p_WB + R * j.p, R * j.p_u, R * j.p_v};
}

// the surface point of `s` (placed by X_2B in body 2's frame) nearest to x (body-2 frame), in
// the patch or chart that tracks contacts there (regular at an extraordinary vertex)
SurfacePoint closest(const ContactSurface& s, const Pose& X_2B, const Vec3& x) {
  // x in the surface frame: S in 2 is X_2B ∘ X_BS
  const Pose X_2S = compose(X_2B, s.X_BS);
  return s.surface->contact_chart(
      s.surface->closest_point(inverse(X_2S).p_WB + inverse(X_2S).q_WB * x));
}

// moves sp by duv within the contact domains, walking across their edges (into the chart
// around an extraordinary vertex and back, smooth_surface.hpp "Overlapping charts"); returns
// false if it stopped at an open edge
bool move_on_surface(const SmoothSurface& surf, SurfacePoint& sp, Vec2 duv) {
  for (int hop = 0; hop < 8; ++hop) {
    const PatchDomain& dom = surf.contact_domain(sp.patch);
    const Vec2 next = sp.uv + duv;
    if (!dom.bounded() || dom.contains(next)) {
      sp.uv = dom.wrapped(next);
      return true;
    }
    double t_hit = 1.0;
    int hit = -1;
    for (int e = 0; e < dom.edge_count(); ++e) {
      const double d0 = dom.edge_distance(e, sp.uv), d1 = dom.edge_distance(e, next);
      if (d1 < 0.0 && d0 >= 0.0 && d0 / (d0 - d1) <= t_hit) {
        t_hit = d0 / (d0 - d1);
        hit = e;
      }
    }
    if (hit < 0) {  // started outside: give up on the move
      return false;
    }
    const double alpha = std::clamp(dom.edge_parameter(hit, sp.uv + t_hit * duv), 0.0, 1.0);
    const std::optional<SurfacePoint> other = surf.across_contact_edge(sp.patch, hit, alpha);
    if (!other) {
      sp.uv = dom.edge_point(hit, alpha);
      return false;
    }
    // the rest of the step is dropped: the neighbour's parameter axes differ
    sp = *other;
    return true;
  }
  return true;
}

}  // namespace

ContactSearchResult find_contact(const ContactSurface& body1, const Pose& X_W1,
                                 const ContactSurface& body2, const Pose& X_W2,
                                 const std::optional<Vec3>& p_W_guess, double tolerance) {
  const Pose X_2W = inverse(X_W2);
  const Pose X_21 = compose(X_2W, X_W1);
  const Pose X_22{};  // body 2's own frame

  SurfacePoint a, b;  // on body 1, body 2
  if (p_W_guess) {
    const Vec3 g2 = X_2W.p_WB + X_2W.q_WB * *p_W_guess;
    a = closest(body1, X_21, g2);
    b = closest(body2, X_22, g2);
  } else {
    b = closest(body2, X_22, X_21.p_WB);
    for (int round = 0; round < 4; ++round) {
      a = closest(body1, X_21, local_point(body2, X_22, b).p);
      b = closest(body2, X_22, local_point(body1, X_21, a).p);
    }
  }

  // residual r(s, t, u, v), each condition divided by the tangent lengths
  auto residual = [&](const SurfacePoint& pa, const SurfacePoint& pb) {
    const Local c = local_point(body1, X_21, pa);
    const Local d = local_point(body2, X_22, pb);
    const Vec3 n = d.p_u.cross(d.p_v).normalized();
    Eigen::Vector4d r;
    r << (c.p - d.p).dot(d.p_u) / d.p_u.norm(), (c.p - d.p).dot(d.p_v) / d.p_v.norm(),
        n.dot(c.p_u) / c.p_u.norm(), n.dot(c.p_v) / c.p_v.norm();
    return r;
  };

  ContactSearchResult res;
  const double h = 1e-7;
  for (int iter = 0; iter < 50; ++iter) {
    res.iterations = iter + 1;
    const Eigen::Vector4d r = residual(a, b);
    if (r.norm() < tolerance) {
      res.converged = true;
      break;
    }
    Eigen::Matrix4d J;
    for (int k = 0; k < 4; ++k) {
      SurfacePoint ap = a, am = a, bp = b, bm = b;
      if (k < 2) {
        ap.uv[k] += h;
        am.uv[k] -= h;
      } else {
        bp.uv[k - 2] += h;
        bm.uv[k - 2] -= h;
      }
      J.col(k) = (residual(ap, bp) - residual(am, bm)) / (2 * h);
    }
    Eigen::Vector4d step = -J.fullPivLu().solve(r);
    if (!step.allFinite()) break;
    // damp very long steps (far starts): at most half a parameter unit per iteration
    const double longest = step.cwiseAbs().maxCoeff();
    if (longest > 0.5) step *= 0.5 / longest;
    move_on_surface(*body1.surface, a, step.head<2>());
    move_on_surface(*body2.surface, b, step.tail<2>());
  }

  const ContactFrame f1 = contact_frame(body1.evaluate(a.patch, a.uv));
  const ContactFrame f2 = contact_frame(body2.evaluate(b.patch, b.uv));
  // both frames in body 2's coordinates
  const Mat3 R21 = X_21.q_WB.toRotationMatrix();
  const Mat3 T1 = R21 * f1.Theta;
  const Vec3 c = X_21.p_WB + R21 * f1.c;
  const Mat3& T2 = f2.Theta;
  res.coords.patch_1 = a.patch;
  res.coords.patch_2 = b.patch;
  res.coords.q << a.uv, b.uv, std::atan2(-T1.col(1).dot(T2.col(0)), T1.col(0).dot(T2.col(0)));
  res.gap = (c - f2.c).dot(T2.col(2));
  res.normal_angle = std::atan2(T1.col(2).cross(T2.col(2)).norm(), -T1.col(2).dot(T2.col(2)));
  const Mat3 RW2 = X_W2.q_WB.toRotationMatrix();
  res.p_W1 = X_W2.p_WB + RW2 * c;
  res.p_W2 = X_W2.p_WB + RW2 * f2.c;
  res.n_W = RW2 * T2.col(2);
  return res;
}

}  // namespace pivot::detail
