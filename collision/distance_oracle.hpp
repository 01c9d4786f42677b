#pragma once
// A distance oracle (internal): what the point-tree traversal queries, in the oracle's own frame
// S. A grid signed distance field (signed_distance_field.hpp) and the analytic primitives
// (analytic_distance.hpp, Barbič 2007 §3.11.1: "analytic implicit functions can replace the
// SDF") are both oracles.

#include "pivot/core/spatial.hpp"

namespace pivot::detail {

class DistanceOracle {
 public:
  virtual ~DistanceOracle() = default;
  /// the signed distance at p_S (negative inside), m
  [[nodiscard]] virtual double distance(const Vec3& p_S) const = 0;
  /// the outward unit normal at p_S (the distance's gradient direction)
  [[nodiscard]] virtual Vec3 normal(const Vec3& p_S) const = 0;
  /// a lower bound of distance(q) over the ball |q − p_S| ≤ r, given d = distance(p_S)
  [[nodiscard]] virtual double lower_bound(const Vec3& p_S, double d, double r) const = 0;
  /// the slope L of the bound: lower_bound(p, d, r + δ) ≥ lower_bound(p, d, r) − L δ whenever
  /// `skip_is_safe(margin)` holds (the temporal-coherence skip relies on it)
  [[nodiscard]] virtual double lipschitz() const = 0;
  /// whether the temporal-coherence skip may be used with this contact margin
  [[nodiscard]] virtual bool skip_is_safe(double margin) const = 0;
};

}  // namespace pivot::detail
