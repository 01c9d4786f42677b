#pragma once
// Finding the contact coordinates of two smooth surfaces from the bodies' poses (the map (a)
// of the hybrid switch; Kry & Pai 2002 §3.7 "a few Newton iterations ... refine the contact
// point on the smooth surfaces, as in Nelson et al. 1999"; docs/hybrid.md "The World switch").
//
// The contact points c (body 1) and d (body 2) of a proper point contact have opposed normals
// and c − d along them. Pivot solves, in body 2's frame, the four conditions
//   (c − d)·d_u = 0,  (c − d)·d_v = 0,  n_d·c_s = 0,  n_d·c_t = 0        (n_d = z_2c)
// by Newton's method (Jacobian by central differences), each normalized by the lengths of the
// tangents. Unlike Nelson's (c − d)·c_s = (c − d)·c_t = (c − d)·d_u = (c − d)·d_v = 0 these
// stay regular when the surfaces touch or overlap (there Nelson's system is rank deficient,
// every point of the intersection curve solves it) [DERIVED]. The points live in the surfaces'
// contact domains (smooth_surface.hpp "Overlapping charts"): near a Loop extraordinary vertex
// in the regular chart around it, so the conditions and their Jacobian stay regular there. A
// step that leaves a contact domain continues across its edge (the neighbouring patch, or the
// chart and back); at an open edge the point stays on the edge.
// ψ then follows from the two frames: ψ = atan2(−y_1c·x_2c, x_1c·x_2c) (P7).

#include <optional>

#include "pivot/engine/hybrid/contact_kinematics.hpp"

namespace pivot::detail {

struct ContactSearchResult {
  bool converged = false;  ///< the four conditions hold to the tolerance
  ContactCoordinates coords;
  /// (c − d)·z_2c, z_2c = body 2's outward normal (from body 2 to body 1, Pivot's contact
  /// normal): > 0 separated, < 0 overlapping, m
  double gap = 0.0;
  double normal_angle = 0.0;  ///< angle between z_1c and −z_2c, rad (0 for a proper contact)
  Vec3 p_W1 = Vec3::Zero();   ///< contact point on body 1, world, m
  Vec3 p_W2 = Vec3::Zero();   ///< contact point on body 2, world, m
  Vec3 n_W = Vec3::Zero();    ///< z_2c in world
  int iterations = 0;
};

/// the contact coordinates of body 1's and body 2's surfaces at the given world poses. Start:
/// the surface points closest to p_W_guess (e.g. the collision detector's contact point), or
/// without it a few alternating closest-point projections from body 1's centre.
[[nodiscard]] ContactSearchResult find_contact(const ContactSurface& body1, const Pose& X_W1,
                                               const ContactSurface& body2, const Pose& X_W2,
                                               const std::optional<Vec3>& p_W_guess = {},
                                               double tolerance = 1e-12);

}  // namespace pivot::detail
