#pragma once
// Exact signed distances of primitives as distance oracles (Barbič 2007, §3.11.1: analytic
// implicit functions in place of a sampled field, with analytic normals). All are 1-Lipschitz,
// so a ball of radius r about p has distance ≥ d(p) − r.

#include <algorithm>
#include <cmath>

#include "pivot/collision/distance_oracle.hpp"

namespace pivot::detail {

/// the half-space below {x : n·x = offset}, n unit
class PlaneDistance final : public DistanceOracle {
 public:
  PlaneDistance(const Vec3& n, double offset) : n_(n), offset_(offset) {}
  double distance(const Vec3& p) const override { return n_.dot(p) - offset_; }
  Vec3 normal(const Vec3&) const override { return n_; }
  double lower_bound(const Vec3&, double d, double r) const override { return d - r; }
  double lipschitz() const override { return 1.0; }
  bool skip_is_safe(double) const override { return true; }

 private:
  Vec3 n_;
  double offset_;
};

/// a ball of radius r about the origin
class SphereDistance final : public DistanceOracle {
 public:
  explicit SphereDistance(double radius) : r_(radius) {}
  double distance(const Vec3& p) const override { return p.norm() - r_; }
  Vec3 normal(const Vec3& p) const override {
    const double n = p.norm();
    return n > 0.0 ? Vec3(p / n) : Vec3(Vec3::UnitZ());
  }
  double lower_bound(const Vec3&, double d, double r) const override { return d - r; }
  double lipschitz() const override { return 1.0; }
  bool skip_is_safe(double) const override { return true; }

 private:
  double r_;
};

/// a box of half extents h about the origin: outside |max(|p| − h, 0)|, inside the largest
/// (least negative) of |p_i| − h_i
class BoxDistance final : public DistanceOracle {
 public:
  explicit BoxDistance(const Vec3& half_extents) : h_(half_extents) {}
  double distance(const Vec3& p) const override {
    const Vec3 q = p.cwiseAbs() - h_;
    return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
  }
  Vec3 normal(const Vec3& p) const override {
    const Vec3 q = p.cwiseAbs() - h_;
    Vec3 g;
    if (q.maxCoeff() > 0.0) {
      g = q.cwiseMax(0.0);
    } else {
      int axis = 0;
      q.maxCoeff(&axis);
      g = Vec3::Zero();
      g[axis] = 1.0;
    }
    for (int a = 0; a < 3; ++a)
      if (p[a] < 0.0) g[a] = -g[a];
    return g.normalized();
  }
  double lower_bound(const Vec3&, double d, double r) const override { return d - r; }
  double lipschitz() const override { return 1.0; }
  bool skip_is_safe(double) const override { return true; }

 private:
  Vec3 h_;
};

}  // namespace pivot::detail

namespace pivot::detail {

/// a capsule along z: the segment z ∈ [−half_length, half_length] grown by the radius
class CapsuleDistance final : public DistanceOracle {
 public:
  CapsuleDistance(double radius, double half_length) : r_(radius), l_(half_length) {}
  double distance(const Vec3& p) const override { return (p - axis_point(p)).norm() - r_; }
  Vec3 normal(const Vec3& p) const override {
    const Vec3 d = p - axis_point(p);
    const double n = d.norm();
    return n > 0.0 ? Vec3(d / n) : Vec3(Vec3::UnitX());
  }
  double lower_bound(const Vec3&, double d, double r) const override { return d - r; }
  double lipschitz() const override { return 1.0; }
  bool skip_is_safe(double) const override { return true; }

 private:
  Vec3 axis_point(const Vec3& p) const { return {0.0, 0.0, std::clamp(p.z(), -l_, l_)}; }
  double r_, l_;
};

/// a cylinder along z of radius r and half length l: in the plane of the axis and the point,
/// (ρ, z) with ρ = |p_xy|, the distance of a 2-D box: q = (ρ − r, |z| − l),
///   d = |max(q, 0)| + min(max(q₀, q₁), 0)
class CylinderDistance final : public DistanceOracle {
 public:
  CylinderDistance(double radius, double half_length) : r_(radius), l_(half_length) {}
  double distance(const Vec3& p) const override {
    const double q0 = p.head<2>().norm() - r_, q1 = std::abs(p.z()) - l_;
    return std::hypot(std::max(q0, 0.0), std::max(q1, 0.0)) + std::min(std::max(q0, q1), 0.0);
  }
  Vec3 normal(const Vec3& p) const override {
    const double rho = p.head<2>().norm();
    const Vec3 radial = rho > 0.0 ? Vec3(p.x() / rho, p.y() / rho, 0.0) : Vec3(Vec3::UnitX());
    const Vec3 axial(0.0, 0.0, p.z() < 0.0 ? -1.0 : 1.0);
    const double q0 = rho - r_, q1 = std::abs(p.z()) - l_;
    if (q0 > 0.0 && q1 > 0.0) return (q0 * radial + q1 * axial).normalized();
    return q0 > q1 ? radial : axial;
  }
  double lower_bound(const Vec3&, double d, double r) const override { return d - r; }
  double lipschitz() const override { return 1.0; }
  bool skip_is_safe(double) const override { return true; }

 private:
  double r_, l_;
};

}  // namespace pivot::detail
