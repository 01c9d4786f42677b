#pragma once
// The force outputs of `pivot run` (docs/cli.md "contacts.csv", "joints.csv"): per trajectory
// frame, the contacts of the step that ended there with their impulses, and every joint's
// anchors, axes and impulses. Reading them changes nothing in the World, so a run writes the
// same trajectory and the same final-state hash with or without them.

#include <filesystem>
#include <vector>

#include "pivot/core/spatial.hpp"
#include "run_files/run_output.hpp"

namespace pivot {
class World;
struct Scene;
}  // namespace pivot

namespace pivot::cli {

inline constexpr const char* kContactsHeader =
    "t,body_a,body_b,x,y,z,nx,ny,nz,gap,normal_impulse,fx,fy,fz";
inline constexpr const char* kJointsHeader =
    "t,joint,type,body_a,body_b,ax,ay,az,bx,by,bz,ux,uy,uz,vx,vy,vz,fx,fy,fz,tx,ty,tz,"
    "limit_impulse,motor_impulse";

/// a joint's anchor and axes fixed in its bodies, from the scene at the initial poses
struct JointFrame {
  Vec3 anchor_A = Vec3::Zero();  ///< in A's body frame, m
  Vec3 anchor_B = Vec3::Zero();  ///< in B's body frame (world when B is the world), m
  Vec3 axis_u_A = Vec3::Zero();  ///< hinge, slider: the axis; universal: axis_a; in A (0: none)
  Vec3 axis_v_B = Vec3::Zero();  ///< universal: axis_b in B (0: none)
};

/// writes contacts.csv and joints.csv, one block of rows per trajectory frame
class ForceWriter {
 public:
  /// opens both files and writes their headers; `initial` holds every body's pose at the run's
  /// start (the joints' anchors and axes are fixed in their bodies there; a resumed run's World is
  /// already at its checkpoint)
  ForceWriter(const Scene& scene, const World& world, const std::vector<Pose>& initial,
              const std::filesystem::path& contacts, const std::filesystem::path& joints);

  /// the rows of the frame at step_time(world.step_count(), h), as in trajectory.csv: the last
  /// step's contacts and joint impulses (none before the first step)
  void write_frame(const World& world);
  /// flushes and closes both files; throws std::runtime_error on a write error
  void close();

 private:
  OutputFile contacts_, joints_;
  std::vector<JointFrame> frames_;
};

}  // namespace pivot::cli
