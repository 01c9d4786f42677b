#pragma once
// The bridge to Bullet's collision detection (double precision, BulletCollision-float64).
// Bullet is included in exactly one .cpp (collision_world.cpp); nothing of it leaks here.
//
// Each body with a shape is one collision object whose transform is the body's pose composed
// with the shape's offset (the body frame sits at the shape's centre of mass). Every call to
// detect() updates the objects from the given poses and returns the contacts with gap ≤ margin
// (speculative contacts, so fast bodies do not tunnel), with shape margins accounted for: the
// reported points lie on the true surfaces.
//
// How the contacts are made (details in collision_world.cpp):
//  - any shape against a plane: analytic and exact (box and convex: every vertex within the
//    margin, so a box resting face down gives its 4 corners; capsule: both end spheres;
//    cylinder: 4 fixed rim points per cap plus the deepest rim point; sphere, ellipsoid: the
//    support point);
//  - box/convex against box/convex: separating axes + face clipping (collision/polytope.hpp),
//    a full manifold (≤ 4 points) in one call, exact gaps; separated pairs are checked
//    against GJK's distance;
//  - sphere and capsule pairs: analytic (closest points of segments);
//  - a capsule against a box/convex/mesh: GJK's point plus its end spheres;
//  - against a triangle mesh: Bullet's convex–concave algorithm, with box/convex face
//    contacts replaced by the clipped face and contacts on internal (flat) edges dropped;
//  - all other pairs (cylinder, ellipsoid): one GJK/EPA closest-point pair.
// A compound is tested child by child. For a pair with one fixed body, body_a is the dynamic
// one; otherwise body_a has the lower index. Output order: (body_a, body_b, point_a).

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "pivot/collision/contact.hpp"
#include "pivot/collision/shape.hpp"

namespace pivot {

struct CollisionObjectSettings {
  int body = -1;                     ///< the engine's body index (≥ 0)
  ShapePtr shape;                    ///< not null
  Vec3 shape_offset = Vec3::Zero();  ///< the shape frame's origin in the body (COM) frame, m
  bool fixed = false;                ///< fixed–fixed pairs are never tested
  std::uint32_t group = 1;           ///< collision group bits
  std::uint32_t mask = 0xffffffffu;  ///< groups this object collides with (both ways)
};

/// wall time of one detect() call, by phase, s
struct DetectTimes {
  double broad_phase = 0.0;   ///< poses, bounding boxes, candidate pairs and their order
  double narrow_phase = 0.0;  ///< the pairs' manifolds and the contacts' canonical order
  /// adds a call's phases: broad from `start` to `narrow`, narrow from `narrow` to now
  void add(std::chrono::steady_clock::time_point start,
           std::chrono::steady_clock::time_point narrow) {
    broad_phase += std::chrono::duration<double>(narrow - start).count();
    narrow_phase +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - narrow).count();
  }
};

/// runs body(0) … body(tasks − 1), each once, possibly on several threads, and returns when all
/// have returned (the engine's thread pool)
using ParallelFor = std::function<void(int tasks, const std::function<void(int)>& body)>;
/// true for a pair (body_a, body_b) of detect()'s output order that the call should skip
using PairFilter = std::function<bool(int body_a, int body_b)>;

/// the answer of CollisionWorld::ray_cast
struct RayHit {
  bool hit = false;
  double distance = 0.0;    ///< m along the ray; max_range when nothing was hit
  int body = -1;            ///< the body hit, −1 when nothing was hit
  Vec3 p_W = Vec3::Zero();  ///< the hit point, world
  Vec3 n_W = Vec3::Zero();  ///< the surface normal there, world (zero without a hit)
};

class CollisionWorld {
 public:
  CollisionWorld();
  ~CollisionWorld();
  CollisionWorld(const CollisionWorld&) = delete;
  CollisionWorld& operator=(const CollisionWorld&) = delete;

  /// adds a body's shape; one object per body. Throws pivot::Error for a null shape, a plane or
  /// mesh on a non-fixed body, or a body that already has one.
  void add(const CollisionObjectSettings& settings);
  /// pairs that never collide (e.g. bodies joined by a joint)
  void exclude_pair(int body_a, int body_b);
  /// excludes (true) or re-includes (false) a pair
  void set_pair_excluded(int body_a, int body_b, bool excluded);
  /// contacts with gap ≤ margin at the given poses (pose(i) gives body i's COM pose);
  /// deterministic: the same poses give the same contacts in the same order, whatever the
  /// earlier calls (no contact cache is kept). Throws pivot::Error for a negative or
  /// non-finite margin or a non-finite pose.
  /// With `times`, the wall time of each phase is added there. With `parallel`, the narrow
  /// phase of large pair lists runs through it, pair by pair into their own lists, which are
  /// then joined in pair order: the contacts are the same for any thread count.
  /// With `skip`, the candidate pairs it returns true for get no narrow phase and no contacts
  /// (a pair in reduced coordinates, whose contact the LCP does not take); skipped_contacts()
  /// gives them later if needed.
  [[nodiscard]] std::vector<Contact> detect(const std::function<Pose(int)>& pose, double margin,
                                            DetectTimes* times = nullptr,
                                            const ParallelFor* parallel = nullptr,
                                            const PairFilter* skip = nullptr);
  /// detect() into `out` (cleared first, its memory kept): with the world's own lists, which
  /// keep theirs from call to call, a detection whose candidate pairs and contacts fit in the
  /// last one's performs no heap allocation when its manifolds are analytic or between
  /// polytopes of ≤ 16 vertices (docs/collision.md)
  void detect_into(std::vector<Contact>& out, const std::function<Pose(int)>& pose, double margin,
                   DetectTimes* times = nullptr, const ParallelFor* parallel = nullptr,
                   const PairFilter* skip = nullptr);
  /// the contacts the last detect() skipped for the pair (body_a, body_b) (either order), at
  /// that call's poses and margin, in the canonical order; empty when it was not a skipped
  /// candidate pair. Exactly what that detect() would have returned for the pair.
  [[nodiscard]] std::vector<Contact> skipped_contacts(int body_a, int body_b);
  [[nodiscard]] int object_count() const;
  /// the first surface a ray from `from_W` along the unit `direction_W` meets within
  /// `max_range` (m), over every object but `ignore_body`'s, at the given poses (Bullet's ray
  /// test; a ray starting inside a convex shape does not hit it). Leaves the state that
  /// skipped_contacts() reads untouched. Throws pivot::Error for non-finite input, a zero
  /// direction or a non-positive range
  [[nodiscard]] RayHit ray_cast(const std::function<Pose(int)>& pose, const Vec3& from_W,
                                const Vec3& direction_W, double max_range, int ignore_body) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pivot
