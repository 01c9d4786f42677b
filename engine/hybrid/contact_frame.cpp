#include "pivot/engine/hybrid/contact_frame.hpp"

namespace pivot {

ContactFrame contact_frame(const SurfaceJet& jet) {
  ContactFrame f;
  const double cu = jet.p_u.norm(), cv = jet.p_v.norm();
  const double n = jet.p_u.cross(jet.p_v).norm();
  f.regularity = (cu > 0.0 && cv > 0.0) ? n / (cu * cv) : 0.0;

  // the frame as series in (du, dv): c exact to degree 3, c_u, c_v and the axes to degree 2
  const Taylor2Vec3 c = Taylor2Vec3::from_jet(jet);
  const Taylor2Vec3 c_u = c.d_u(), c_v = c.d_v();
  const Taylor2Vec3 x = normalized(c_u);
  const Taylor2Vec3 z = normalized(cross(c_u, c_v));
  const Taylor2Vec3 y = cross(z, x);
  // frame derivatives, valid to degree 1
  const Taylor2Vec3 x_u = x.d_u(), x_v = x.d_v(), z_u = z.d_u(), z_v = z.d_v();

  // H entries as series (valid to degree 1): value → H, du-coefficient → H_u, dv → H_v.
  // Kry & Pai 2002 eqs. 46-51: ω = (−y·z_•, −z·x_•, y·x_•), v = (x·c_•, y·c_•, z·c_• = 0),
  // and y·c_u = 0 exactly.
  const std::array<Taylor2, 12> h{-dot(y, z_u), -dot(z, x_u), dot(y, x_u),  dot(x, c_u),
                                  Taylor2{},    Taylor2{},    -dot(y, z_v), -dot(z, x_v),
                                  dot(y, x_v),  dot(x, c_v),  dot(y, c_v),  Taylor2{}};
  const int du = Taylor2::index(1, 0), dv = Taylor2::index(0, 1);
  for (int col = 0; col < 2; ++col)
    for (int row = 0; row < 6; ++row) {
      const Taylor2& e = h[6 * col + row];
      f.H(row, col) = e.c[0];
      f.H_u(row, col) = e.c[du];
      f.H_v(row, col) = e.c[dv];
    }

  f.Theta << x.value(), y.value(), z.value();
  f.Theta_u << x.coefficient(du), y.coefficient(du), z.coefficient(du);
  f.Theta_v << x.coefficient(dv), y.coefficient(dv), z.coefficient(dv);
  f.c = jet.p;
  f.c_u = jet.p_u;
  f.c_v = jet.p_v;
  return f;
}

}  // namespace pivot
