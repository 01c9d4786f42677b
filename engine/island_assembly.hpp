#pragma once
// Assembling islands (internal): a joint's rows into the constraint set, the islands of a step
// (bodies connected by rows or coupled forces) with their rows, an island's M̃, and the size of
// its LCP. Shared by the dynamics step (world_step.cpp) and post-stabilization
// (post_stabilization.cpp).

#include <Eigen/SparseCore>
#include <type_traits>
#include <utility>
#include <vector>

#include "pivot/constraints/joint_rows.hpp"
#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/engine/rigid_body_set.hpp"

namespace pivot::detail {

/// a joint's row block as equality or unilateral rows of the constraint set, bias = scale · g
template <typename Row>
void append_rows(const ConstraintRows& rows, int a, int b, int owner, double bias_scale,
                 std::vector<Row>& out) {
  for (int r = 0; r < rows.rows(); ++r) {
    Row row;
    row.body_a = a;
    row.body_b = b;
    row.J_A = rows.J_A.row(r);
    row.J_B = rows.J_B.row(r);
    row.bias = bias_scale * rows.g(r);
    row.owner = owner;
    if constexpr (std::is_same_v<Row, EqualityRow>) row.owner_row = r;
    out.push_back(row);
  }
}

/// calls f(first, length) for each run of consecutive rows of `list` on one pair of bodies (a
/// joint's rows, a contact's): rows first … first + length − 1 all have list[first]'s body_a and
/// body_b
template <typename List, typename F>
void for_each_pair_run(const List& list, F&& f) {
  const std::size_t n = list.size();
  for (std::size_t i = 0; i < n;) {
    const int a = list[i].body_a, b = list[i].body_b;
    std::size_t j = i + 1;
    while (j < n && list[j].body_a == a && list[j].body_b == b) ++j;
    f(i, j - i);
    i = j;
  }
}

/// an island's lists as split_islands writes them
struct IslandLists {
  std::vector<int> bodies, equalities, unilaterals, cones, motors;
};

/// the buffers of split_islands, kept from step to step (union–find parents, island slots), and
/// its last inputs and answer: the inputs it reads (the bodies and which are fixed, each row
/// list's body pairs, the cones' normal rows, the couplings) as one list of numbers, `key`; a
/// call with the same inputs (a joint's or a resting contact set's rows, step after step, and
/// their post-step) copies the kept islands instead of splitting again
struct IslandSplit {
  std::vector<int> parent, slot;
  std::vector<int> key, next_key;
  std::vector<IslandLists> answer;
};

/// the islands of the rows and the coupled body pairs, each with its bodies (ascending) and rows
/// (ascending), written over `islands`: the lists of an island that was there before keep their
/// memory, so a step with the same islands allocates nothing here. True when the inputs were the
/// last call's and its kept islands were given.
bool split_islands(const RigidBodySet& set, const ConstraintSet& rows,
                   const std::vector<std::pair<int, int>>& couplings, IslandSplit& work,
                   std::vector<IslandInput>& islands);

/// M̃ of an island: the bodies' mass blocks minus h²∇ₚf + h∇ᵥf restricted to the island
/// (`gradient` null: M); its cost is linear in the island's bodies and their gradient entries
[[nodiscard]] Eigen::SparseMatrix<double> island_mass(const RigidBodySet& set,
                                                      const std::vector<int>& bodies,
                                                      const Eigen::SparseMatrix<double>* gradient);

/// the same written into `M`, in M's own memory (no allocation once M has held as many
/// entries); `inertia_W` (by global body index): the bodies' world inertias R I_B Rᵀ at their
/// current orientations, already computed (null: RigidBodySet::mass_matrix's); `blocks`, when
/// given: each body's block (IslandInput::mass_blocks) when no gradient entry falls in the
/// island, else cleared
void island_mass(const RigidBodySet& set, const std::vector<int>& bodies,
                 const Eigen::SparseMatrix<double>* gradient, Eigen::SparseMatrix<double>& M,
                 const std::vector<Mat3>* inertia_W = nullptr,
                 std::vector<RigidMassBlock>* blocks = nullptr);

/// a body's 6 × 6 block of M, blockdiag(I_W, m 1) (RigidBodySet::mass_matrix) with its world
/// inertia I_W given
[[nodiscard]] inline Mat6 rigid_mass_block(const RigidBody& body, const Mat3& I_W) {
  Mat6 M = Mat6::Zero();
  if (body.fixed) return M;
  M.topLeftCorner<3, 3>() = I_W;
  M.bottomRightCorner<3, 3>() = body.mass * Mat3::Identity();
  return M;
}

/// true when M̃ has no entry outside its 6 × 6 diagonal blocks (no force couples two bodies)
[[nodiscard]] bool is_block_diagonal(const Eigen::SparseMatrix<double>& M_tilde);

/// each body's 6 × 6 block of a block-diagonal M̃ and its inverse (full-pivot LU); false when a
/// block is singular
[[nodiscard]] bool invert_body_blocks(const Eigen::SparseMatrix<double>& M_tilde,
                                      std::vector<Mat6>& A, std::vector<Mat6>& A_inv);

/// the number of complementarity variables of an island's LCP (see island_solver.cpp)
[[nodiscard]] int island_lcp_size(const ConstraintSet& rows, const IslandInput& in);

}  // namespace pivot::detail
