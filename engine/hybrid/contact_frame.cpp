#include "pivot/engine/hybrid/contact_frame.hpp"

namespace pivot::detail {

namespace {

// A unit vector e = w/|w| and its first and second partials in the parameters (s, t ∈ {u, v}),
// in closed form from w's (differentiating e |w| = w):
//   e_s  = (w_s − e (e·w_s)) / |w|
//   e_st = (w_st − e_t (e·w_s) − e (e_t·w_s + e·w_st)) / |w| − e_s (e·w_t) / |w|
struct UnitJet {
  Vec3 e, e_u, e_v, e_uu, e_uv, e_vv;
};

UnitJet normalized_jet(const Vec3& w, const Vec3& w_u, const Vec3& w_v, const Vec3& w_uu,
                       const Vec3& w_uv, const Vec3& w_vv) {
  UnitJet j;
  const double L = w.norm();
  j.e = w / L;
  const double eu = j.e.dot(w_u), ev = j.e.dot(w_v);
  j.e_u = (w_u - j.e * eu) / L;
  j.e_v = (w_v - j.e * ev) / L;
  const auto second = [&](const Vec3& w_st, const Vec3& w_s, double e_ws, const Vec3& e_s,
                          const Vec3& e_t, double e_wt) {
    return Vec3((w_st - e_t * e_ws - j.e * (e_t.dot(w_s) + j.e.dot(w_st))) / L - e_s * e_wt / L);
  };
  j.e_uu = second(w_uu, w_u, eu, j.e_u, j.e_u, eu);
  j.e_uv = second(w_uv, w_u, eu, j.e_u, j.e_v, ev);
  j.e_vv = second(w_vv, w_v, ev, j.e_v, j.e_v, ev);
  return j;
}

}  // namespace

ContactFrame contact_frame(const SurfaceJet& jet) {
  ContactFrame f;
  const double cu = jet.p_u.norm(), cv = jet.p_v.norm();
  const double n = jet.p_u.cross(jet.p_v).norm();
  f.regularity = (cu > 0.0 && cv > 0.0) ? n / (cu * cv) : 0.0;

  // The frame and its partials to second order in closed form (x = c_u/|c_u|,
  // z = (c_u × c_v)/|c_u × c_v|, y = z × x; normalized_jet above), then Kry & Pai 2002
  // eqs. 46-51: column s ∈ {u, v} of H is
  //   ω = (−y·z_s, −z·x_s, y·x_s),  v = (x·c_s, y·c_s, z·c_s = 0),  y·c_u = 0 exactly,
  // and its partial in t the product rule of each entry (third derivatives of c enter through
  // x_st and z_st). Checked against truncated Taylor arithmetic, the former implementation,
  // and against finite differences (tests/engine/hybrid/test_contact_kinematics.cpp). Taylor
  // arithmetic cost about three times as much: 27 % of the bowl-on-table runs.
  const Vec3 &a = jet.p_u, &b = jet.p_v;
  const Vec3 &a_u = jet.p_uu, &a_v = jet.p_uv, &b_v = jet.p_vv;  // b_u = a_v
  const Vec3 nrm = a.cross(b);
  const Vec3 n_u = a_u.cross(b) + a.cross(a_v);
  const Vec3 n_v = a_v.cross(b) + a.cross(b_v);
  // n_st = a_st × b + a_s × b_t + a_t × b_s + a × b_st, with a_uu = c_uuu, a_uv = b_uu = c_uuv,
  // a_vv = b_uv = c_uvv, b_vv = c_vvv
  const Vec3 n_uu = jet.p_uuu.cross(b) + 2.0 * a_u.cross(a_v) + a.cross(jet.p_uuv);
  const Vec3 n_uv = jet.p_uuv.cross(b) + a_u.cross(b_v) + a_v.cross(a_v) + a.cross(jet.p_uvv);
  const Vec3 n_vv = jet.p_uvv.cross(b) + 2.0 * a_v.cross(b_v) + a.cross(jet.p_vvv);
  const UnitJet x = normalized_jet(a, a_u, a_v, jet.p_uuu, jet.p_uuv, jet.p_uvv);
  const UnitJet z = normalized_jet(nrm, n_u, n_v, n_uu, n_uv, n_vv);
  const Vec3 y = z.e.cross(x.e);
  const Vec3 y_u = z.e_u.cross(x.e) + z.e.cross(x.e_u);
  const Vec3 y_v = z.e_v.cross(x.e) + z.e.cross(x.e_v);

  // column s of H, and its partial in t: (x_s, z_s, c_s) and their t-partials
  struct Column {
    const Vec3 &x_s, &z_s, &c_s;
  };
  const auto fill = [&](int col, const Column& d, const Column& dt, const Vec3& y_t,
                        const Vec3& x_t, const Vec3& z_t, Mat62& H_t) {
    f.H(0, col) = -y.dot(d.z_s);
    f.H(1, col) = -z.e.dot(d.x_s);
    f.H(2, col) = y.dot(d.x_s);
    f.H(3, col) = x.e.dot(d.c_s);
    f.H(4, col) = col == 0 ? 0.0 : y.dot(d.c_s);
    H_t(0, col) = -(y_t.dot(d.z_s) + y.dot(dt.z_s));
    H_t(1, col) = -(z_t.dot(d.x_s) + z.e.dot(dt.x_s));
    H_t(2, col) = y_t.dot(d.x_s) + y.dot(dt.x_s);
    H_t(3, col) = x_t.dot(d.c_s) + x.e.dot(dt.c_s);
    H_t(4, col) = col == 0 ? 0.0 : y_t.dot(d.c_s) + y.dot(dt.c_s);
  };
  const Column col_u{x.e_u, z.e_u, a}, col_v{x.e_v, z.e_v, b};
  fill(0, col_u, Column{x.e_uu, z.e_uu, a_u}, y_u, x.e_u, z.e_u, f.H_u);
  fill(0, col_u, Column{x.e_uv, z.e_uv, a_v}, y_v, x.e_v, z.e_v, f.H_v);
  fill(1, col_v, Column{x.e_uv, z.e_uv, a_v}, y_u, x.e_u, z.e_u, f.H_u);
  fill(1, col_v, Column{x.e_vv, z.e_vv, b_v}, y_v, x.e_v, z.e_v, f.H_v);

  f.Theta << x.e, y, z.e;
  f.Theta_u << x.e_u, y_u, z.e_u;
  f.Theta_v << x.e_v, y_v, z.e_v;
  f.c = jet.p;
  f.c_u = jet.p_u;
  f.c_v = jet.p_v;
  return f;
}

}  // namespace pivot::detail
