#pragma once
// The islands of one step (or one post-step), solved independently of each other (internal):
// each by the small-island path when it fits (small_island.hpp) and otherwise, or when that
// path declines, by the general one (island_solver.hpp); on the World's threads when there are
// several islands and enough work (WorldSettings::threads). Each island's answer depends on
// that island alone, so the outputs are the same for any thread count.

#include <vector>

#include "pivot/engine/constraint_set.hpp"
#include "pivot/engine/failed_lcp.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/lcp/lemke.hpp"

namespace pivot::detail {

class ThreadPool;

struct IslandJob {
  const IslandInput* island = nullptr;
  lcp::LemkeOptions lemke;                       ///< with the island's warm start
  lcp::SparseMixedLcpProblem* record = nullptr;  ///< WorldSettings::record_lcps
  bool small_path = true;                        ///< WorldSettings::small_islands
};

/// the outputs in the order of the jobs; `on_failed` is called under a lock when several
/// threads run (in an order that depends on the threads: it must not affect the step)
[[nodiscard]] std::vector<IslandOutput> solve_islands_batch(const ConstraintSet& rows,
                                                            const std::vector<IslandJob>& jobs,
                                                            const FailedLcpCallback& on_failed,
                                                            ThreadPool* pool);

}  // namespace pivot::detail
