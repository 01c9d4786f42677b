#pragma once
// One body's half of a smooth contact: the contact frame on its surface and how that frame
// moves with the surface parameters (Kry & Pai 2002 eq. 5 and Appendix eqs. 44-51; Kry 2000
// eqs. 4.5-4.6 and App. A; Kry & Pai 2002 Appendix step 1).
//
// At a surface point c(u, v) (in body coordinates) the contact frame is
//   x = c_u/|c_u|,  z = (c_u × c_v)/|c_u × c_v|,  y = z × x
// (y = z × x equals the paper's ((c_u·c_u) c_v − (c_u·c_v) c_u)/|...|; Kry & Pai 2002 §3.1), with
// Θ = [x y z] and origin c. z is the outward normal (smooth_surface.hpp). Its motion relative to
// the body, in its own coordinates, is ^{kc}φ(k, kc) = H_k (u̇, v̇) with (P51, T A.7)
//
//   H_k = [ −y·z_u   −y·z_v ]      ω_x
//         [ −z·x_u   −z·x_v ]      ω_y
//         [  y·x_u    y·x_v ]      ω_z
//         [  x·c_u    x·c_v ]      v_x
//         [   0       y·c_v ]      v_y
//         [   0        0    ]      v_z
//
// H_k holds second derivatives of c, its partials H_{k,u}, H_{k,v} third derivatives. All are
// computed by truncated Taylor arithmetic (collision/truncated_series.hpp) from the surface's
// SurfaceJet, each at the degree it needs.

#include "pivot/collision/surface_jet.hpp"
#include "pivot/core/spatial.hpp"

namespace pivot::detail {

using Mat62 = Eigen::Matrix<double, 6, 2>;

/// the contact frame of one surface at one parameter point, with first partials
struct ContactFrame {
  Mat3 Theta = Mat3::Identity();  ///< [x y z]: frame axes in body coordinates (z outward)
  Vec3 c = Vec3::Zero();          ///< frame origin (the surface point), body coordinates, m
  Mat3 Theta_u = Mat3::Zero(), Theta_v = Mat3::Zero();  ///< ∂Θ/∂u, ∂Θ/∂v
  Vec3 c_u = Vec3::Zero(), c_v = Vec3::Zero();          ///< ∂c/∂u, ∂c/∂v
  Mat62 H = Mat62::Zero();    ///< ^{kc}φ(k, kc) = H (u̇, v̇), Kry & Pai 2002 eq. 51
  Mat62 H_u = Mat62::Zero();  ///< ∂H/∂u
  Mat62 H_v = Mat62::Zero();  ///< ∂H/∂v
  /// |c_u × c_v| / (|c_u| |c_v|): sine of the angle between the parameter directions; the
  /// frame is defined only where it is > 0 (Kry & Pai 2002 §3.1 regularity)
  double regularity = 0.0;
};

/// the contact frame of a surface whose jet is given in body coordinates. A singular point
/// (c_u × c_v = 0) gives regularity 0 and non-finite axes; check regularity first.
[[nodiscard]] ContactFrame contact_frame(const SurfaceJet& jet_B);

}  // namespace pivot::detail
