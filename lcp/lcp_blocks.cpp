// The decoupled blocks of an LCP (lcp_blocks.hpp).
#include "pivot/lcp/lcp_blocks.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <numeric>

#include "pivot/lcp/matrix_access.hpp"

namespace pivot::lcp::detail {
namespace {

/// union-find with path halving
int root(std::vector<int>& parent, int i) {
  while (parent[static_cast<std::size_t>(i)] != i) {
    int& p = parent[static_cast<std::size_t>(i)];
    p = parent[static_cast<std::size_t>(p)];
    i = p;
  }
  return i;
}

template <typename Matrix>
std::vector<std::vector<int>> blocks_of(const Matrix& M) {
  const auto n = static_cast<int>(M.rows());
  std::vector<int> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  detail::access::for_each_nonzero(M, [&](Eigen::Index i, Eigen::Index j, double) {
    const int a = root(parent, static_cast<int>(i)), b = root(parent, static_cast<int>(j));
    if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
  });
  // every root is the smallest index of its block (the larger root always joins the smaller),
  // so numbering the roots in index order orders the blocks by their smallest index
  std::vector<int> number(static_cast<std::size_t>(n), -1);
  std::vector<std::vector<int>> blocks;
  for (int i = 0; i < n; ++i) {
    const int r = root(parent, i);
    int& k = number[static_cast<std::size_t>(r)];
    if (k < 0) {
      k = static_cast<int>(blocks.size());
      blocks.emplace_back();
    }
    blocks[static_cast<std::size_t>(k)].push_back(i);
  }
  return blocks;
}

/// the more telling of two failures: invalid input first, then a failed check or an exhausted
/// budget, then a ray
int severity(LcpStatus s) {
  switch (s) {
    case LcpStatus::solved:
      return 0;
    case LcpStatus::ray_termination:
      return 1;
    case LcpStatus::pivot_limit:
      return 2;
    case LcpStatus::numerical_failure:
      return 3;
    case LcpStatus::invalid_input:
      return 4;
  }
  return 4;
}

}  // namespace

std::vector<std::vector<int>> decoupled_blocks(const DenseMatrix& M) {
  return blocks_of(M);
}
std::vector<std::vector<int>> decoupled_blocks(const SparseMatrix& M) {
  return blocks_of(M);
}

Vector gather(const Vector& v, const std::vector<int>& rows) {
  Vector out(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t a = 0; a < rows.size(); ++a) out(static_cast<Eigen::Index>(a)) = v(rows[a]);
  return out;
}

std::vector<int> restrict_indices(const std::vector<int>& set, const std::vector<int>& rows,
                                  std::vector<int>& position) {
  for (std::size_t a = 0; a < rows.size(); ++a)
    position[static_cast<std::size_t>(rows[a])] = static_cast<int>(a);
  std::vector<int> out;
  for (const int i : set)
    if (i >= 0 && static_cast<std::size_t>(i) < position.size() &&
        position[static_cast<std::size_t>(i)] >= 0)
      out.push_back(position[static_cast<std::size_t>(i)]);
  for (const int i : rows) position[static_cast<std::size_t>(i)] = -1;
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void add_block_answer(const std::vector<int>& rows, int block, const LcpResult& answer,
                      LcpResult& whole) {
  for (std::size_t a = 0; a < rows.size(); ++a) {
    const auto k = static_cast<Eigen::Index>(a);
    if (k < answer.z.size()) whole.z(rows[a]) = answer.z(k);
    if (k < answer.w.size()) whole.w(rows[a]) = answer.w(k);
  }
  for (const int a : answer.active_set)
    whole.active_set.push_back(rows[static_cast<std::size_t>(a)]);
  whole.pivots += answer.pivots;
  whole.crash_pivots += answer.crash_pivots;
  whole.refactorizations += answer.refactorizations;
  whole.check_seconds += answer.check_seconds;
  whole.attempt = std::max(whole.attempt, answer.attempt);
  whole.equilibrated = whole.equilibrated || answer.equilibrated;
  if (answer.path != StartPath::trivial) whole.path = answer.path;
  LcpResiduals& r = whole.residuals;
  r.min_z = std::min(r.min_z, answer.residuals.min_z);
  r.min_w = std::min(r.min_w, answer.residuals.min_w);
  r.max_complementarity = std::max(r.max_complementarity, answer.residuals.max_complementarity);
  r.rounding_share = std::max(r.rounding_share, answer.residuals.rounding_share);
  if (severity(answer.status) > severity(whole.status)) {
    whole.status = answer.status;
    whole.message = fmt::format("block {} ({} rows of the problem's decoupled blocks): {}", block,
                                rows.size(), answer.message);
  }
}

}  // namespace pivot::lcp::detail
