#pragma once
// The rows of one step's mixed LCP, gathered from joints and contacts before islands
// are formed. Each row touches at most two bodies; a body index of −1 (kWorldBody) or of a
// fixed body contributes nothing. Velocities are twists (ω; v) per body.
//
//   equality:    J v⁺ + bias = 0                         (joint rows; λ free)
//   unilateral:  J v⁺ + bias ≥ 0  ⊥  λ ≥ 0               (joint limits, contact normals)
//   cone:        D v⁺ + E γ ≥ 0 ⊥ λ_f ≥ 0,  μ λ_n − Eᵀλ_f ≥ 0 ⊥ γ ≥ 0   (Cline eq. 2.48)
//   motor:       J v⁺ = target while |λ| < max_impulse, as a two-direction friction cone with a
//                constant "normal impulse" max_impulse; an actuator's servo row adds a
//                compliance c: J v⁺ + c λ = target (engine/actuator.hpp); a joint's damping
//                and friction are motor rows too (engine/world_joint_dynamics.cpp), the
//                damping's unbounded (max_impulse = +inf)

#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot::detail {

struct RowRef {
  int body_a = -1;
  int body_b = -1;
  Row6 J_A = Row6::Zero();
  Row6 J_B = Row6::Zero();
};

struct EqualityRow : RowRef {
  double bias = 0.0;
  int owner = -1;     ///< joint index
  int owner_row = 0;  ///< which of the joint's rows
};

struct UnilateralRow : RowRef {
  double bias = 0.0;
  int owner = -1;  ///< joint index (limits); −1 for contacts
};

struct FrictionCone {
  int normal_row = -1;             ///< index into ConstraintSet::unilaterals
  double mu = 0.0;                 ///< Coulomb coefficient of the pair
  std::vector<RowRef> directions;  ///< k tangent directions, each with its negative
  /// per direction, the right-hand side D v⁺ + b + E γ ≥ 0: the sliding velocity a kinematic
  /// body prescribes (World::add_kinematic_bias); empty means all zero
  std::vector<double> direction_bias;
};

struct MotorConstraint : RowRef {
  double target = 0.0;
  double max_impulse = 0.0;
  double compliance = 0.0;  ///< c ≥ 0 of J v⁺ + c λ = target (a servo's; 0 for joint motors)
  int owner = -1;           ///< joint index
  int actuator = -1;        ///< actuator index of a servo row; −1 for a joint's motor
  bool passive = false;     ///< a joint's damping or friction row (its impulse is not reported)
};

struct ConstraintSet {
  std::vector<EqualityRow> equalities;
  std::vector<UnilateralRow> unilaterals;
  std::vector<FrictionCone> cones;
  std::vector<MotorConstraint> motors;

  void clear() {
    equalities.clear();
    unilaterals.clear();
    cones.clear();
    motors.clear();
  }
};

}  // namespace pivot::detail
