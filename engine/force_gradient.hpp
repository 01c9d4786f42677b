#pragma once
// The force gradients' term of the linearly implicit step (internal; world_step.cpp), kept in a
// sparse matrix whose pattern lives from step to step.
//
// Cline 2002 eq. 2.52–2.54: M̃ = M − h²∇ₚf − h∇ᵥf and f̃ = f − ∇ᵥf v. The forces hand their
// gradients as triplets (forces.hpp), duplicates summed. The compressed pattern and the place of
// each triplet in it are computed into the matrix's own arrays, again only when the triplets'
// places differ from the last step's (a force leaves out its zero entries), and the values are
// then added into their places: no allocation once the buffers have grown. The values are bit for
// bit those of the plain construction
//
//   ∇ₚf, ∇ᵥf = setFromTriplets(dfdp), setFromTriplets(dfdv);   G = −h²∇ₚf − h∇ᵥf
//   f̃ = f − (∇ᵥf v)
//
// (duplicates summed in triplet order, a place held by one of the two gradients alone taking
// that one's term, ∇ᵥf v summed over the columns in order).

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

#include "pivot/engine/forces.hpp"

namespace pivot::detail {

class ForceGradient {
 public:
  /// G = −h²∇ₚf − h∇ᵥf of a system of `size` coordinates (6 per body) from the forces' triplets;
  /// G is empty (no stored entries) when both lists are
  void assemble(Eigen::Index size, double h, const Triplets& dfdp, const Triplets& dfdv);

  /// f ← f − ∇ᵥf v, with ∇ᵥf that of the last assemble()
  void subtract_velocity_term(const Eigen::VectorXd& v, Eigen::VectorXd& f);

  /// G, column major (what island_mass reads)
  [[nodiscard]] const Eigen::SparseMatrix<double>& matrix() const { return matrix_; }

 private:
  struct Place {
    int row = 0, col = 0;
  };
  // one stored entry of G: the sums of its ∇ₚf and ∇ᵥf triplets, and whether each has any
  struct Entry {
    double dp = 0.0, dv = 0.0;
    bool has_dp = false, has_dv = false;
  };

  [[nodiscard]] bool same_places(const Triplets& dfdp, const Triplets& dfdv) const;
  void build_pattern(Eigen::Index size, const Triplets& dfdp, const Triplets& dfdv);

  Eigen::SparseMatrix<double> matrix_;
  std::vector<Place> places_;             ///< the triplets' places, dfdp's then dfdv's
  std::vector<int> slot_;                 ///< each triplet's entry in matrix_'s compressed storage
  std::vector<int> order_;                ///< the triplets sorted by place (build_pattern)
  std::vector<int> column_start_, fill_;  ///< build_pattern's column buckets
  std::vector<Entry> entries_;
  Eigen::VectorXd product_;  ///< ∇ᵥf v
};

}  // namespace pivot::detail
