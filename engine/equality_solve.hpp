#pragma once
// The equality block of an island solved in time linear in its bodies (internal), when its
// joints form a tree: Baraff 1996, "Linear-time dynamics using Lagrange multipliers" (the
// factorization of the sparse matrix [M Jᵀ; J 0] in an order without fill).
//
// The free rows of an island's mixed LCP (island_lcp.hpp), with A = M̃ and rhs (f, g):
//
//   H [v; λ] = [f; g],     H = [ A    −J_eᵀ ]
//                              [ J_e    0   ]
//
// The body graph has the island's bodies as nodes and as edges the body pairs of the equality
// rows and of A's off-diagonal 6 × 6 blocks. When it is a forest, each tree is rooted at its
// lowest body (breadth first, neighbours in ascending order) and node i holds the unknowns
// x_i = (v_i, λ of the rows between body i and its parent or the world), the rows in island
// order. Then H's block (i, j) is non-zero only for i = j or i, j parent and child, and block
// Gaussian elimination children before parents makes no fill:
//
//   factor   D_i = H_ii − Σ_{c child of i} H_ic D_c⁻¹ H_ci      (D_i by its blocks: Node)
//   forward  z_i = D_i⁻¹ (b_i − Σ_c H_ic z_c)
//   back     x_i = z_i − D_i⁻¹ H_ip x_p                          (parents first)
//
// Baraff keeps bodies and joints as separate nodes of a symmetric H; here a body and the rows
// to its parent are one node, so that A may couple a parent and its child and need not be
// symmetric (the linearly implicit step's M̃). H_ci is non-zero only in the parent's velocity
// columns (A_cp and the rows' Jacobian on the parent) and H_ic only in its velocity rows, so each
// elimination updates the parent's 6 × 6 velocity block: O(n) for n bodies. As
// det H = Π det D_i, a singular D_i (a pivot of its blocks' LUs) says that the island's rows are
// dependent (redundant joints); a body graph with a cycle (a closed loop) is not factored here.
// Either way the caller takes its rank-revealing path.

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

#include "pivot/core/spatial.hpp"
#include "pivot/engine/constraint_set.hpp"

namespace pivot::detail {

class EqualityTree {
 public:
  /// the rows of one node at most: more rows between two bodies (or a body and the world) than
  /// their relative freedoms are dependent
  static constexpr int kMaxNodeRows = 6;
  static constexpr int kMaxNode = 6 + kMaxNodeRows;

  enum class Status {
    factored,    ///< solve() gives H⁻¹
    not_a_tree,  ///< the body graph has a cycle
    dependent    ///< a node's block is singular: the rows are dependent
  };

  /// factor H of the island whose bodies are `bodies` (global indices, ascending) and whose
  /// equality rows are rows.equalities[equalities[e]]; A is 6nb × 6nb. Warm calls of the same
  /// sizes allocate nothing.
  Status factor(const ConstraintSet& rows, const std::vector<int>& bodies,
                const std::vector<int>& equalities, const Eigen::SparseMatrix<double>& A);

  /// [v; λ] = H⁻¹ [f; g] after a successful factor(); v, λ in island order (6nb and ne)
  template <typename F, typename G, typename V, typename L>
  void solve(const Eigen::MatrixBase<F>& f, const Eigen::MatrixBase<G>& g, Eigen::MatrixBase<V>& v,
             Eigen::MatrixBase<L>& lambda);

  [[nodiscard]] int bodies() const { return static_cast<int>(nodes_.size()); }

 private:
  using Mat6 = Eigen::Matrix<double, 6, 6>;
  using Vec6 = Eigen::Matrix<double, 6, 1>;
  using NodeVector = Eigen::Matrix<double, kMaxNode, 1>;   // (v_i, λ_i), the first 6 + k
  using EdgeMatrix = Eigen::Matrix<double, kMaxNode, 6>;   // H_ip, the first 6 + k rows
  using EdgeMatrixT = Eigen::Matrix<double, 6, kMaxNode>;  // H_pi, the first 6 + k columns

  // D_i = [A −Jᵀ; J 0] is inverted through its blocks, in fixed-size storage: A (the velocity
  // block after the children's updates) by a partial-pivot LU, the k × k Schur complement
  // S = J A⁻¹ Jᵀ by a full-pivot LU whose pivots say whether the node's rows are dependent.
  // D_i [v; λ] = [f; g] is then λ = S⁻¹ (g − J A⁻¹ f), v = A⁻¹ f + W λ with W = A⁻¹ Jᵀ.
  struct Node {
    int parent = -1;
    int row_count = 0;
    int rows[kMaxNodeRows] = {};     ///< island equality rows of the node, ascending
    Mat6 A;                          ///< H_ii's velocity block, then its LU (unit lower, upper)
    int A_perm[6] = {};              ///< the LU's row order
    double A_pivot_inverse[6] = {};  ///< 1 / U's diagonal
    bool coupled = false;            ///< A couples the body and its parent (H_ip's velocity rows)
    Mat6 J;                          ///< the node's rows on its body (the first k rows)
    Mat6 W;                          ///< A⁻¹ Jᵀ (the first k columns)
    Mat6 S;                          ///< S's full-pivot LU (the first k × k)
    int S_row[kMaxNodeRows] = {}, S_col[kMaxNodeRows] = {};
    EdgeMatrix down;  ///< H_ip (the node's rows, the parent's velocity columns)
    EdgeMatrixT up;   ///< H_pi (the parent's velocity rows, the node's columns)
    EdgeMatrix E;     ///< D_i⁻¹ H_ip
    NodeVector z, x;
  };

  /// x ← D_i⁻¹ x on the node's 6 + k entries (`zero_velocity`: x's first 6 entries are 0)
  static void apply_inverse(const Node& n, double* x, bool zero_velocity = false);
  /// x ← A_i⁻¹ x on 6 entries
  static void solve_A(const Node& n, double* x);
  /// factor D_i (A and S); false when a pivot says it is singular
  static bool factor_node(Node& n);

  bool order_forest(const ConstraintSet& rows, const std::vector<int>& bodies,
                    const std::vector<int>& equalities, const Eigen::SparseMatrix<double>& A);
  [[nodiscard]] int local(const std::vector<int>& bodies, int body) const;

  std::vector<Node> nodes_;
  std::vector<int> order_;  ///< breadth first: parents before children
  // the body graph: edge list, union–find, adjacency in compressed rows
  std::vector<std::pair<int, int>> edges_;
  std::vector<int> find_, adjacency_start_, adjacency_;
  int ne_ = 0;
};

template <typename F, typename G, typename V, typename L>
void EqualityTree::solve(const Eigen::MatrixBase<F>& f, const Eigen::MatrixBase<G>& g,
                         Eigen::MatrixBase<V>& v, Eigen::MatrixBase<L>& lambda) {
  const int nb = bodies();
  for (int i = 0; i < nb; ++i) {
    Node& n = nodes_[i];
    for (int r = 0; r < 6; ++r) n.x(r) = f(6 * i + r);
    for (int t = 0; t < n.row_count; ++t) n.x(6 + t) = g(n.rows[t]);
  }
  // forward, children before parents: z_i = D_i⁻¹ b_i, then b_p −= H_pi z_i
  for (int k = nb - 1; k >= 0; --k) {
    Node& n = nodes_[order_[k]];
    n.z = n.x;
    apply_inverse(n, n.z.data());
    if (n.parent < 0) continue;
    NodeVector& xp = nodes_[n.parent].x;
    // (H_pi's velocity columns are A_pi: zero unless A couples the two bodies)
    const int size = 6 + n.row_count;
    for (int c = n.coupled ? 0 : 6; c < size; ++c)
      for (int r = 0; r < 6; ++r) xp(r) -= n.up(r, c) * n.z(c);
  }
  // back, parents first: x_i = z_i − E_i v_p
  for (int k = 0; k < nb; ++k) {
    const int i = order_[k];
    Node& n = nodes_[i];
    const int size = 6 + n.row_count;
    n.x = n.z;
    if (n.parent >= 0) {
      const NodeVector& xp = nodes_[n.parent].x;
      for (int c = 0; c < 6; ++c)
        for (int r = 0; r < size; ++r) n.x(r) -= n.E(r, c) * xp(c);
    }
    for (int r = 0; r < 6; ++r) v(6 * i + r) = n.x(r);
    for (int t = 0; t < n.row_count; ++t) lambda(n.rows[t]) = n.x(6 + t);
  }
}

}  // namespace pivot::detail
