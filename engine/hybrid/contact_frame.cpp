#include "pivot/engine/hybrid/contact_frame.hpp"

#include <array>

#include "pivot/collision/truncated_series.hpp"

namespace pivot {

ContactFrame contact_frame(const SurfaceJet& jet) {
  ContactFrame f;
  const double cu = jet.p_u.norm(), cv = jet.p_v.norm();
  const double n = jet.p_u.cross(jet.p_v).norm();
  f.regularity = (cu > 0.0 && cv > 0.0) ? n / (cu * cv) : 0.0;

  // The frame as series in (du, dv) (series::Series, collision/truncated_series.hpp): c_u and
  // c_v, the axes, to degree 2, their partials to degree 1, H's entries to degree 1 (value → H,
  // du-coefficient → H_u, dv → H_v). Nothing of higher degree reaches these, so they are
  // computed at the degrees needed, not with Taylor2's 3: the same numbers, bit for bit
  // (tests/engine/hybrid/test_contact_kinematics.cpp), at a third of the cost.
  using S2 = series::Vec3Series<2>;
  using S1 = series::Vec3Series<1>;
  const Taylor2Vec3 c3 = Taylor2Vec3::from_jet(jet);
  const auto to_series = [](const Taylor2Vec3& t) {
    S2 r;
    for (int a = 0; a < 3; ++a)
      for (int k = 0; k < series::Series<2>::n; ++k) r.e[a].c[k] = t.e[a].c[k];
    return r;
  };
  const S2 c_u = to_series(c3.d_u()), c_v = to_series(c3.d_v());
  const S2 x = normalized(c_u);
  const S2 z = normalized(cross(c_u, c_v));
  const S2 y = cross(z, x);
  // frame derivatives, valid to degree 1
  const S1 x_u = x.d_u().truncated<1>(), x_v = x.d_v().truncated<1>();
  const S1 z_u = z.d_u().truncated<1>(), z_v = z.d_v().truncated<1>();
  const S1 x1 = x.truncated<1>(), y1 = y.truncated<1>(), z1 = z.truncated<1>();
  const S1 c_u1 = c_u.truncated<1>(), c_v1 = c_v.truncated<1>();

  // Kry & Pai 2002 eqs. 46-51: ω = (−y·z_•, −z·x_•, y·x_•), v = (x·c_•, y·c_•, z·c_• = 0),
  // and y·c_u = 0 exactly.
  using series::dot;
  const std::array<series::Series<1>, 12> h{
      -dot(y1, z_u), -dot(z1, x_u), dot(y1, x_u), dot(x1, c_u1), {}, {},
      -dot(y1, z_v), -dot(z1, x_v), dot(y1, x_v), dot(x1, c_v1), dot(y1, c_v1), {}};
  const int du = series::index(1, 0), dv = series::index(0, 1);
  for (int col = 0; col < 2; ++col)
    for (int row = 0; row < 6; ++row) {
      const series::Series<1>& e = h[6 * col + row];
      f.H(row, col) = e.c[0];
      f.H_u(row, col) = e.c[du];
      f.H_v(row, col) = e.c[dv];
    }

  const auto column = [](const S2& v, int k) {
    const auto a = v.coefficient(k);
    return Vec3(a[0], a[1], a[2]);
  };
  f.Theta << column(x, 0), column(y, 0), column(z, 0);
  f.Theta_u << column(x, du), column(y, du), column(z, du);
  f.Theta_v << column(x, dv), column(y, dv), column(z, dv);
  f.c = jet.p;
  f.c_u = jet.p_u;
  f.c_v = jet.p_v;
  return f;
}

}  // namespace pivot
