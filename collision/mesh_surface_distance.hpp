#pragma once
// The distance of a triangle mesh's surface near it, as a distance oracle for the point shell
// of an sdf shape against a `mesh` shape (sdf_manifold.hpp). A mesh shape is a surface (it may
// be open: terrain, a bowl), not a solid, so within the contact margin δ:
//   u(p) = min over triangles of |p − closest point|     (Ericson §5.1.5, exact)
//   s(p) = sign((p − c)·N_c)                             (N_c the angle-weighted pseudonormal
//                                                          of the closest feature c: face,
//                                                          edge or vertex; Bærentzen & Aanæs,
//                                                          IEEE TVCG 11(3), 2005)
//   d(p) = s u   where u ≤ δ,   else u (or a lower bound of it)
// so a shell point touches exactly when it lies within δ of the surface, on either side, and
// a point deeper than δ behind the surface is not a contact (no solid to push out of; a body
// moving less than δ a step does not tunnel). |d| is 1-Lipschitz, so a ball of radius r about
// p with u(p) − r > δ holds no touching point: lower_bound = |d| − r.
//
// Candidates come from a uniform grid of bins over the triangles' boxes, searched in rings of
// bins about p until the nearest triangle found is no farther than the rings cover (then u is
// exact) or the rings cover more than δ (then their reach is a lower bound of u).

#include <array>
#include <memory>
#include <vector>

#include "pivot/collision/distance_oracle.hpp"

namespace pivot::detail {

/// a mesh's triangles, pseudonormals and bins, built once per shape
class MeshSurface {
 public:
  /// vertices (m) and triangles (counter-clockwise seen from the side the normals point to)
  MeshSurface(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles);

  struct Nearest {
    double u = 0.0;             ///< the unsigned distance, or a lower bound of it when !exact
    bool exact = false;         ///< u is the distance (it was found within the searched reach)
    Vec3 point = Vec3::Zero();  ///< the closest point (exact only)
    Vec3 pseudonormal = Vec3::UnitZ();  ///< of the closest feature (exact only)
  };
  /// the nearest surface point when it lies within `reach` (m), else a lower bound > reach
  [[nodiscard]] Nearest nearest(const Vec3& p, double reach) const;

 private:
  std::vector<Vec3> v_;
  std::vector<std::array<int, 3>> t_;
  std::vector<Vec3> face_n_;                 // unit face normals
  std::vector<Vec3> vertex_n_;               // angle-weighted, unit
  std::vector<std::array<Vec3, 3>> edge_n_;  // per triangle: edges ab, bc, ca (sum of faces)
  Vec3 origin_ = Vec3::Zero();
  double bin_ = 1.0;
  std::array<int, 3> bins_{1, 1, 1};
  std::vector<std::vector<int>> members_;
};

class MeshSurfaceDistance final : public DistanceOracle {
 public:
  /// the surface must outlive the oracle; margin δ ≥ 0
  MeshSurfaceDistance(const MeshSurface& surface, double margin) : S_(surface), margin_(margin) {}
  double distance(const Vec3& p) const override;
  Vec3 normal(const Vec3& p) const override;
  double lower_bound(const Vec3&, double d, double r) const override { return std::abs(d) - r; }
  double lipschitz() const override { return 1.0; }
  bool skip_is_safe(double) const override { return true; }

 private:
  const MeshSurface& S_;
  double margin_;
};

}  // namespace pivot::detail
