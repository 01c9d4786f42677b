#pragma once
// The decoupled blocks of an LCP (internal): index sets that no entry of M links.
//
// When the rows and columns of M split into sets B₁ … B_k with M_ij = 0 whenever i and j lie in
// different sets, w_B = M_BB z_B + q_B for each set alone, and (M, q) is k independent LCPs
// (M_BB, q_B): z solves (M, q) exactly when each z_B solves its block. Each block has its own
// scale, so an answer is judged block by block: beside one global ‖z‖∞, a block whose units
// make its z 10¹⁰ smaller than another's is measured by the other's rounding (docs/lcp.md,
// "Scaling"). The sets are the connected components of the graph on the indices with an edge
// i — j for every stored nonzero M_ij (M's pattern made symmetric), found by union-find in
// O(entries + n).

#include <vector>

#include "pivot/lcp/lcp_problem.hpp"
#include "pivot/lcp/lcp_result.hpp"

namespace pivot::lcp::detail {

/// the blocks of M (n × n): each block's indices ascending, blocks ordered by their smallest
/// index; one block holding 0 … n−1 when M does not split (and none for n = 0)
[[nodiscard]] std::vector<std::vector<int>> decoupled_blocks(const DenseMatrix& M);
[[nodiscard]] std::vector<std::vector<int>> decoupled_blocks(const SparseMatrix& M);

/// the entries of `v` at `rows`, in order
[[nodiscard]] Vector gather(const Vector& v, const std::vector<int>& rows);

/// the indices of `set` that lie in `rows` (ascending), renumbered as positions in `rows`;
/// `position` is scratch of size n, −1 everywhere on entry and on exit
[[nodiscard]] std::vector<int> restrict_indices(const std::vector<int>& set,
                                                const std::vector<int>& rows,
                                                std::vector<int>& position);

/// Adds the answer of the block at `rows` to the answer of the whole (sized n, z and w zero,
/// status solved before the first block): z and w scattered to `rows`, the active set mapped
/// back (appended: the caller sorts it once every block is in), counts and times summed, the
/// residual measures the worst of the blocks', `equilibrated` and the path kept when any block
/// needed them, and, when the block failed more tellingly than the blocks before it (invalid
/// input, then a failed check or budget, then a ray), its status and message, prefixed by the
/// block's index and size.
void add_block_answer(const std::vector<int>& rows, int block, const LcpResult& answer,
                      LcpResult& whole);

}  // namespace pivot::lcp::detail
