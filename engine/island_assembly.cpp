// Assembling islands: see island_assembly.hpp.
#include "pivot/engine/island_assembly.hpp"

#include <algorithm>
#include <numeric>

#include "pivot/engine/mass_block_inverse.hpp"

namespace pivot::detail {
namespace {

// the body index as seen by islands: −1 for the world and for fixed bodies
int dynamic_index(const RigidBodySet& set, int b) {
  return b >= 0 && !set.body(b).fixed ? b : -1;
}

// the inputs split_islands reads, as one list of numbers (IslandSplit::key): the number of
// bodies and each body's fixed flag; each row list's length and its runs of rows on one pair of
// bodies (body_a, body_b, the run's length); the cones' normal rows; the couplings
void split_key(const RigidBodySet& set, const ConstraintSet& rows,
               const std::vector<std::pair<int, int>>& couplings, std::vector<int>& key) {
  key.clear();
  const int n = set.size();
  key.push_back(n);
  for (int i = 0; i < n; ++i) key.push_back(set.body(i).fixed ? 1 : 0);
  auto runs = [&key](const auto& list) {
    key.push_back(static_cast<int>(list.size()));
    for_each_pair_run(list, [&](std::size_t first, std::size_t length) {
      key.push_back(list[first].body_a);
      key.push_back(list[first].body_b);
      key.push_back(static_cast<int>(length));
    });
  };
  runs(rows.equalities);
  runs(rows.unilaterals);
  runs(rows.motors);
  key.push_back(static_cast<int>(rows.cones.size()));
  for (const auto& cone : rows.cones) key.push_back(cone.normal_row);
  key.push_back(static_cast<int>(couplings.size()));
  for (const auto& [a, b] : couplings) {
    key.push_back(a);
    key.push_back(b);
  }
}

// an island's lists from an IslandInput or IslandLists into the other (their memory kept)
template <typename From, typename To>
void copy_lists(const From& from, To& to) {
  to.bodies.assign(from.bodies.begin(), from.bodies.end());
  to.equalities.assign(from.equalities.begin(), from.equalities.end());
  to.unilaterals.assign(from.unilaterals.begin(), from.unilaterals.end());
  to.cones.assign(from.cones.begin(), from.cones.end());
  to.motors.assign(from.motors.begin(), from.motors.end());
}

}  // namespace

// which rows of the set belong to which island, and the island's bodies: union–find over the
// rows' body pairs (the lower root becomes the parent), islands numbered in the order of their
// lowest body
bool split_islands(const RigidBodySet& set, const ConstraintSet& rows,
                   const std::vector<std::pair<int, int>>& couplings, IslandSplit& work,
                   std::vector<IslandInput>& islands) {
  // the same inputs as the last call: its islands again
  split_key(set, rows, couplings, work.next_key);
  if (work.next_key == work.key) {
    islands.resize(work.answer.size());
    for (std::size_t k = 0; k < islands.size(); ++k) copy_lists(work.answer[k], islands[k]);
    return true;
  }
  std::swap(work.key, work.next_key);
  const int n = set.size();
  std::vector<int>& parent = work.parent;
  parent.resize(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&parent](int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  auto connect = [&](int a, int b) {
    if (a < 0 || b < 0) return;
    const int ra = root(a), rb = root(b);
    if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
  };
  // a joint's or a contact's rows come one after another on the same pair of bodies: each run
  // of them links its pair once
  auto link_all = [&](const auto& list) {
    for_each_pair_run(list, [&](std::size_t first, std::size_t) {
      connect(dynamic_index(set, list[first].body_a), dynamic_index(set, list[first].body_b));
    });
  };
  link_all(rows.equalities);
  link_all(rows.unilaterals);
  link_all(rows.motors);
  for (const auto& [a, b] : couplings) connect(dynamic_index(set, a), dynamic_index(set, b));
  // slot[root] = the island's number, then slot[body] for every dynamic body
  std::vector<int>& slot = work.slot;
  slot.assign(static_cast<std::size_t>(n), -1);
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (set.body(i).fixed) continue;
    const int r = root(i);
    if (slot[r] < 0) slot[r] = count++;
    slot[i] = slot[r];
  }
  islands.resize(static_cast<std::size_t>(count));
  for (IslandInput& island : islands) {
    island.bodies.clear();
    island.equalities.clear();
    island.unilaterals.clear();
    island.cones.clear();
    island.motors.clear();
  }
  for (int i = 0; i < n; ++i)
    if (!set.body(i).fixed) islands[slot[i]].bodies.push_back(i);
  auto island_of = [&](const RowRef& r) {
    const int a = dynamic_index(set, r.body_a);
    return a >= 0 ? slot[a] : slot[dynamic_index(set, r.body_b)];
  };
  // each row to its island; a run of rows on one pair of bodies looks the island up once
  auto assign_all = [&](const auto& list, std::vector<int> IslandInput::*member) {
    for_each_pair_run(list, [&](std::size_t first, std::size_t length) {
      std::vector<int>& to = islands[static_cast<std::size_t>(island_of(list[first]))].*member;
      for (std::size_t i = first; i < first + length; ++i) to.push_back(static_cast<int>(i));
    });
  };
  assign_all(rows.equalities, &IslandInput::equalities);
  assign_all(rows.unilaterals, &IslandInput::unilaterals);
  for (std::size_t i = 0; i < rows.cones.size(); ++i)
    islands[island_of(rows.unilaterals[rows.cones[i].normal_row])].cones.push_back(
        static_cast<int>(i));
  assign_all(rows.motors, &IslandInput::motors);
  // kept for the next call
  work.answer.resize(islands.size());
  for (std::size_t k = 0; k < islands.size(); ++k) copy_lists(islands[k], work.answer[k]);
  return false;
}

// M̃ of an island: the bodies' mass blocks minus h²∇ₚf + h∇ᵥf restricted to the island.
// The cost is linear in what the island holds: only the island's own columns of the gradient
// are visited (it is column-major), and a row's body is found in the island's sorted body list
// by binary search, so N single-body islands cost O(N) a step, not O(N²).
Eigen::SparseMatrix<double> island_mass(const RigidBodySet& set, const std::vector<int>& bodies,
                                        const Eigen::SparseMatrix<double>* gradient) {
  const auto nb = static_cast<int>(bodies.size());
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(36 * nb);
  for (int i = 0; i < nb; ++i) {
    const Mat6 M = set.mass_matrix(bodies[i]);
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c)
        if (M(r, c) != 0.0) t.emplace_back(6 * i + r, 6 * i + c, M(r, c));
  }
  if (gradient) {
    // the island's bodies are in ascending order (split_islands): −1 for a body not in it
    auto local = [&bodies](int body) {
      const auto it = std::lower_bound(bodies.begin(), bodies.end(), body);
      return it != bodies.end() && *it == body ? static_cast<int>(it - bodies.begin()) : -1;
    };
    for (int bj = 0; bj < nb; ++bj)
      for (int c = 0; c < 6; ++c) {
        const int col = 6 * bodies[bj] + c;
        if (col >= gradient->outerSize()) continue;
        for (Eigen::SparseMatrix<double>::InnerIterator it(*gradient, col); it; ++it) {
          const int bi = local(static_cast<int>(it.row() / 6));
          if (bi < 0) continue;
          t.emplace_back(6 * bi + it.row() % 6, 6 * bj + c, it.value());
        }
      }
  }
  Eigen::SparseMatrix<double> M(6 * nb, 6 * nb);
  M.setFromTriplets(t.begin(), t.end());
  return M;
}

void island_mass(const RigidBodySet& set, const std::vector<int>& bodies,
                 const Eigen::SparseMatrix<double>* gradient, Eigen::SparseMatrix<double>& M,
                 const std::vector<Mat3>* inertia_W, std::vector<RigidMassBlock>* blocks) {
  // column by column, in row order, the entries setFromTriplets would store from the triplets
  // of island_mass above: each body's nonzero mass entries, and every gradient entry of the
  // island, added to the mass entry of the same place (mass + gradient)
  const auto nb = static_cast<int>(bodies.size());
  const bool coupled = gradient && gradient->nonZeros() > 0;
  // a body's block blockdiag(I_W, m 1), as RigidBodySet::mass_matrix (zero for a fixed body)
  auto rigid_block = [&](int b) {
    const RigidBody& body = set.body(b);
    RigidMassBlock block;
    if (body.fixed) return block;
    block.I_W = inertia_W ? (*inertia_W)[static_cast<std::size_t>(b)]
                          : body.inertia_W(Quat(set.orientation(b)));
    block.m = body.mass;
    return block;
  };
  if (!coupled) {
    // the blocks alone: the compressed arrays written directly, the nonzeros of each column of
    // each block in row order (I_W's in the rotation columns, m alone in each translation one)
    M.resize(6 * nb, 6 * nb);
    M.resizeNonZeros(36 * nb);
    int* start = M.outerIndexPtr();
    int* row = M.innerIndexPtr();
    double* value = M.valuePtr();
    if (blocks) blocks->resize(static_cast<std::size_t>(nb));
    int k = 0;
    for (int i = 0; i < nb; ++i) {
      const RigidMassBlock block = rigid_block(bodies[i]);
      for (int c = 0; c < 3; ++c) {
        start[6 * i + c] = k;
        for (int r = 0; r < 3; ++r)
          if (block.I_W(r, c) != 0.0) {
            row[k] = 6 * i + r;
            value[k++] = block.I_W(r, c);
          }
      }
      for (int c = 3; c < 6; ++c) {
        start[6 * i + c] = k;
        if (block.m != 0.0) {
          row[k] = 6 * i + c;
          value[k++] = block.m;
        }
      }
      if (blocks) (*blocks)[static_cast<std::size_t>(i)] = block;
    }
    start[6 * nb] = k;
    M.resizeNonZeros(k);
    return;
  }
  auto local = [&bodies](int body) {
    const auto it = std::lower_bound(bodies.begin(), bodies.end(), body);
    return it != bodies.end() && *it == body ? static_cast<int>(it - bodies.begin()) : -1;
  };
  M.resize(6 * nb, 6 * nb);
  M.reserve(36 * nb + (coupled ? gradient->nonZeros() : 0));
  bool gradient_in_island = false;
  if (blocks) blocks->resize(static_cast<std::size_t>(nb));
  for (int i = 0; i < nb; ++i) {
    const RigidMassBlock rigid = rigid_block(bodies[i]);
    if (blocks) (*blocks)[static_cast<std::size_t>(i)] = rigid;
    const Mat6 block = rigid_mass_block(set.body(bodies[i]), rigid.I_W);
    for (int c = 0; c < 6; ++c) {
      const int col = 6 * i + c;
      M.startVec(col);
      int r = 0;  // the next mass row of the block
      auto mass_rows_before = [&](int row) {
        for (; r < 6 && 6 * i + r < row; ++r)
          if (block(r, c) != 0.0) M.insertBack(6 * i + r, col) = block(r, c);
      };
      const int global_col = 6 * bodies[i] + c;
      if (coupled && global_col < gradient->outerSize()) {
        for (Eigen::SparseMatrix<double>::InnerIterator it(*gradient, global_col); it; ++it) {
          const int bi = local(static_cast<int>(it.row() / 6));
          if (bi < 0) continue;
          gradient_in_island = true;
          const int row = 6 * bi + static_cast<int>(it.row() % 6);
          mass_rows_before(row);
          double value = it.value();
          if (r < 6 && 6 * i + r == row) {
            if (block(r, c) != 0.0) value = block(r, c) + value;
            ++r;
          }
          M.insertBack(row, col) = value;
        }
      }
      mass_rows_before(6 * nb);
    }
  }
  M.finalize();
  if (blocks && gradient_in_island) blocks->clear();
}

bool is_block_diagonal(const Eigen::SparseMatrix<double>& M_tilde) {
  for (int k = 0; k < M_tilde.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(M_tilde, k); it; ++it)
      if (it.row() / 6 != it.col() / 6) return false;
  return true;
}

bool invert_body_blocks(const Eigen::SparseMatrix<double>& M_tilde, std::vector<Mat6>& A,
                        std::vector<Mat6>& A_inv) {
  const auto nb = static_cast<int>(M_tilde.rows() / 6);
  A.resize(nb);
  A_inv.resize(nb);
  // the diagonal blocks straight from the columns (a sparse block view converts entry by entry)
  for (int b = 0; b < nb; ++b) {
    A[b].setZero();
    for (int c = 0; c < 6; ++c)
      for (Eigen::SparseMatrix<double>::InnerIterator it(M_tilde, 6 * b + c); it; ++it) {
        const auto r = static_cast<int>(it.row()) - 6 * b;
        if (r >= 0 && r < 6) A[b](r, c) = it.value();
      }
  }
  for (int b = 0; b < nb; ++b)
    if (!invert_mass_block(A[b], A_inv[b])) return false;  // Eigen's FullPivLU, its bits
  return true;
}

// the number of complementarity variables of an island's LCP (see island_solver.cpp)
int island_lcp_size(const ConstraintSet& rows, const IslandInput& in) {
  int m = static_cast<int>(in.unilaterals.size()) + 3 * static_cast<int>(in.motors.size());
  for (int c : in.cones) m += static_cast<int>(rows.cones[c].directions.size()) + 1;
  return m;
}

}  // namespace pivot::detail
