// Spheres and capsules against spheres and capsules, analytically: a capsule is a segment
// with a radius, so its contacts are sphere–sphere contacts between closest segment points.
#include "pivot/collision/manifold.hpp"

namespace pivot::detail {

ContactPoint sphere_sphere(const Vec3& ca, double ra, const Vec3& cb, double rb) {
  const Vec3 d = ca - cb;
  const double length = d.norm();
  ContactPoint c;
  c.n_BA_W = length > 1e-300 ? Vec3(d / length) : Vec3::UnitZ();
  c.p_WCa = ca - ra * c.n_BA_W;
  c.p_WCb = cb + rb * c.n_BA_W;
  c.gap = length - ra - rb;
  return c;
}

ContactPoints segment_manifold(const PartGeometry& A, const PartGeometry& B, double margin) {
  const ShapeType tb = B.shape->type;
  // segment(s) with radii: sphere–sphere contacts between closest segment points; two
  // (nearly) parallel capsules also get the contacts at the ends of their overlap
  const Vec3 a0 = A.p - A.shape->half_length * A.R.col(2),
             a1 = A.p + A.shape->half_length * A.R.col(2);
  const double hb = tb == ShapeType::capsule ? B.shape->half_length : 0.0;
  const Vec3 b0 = B.p - hb * B.R.col(2), b1 = B.p + hb * B.R.col(2);
  boost::container::small_vector<std::pair<Vec3, Vec3>, 5> centres;
  Vec3 ca, cb;
  closest_points_segments(a0, a1, b0, b1, ca, cb);
  centres.emplace_back(ca, cb);
  if (tb == ShapeType::capsule && A.R.col(2).cross(B.R.col(2)).norm() < 1e-3) {
    for (const Vec3& e : {a0, a1}) {
      closest_points_segments(e, e, b0, b1, ca, cb);
      centres.emplace_back(ca, cb);
    }
    for (const Vec3& e : {b0, b1}) {
      closest_points_segments(a0, a1, e, e, ca, cb);
      centres.emplace_back(ca, cb);
    }
  }
  ContactPoints out;
  for (const auto& [xa, xb] : centres) {
    const ContactPoint c = sphere_sphere(xa, A.shape->radius, xb, B.shape->radius);
    if (c.gap > margin) continue;
    append_unless_near(out, c, [&](const ContactPoint& o, const ContactPoint& x) {
      return (o.p_WCa - x.p_WCa).norm() < 1e-9 * A.scale &&
             (o.p_WCb - x.p_WCb).norm() < 1e-9 * A.scale;
    });
  }
  return reduce_manifold(std::move(out));
}

}  // namespace pivot::detail
