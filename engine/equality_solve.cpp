// The equality block solved along the body tree: see equality_solve.hpp for the equations.
#include "pivot/engine/equality_solve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pivot::detail {
namespace {

// a velocity block whose partial-pivot LU has a pivot this small against its largest is
// singular (M̃ of a massless body, say): the caller's full-pivot path decides
constexpr double kSingularPivot = 1e-13;

int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

}  // namespace

int EqualityTree::local(const std::vector<int>& bodies, int body) const {
  if (body < 0) return -1;
  const auto it = std::lower_bound(bodies.begin(), bodies.end(), body);
  return it != bodies.end() && *it == body ? static_cast<int>(it - bodies.begin()) : -1;
}

// the body graph's edges (equality rows' pairs, A's off-diagonal blocks), false on a cycle;
// then each tree rooted at its lowest body, breadth first with neighbours in ascending order
bool EqualityTree::order_forest(const ConstraintSet& rows, const std::vector<int>& bodies,
                                const std::vector<int>& equalities,
                                const Eigen::SparseMatrix<double>& A) {
  const int nb = static_cast<int>(bodies.size());
  edges_.clear();
  auto add_edge = [&](int a, int b) {
    if (a >= 0 && b >= 0 && a != b) edges_.emplace_back(std::min(a, b), std::max(a, b));
  };
  for (int e : equalities) {
    const EqualityRow& r = rows.equalities[e];
    add_edge(local(bodies, r.body_a), local(bodies, r.body_b));
  }
  for (int k = 0; k < A.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, k); it; ++it)
      add_edge(static_cast<int>(it.row()) / 6, static_cast<int>(it.col()) / 6);
  std::sort(edges_.begin(), edges_.end());
  edges_.erase(std::unique(edges_.begin(), edges_.end()), edges_.end());
  find_.resize(nb);
  for (int i = 0; i < nb; ++i) find_[i] = i;
  for (const auto& [a, b] : edges_) {
    const int ra = find_root(find_, a), rb = find_root(find_, b);
    if (ra == rb) return false;  // a closed loop
    find_[std::max(ra, rb)] = std::min(ra, rb);
  }
  adjacency_start_.assign(nb + 1, 0);
  for (const auto& [a, b] : edges_) {
    ++adjacency_start_[a + 1];
    ++adjacency_start_[b + 1];
  }
  for (int i = 0; i < nb; ++i) adjacency_start_[i + 1] += adjacency_start_[i];
  adjacency_.resize(2 * edges_.size());
  // the edges are sorted, so each body's neighbours come in ascending order: first the
  // smaller ones (as b of (a, b)), then the larger ones (as a)
  find_.assign(nb, 0);  // reused: the fill of each body's list
  for (const auto& [a, b] : edges_) adjacency_[adjacency_start_[b] + find_[b]++] = a;
  for (const auto& [a, b] : edges_) adjacency_[adjacency_start_[a] + find_[a]++] = b;
  nodes_.resize(nb);
  for (Node& n : nodes_) n.parent = -2;  // not reached yet
  order_.clear();
  for (int root = 0; root < nb; ++root) {
    if (nodes_[root].parent != -2) continue;
    nodes_[root].parent = -1;
    std::size_t head = order_.size();
    order_.push_back(root);
    while (head < order_.size()) {
      const int i = order_[head++];
      for (int k = adjacency_start_[i]; k < adjacency_start_[i + 1]; ++k) {
        const int j = adjacency_[k];
        if (nodes_[j].parent != -2) continue;
        nodes_[j].parent = i;
        order_.push_back(j);
      }
    }
  }
  return true;
}

EqualityTree::Status EqualityTree::factor(const ConstraintSet& rows, const std::vector<int>& bodies,
                                          const std::vector<int>& equalities,
                                          const Eigen::SparseMatrix<double>& A) {
  if (!order_forest(rows, bodies, equalities, A)) return Status::not_a_tree;
  const int nb = static_cast<int>(bodies.size());
  ne_ = static_cast<int>(equalities.size());
  for (Node& n : nodes_) n.row_count = 0;
  // each row to the node of its child body (or of its one body): island order within a node
  for (int e = 0; e < ne_; ++e) {
    const EqualityRow& r = rows.equalities[equalities[e]];
    const int a = local(bodies, r.body_a), b = local(bodies, r.body_b);
    int node = a >= 0 ? a : b;
    if (a >= 0 && b >= 0 && nodes_[a].parent == b) node = a;
    if (a >= 0 && b >= 0 && nodes_[b].parent == a) node = b;
    if (node < 0) return Status::dependent;  // touches no body of the island: a zero row
    Node& n = nodes_[node];
    if (n.row_count == kMaxNodeRows) return Status::dependent;  // more rows than freedoms
    n.rows[n.row_count++] = e;
  }
  for (Node& n : nodes_) {
    n.A.setZero();
    n.coupled = false;
    n.J.setZero();
    n.down.setZero();
    n.up.setZero();
  }
  // A: diagonal blocks into A_i, a child's row of blocks into its `down`, column into `up`
  for (int k = 0; k < A.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, k); it; ++it) {
      const int r = static_cast<int>(it.row()), c = static_cast<int>(it.col());
      const int br = r / 6, bc = c / 6;
      if (br == bc) {
        nodes_[br].A(r % 6, c % 6) += it.value();
      } else if (nodes_[br].parent == bc) {
        nodes_[br].down(r % 6, c % 6) += it.value();
        nodes_[br].coupled = true;
      } else {  // nodes_[bc].parent == br
        nodes_[bc].up(r % 6, c % 6) += it.value();
        nodes_[bc].coupled = true;
      }
    }
  // the rows: J on the node's body (D_i = [A −Jᵀ; J 0]), J on the parent into down and up
  for (int i = 0; i < nb; ++i) {
    Node& n = nodes_[i];
    for (int t = 0; t < n.row_count; ++t) {
      const EqualityRow& r = rows.equalities[equalities[n.rows[t]]];
      auto place = [&](int body, const Row6& J) {
        const int b = local(bodies, body);
        if (b == i) {
          n.J.row(t) += J;
        } else if (b >= 0) {
          n.down.row(6 + t) += J;
          n.up.col(6 + t) -= J.transpose();
        }
      };
      place(r.body_a, r.J_A);
      place(r.body_b, r.J_B);
    }
  }
  // eliminate children before parents: A_p −= H_pi D_i⁻¹ H_ip (the parent's velocity block)
  for (int k = nb - 1; k >= 0; --k) {
    Node& n = nodes_[order_[k]];
    if (!factor_node(n)) return Status::dependent;
    if (n.parent < 0) continue;
    const int size = 6 + n.row_count;
    // (H_ip's and H_pi's velocity blocks are A's: zero unless A couples the two bodies)
    for (int c = 0; c < 6; ++c) {
      n.E.col(c) = n.down.col(c);
      apply_inverse(n, n.E.col(c).data(), !n.coupled);
    }
    Mat6& Ap = nodes_[n.parent].A;
    for (int c = 0; c < 6; ++c)
      for (int j = n.coupled ? 0 : 6; j < size; ++j)
        for (int r = 0; r < 6; ++r) Ap(r, c) -= n.up(r, j) * n.E(j, c);
  }
  return Status::factored;
}

// A = P⁻¹ L U with partial pivoting (Golub–Van Loan §3.4), then W = A⁻¹ Jᵀ and S = J W with
// full pivoting (§3.4.8): a pivot of S at most k ε times its largest says the rows are
// dependent (the threshold of Eigen's FullPivLU::isInvertible)
bool EqualityTree::factor_node(Node& n) {
  Mat6& A = n.A;
  for (int r = 0; r < 6; ++r) n.A_perm[r] = r;
  double largest = 0.0;
  for (int j = 0; j < 6; ++j) {
    int p = j;
    for (int r = j + 1; r < 6; ++r)
      if (std::abs(A(r, j)) > std::abs(A(p, j))) p = r;
    if (p != j) {
      A.row(p).swap(A.row(j));
      std::swap(n.A_perm[p], n.A_perm[j]);
    }
    const double pivot = A(j, j);
    largest = std::max(largest, std::abs(pivot));
    if (!(std::abs(pivot) > kSingularPivot * largest)) return false;
    n.A_pivot_inverse[j] = 1.0 / pivot;
    for (int r = j + 1; r < 6; ++r) {
      const double l = A(r, j) * n.A_pivot_inverse[j];
      A(r, j) = l;
      for (int c = j + 1; c < 6; ++c) A(r, c) -= l * A(j, c);
    }
  }
  const int k = n.row_count;
  if (k == 0) return true;
  for (int t = 0; t < k; ++t) {
    Vec6 w = n.J.row(t).transpose();
    solve_A(n, w.data());
    n.W.col(t) = w;
  }
  Mat6& S = n.S;
  for (int c = 0; c < k; ++c)
    for (int r = 0; r < k; ++r) {
      double sum = 0.0;
      for (int q = 0; q < 6; ++q) sum += n.J(r, q) * n.W(q, c);
      S(r, c) = sum;
    }
  for (int t = 0; t < k; ++t) n.S_row[t] = n.S_col[t] = t;
  double first = 0.0;
  for (int j = 0; j < k; ++j) {
    int pr = j, pc = j;
    for (int c = j; c < k; ++c)
      for (int r = j; r < k; ++r)
        if (std::abs(S(r, c)) > std::abs(S(pr, pc))) {
          pr = r;
          pc = c;
        }
    if (pr != j) {
      S.row(pr).swap(S.row(j));
      std::swap(n.S_row[pr], n.S_row[j]);
    }
    if (pc != j) {
      S.col(pc).swap(S.col(j));
      std::swap(n.S_col[pc], n.S_col[j]);
    }
    const double pivot = S(j, j);
    if (j == 0) first = std::abs(pivot);
    if (!(std::abs(pivot) > k * std::numeric_limits<double>::epsilon() * first)) return false;
    for (int r = j + 1; r < k; ++r) {
      const double l = S(r, j) / pivot;
      S(r, j) = l;
      for (int c = j + 1; c < k; ++c) S(r, c) -= l * S(j, c);
    }
  }
  return true;
}

// x ← A⁻¹ x by the LU of factor_node
void EqualityTree::solve_A(const Node& n, double* x) {
  double y[6];
  for (int r = 0; r < 6; ++r) y[r] = x[n.A_perm[r]];
  for (int r = 1; r < 6; ++r)
    for (int c = 0; c < r; ++c) y[r] -= n.A(r, c) * y[c];
  for (int r = 5; r >= 0; --r) {
    for (int c = r + 1; c < 6; ++c) y[r] -= n.A(r, c) * y[c];
    y[r] *= n.A_pivot_inverse[r];
  }
  for (int r = 0; r < 6; ++r) x[r] = y[r];
}

// x = (f, g) ← D_i⁻¹ x: a = A⁻¹ f, λ = S⁻¹ (g − J a), v = a + W λ
void EqualityTree::apply_inverse(const Node& n, double* x, bool zero_velocity) {
  if (!zero_velocity) solve_A(n, x);  // (A⁻¹ 0 = 0)
  const int k = n.row_count;
  if (k == 0) return;
  double t[kMaxNodeRows], y[kMaxNodeRows];
  for (int r = 0; r < k; ++r) {
    double sum = x[6 + r];
    if (!zero_velocity)
      for (int q = 0; q < 6; ++q) sum -= n.J(r, q) * x[q];
    t[r] = sum;
  }
  // S's LU: P S Q = L U, so S⁻¹ t = Q U⁻¹ L⁻¹ P t
  for (int r = 0; r < k; ++r) y[r] = t[n.S_row[r]];
  for (int r = 1; r < k; ++r)
    for (int c = 0; c < r; ++c) y[r] -= n.S(r, c) * y[c];
  for (int r = k - 1; r >= 0; --r) {
    for (int c = r + 1; c < k; ++c) y[r] -= n.S(r, c) * y[c];
    y[r] /= n.S(r, r);
  }
  for (int r = 0; r < k; ++r) x[6 + n.S_col[r]] = y[r];
  for (int c = 0; c < k; ++c)
    for (int r = 0; r < 6; ++r) x[r] += n.W(r, c) * x[6 + c];
}

}  // namespace pivot::detail
