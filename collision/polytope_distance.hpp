#pragma once
// The exact signed distance of a convex polytope (a hull), as a distance oracle for the point
// shell of an sdf shape (sdf_manifold.hpp; Barbič 2007 §3.11.1: exact implicit functions may
// replace the sampled field). With faces n_f·x = o_f (n_f outward, unit):
//   inside (every n_f·p ≤ o_f):  d = max_f (n_f·p − o_f)   (the nearest face plane; exact
//                                 for a convex solid)
//   outside: d = min over the faces with n_f·p > o_f of the distance to the face polygon
//            (p's projection if it falls inside the polygon, else the nearest edge point):
//            the closest point of a convex solid lies on a face that p sees.
// A signed distance is 1-Lipschitz, so a ball of radius r about p has d ≥ d(p) − r.

#include "pivot/collision/distance_oracle.hpp"
#include "pivot/collision/polytope.hpp"

namespace pivot::detail {

class PolytopeDistance final : public DistanceOracle {
 public:
  /// the polytope must outlive the oracle
  explicit PolytopeDistance(const Polytope& polytope) : P_(polytope) {}
  double distance(const Vec3& p) const override { return query(p).d; }
  Vec3 normal(const Vec3& p) const override { return query(p).n; }
  double lower_bound(const Vec3&, double d, double r) const override { return d - r; }
  double lipschitz() const override { return 1.0; }
  bool skip_is_safe(double) const override { return true; }

 private:
  struct Result {
    double d = 0.0;
    Vec3 n = Vec3::UnitZ();
  };
  [[nodiscard]] Result query(const Vec3& p) const;
  const Polytope& P_;
};

}  // namespace pivot::detail
