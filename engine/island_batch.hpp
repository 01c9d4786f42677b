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

/// Islands with more than this many complementarity rows and no warm start get Lemke's crash
/// start (lcp::LemkeOptions::crash_rows = the unilateral rows: the frictionless problem first,
/// docs/step.md §3). Measured: a 13-level box pyramid's cold step takes 323 crash pivots and
/// none in Lemke (2216 Lemke pivots without it), and the 20-level one's is solved (a false ray
/// without it); on 5- to 10-level pyramids (m = 600–2400) it changes little (51 and 195 pivots
/// with it, 51 and 199 without). Smaller islands keep the standard
/// start: it is short there, and on the 10-box stack (m = 240) its basis held the warm start for
/// the whole 10 s where the crash's held for 8.3 s.
inline constexpr int kCrashStartRows = 256;
/// the crash rows for an island of m complementarity rows whose first nu are its unilateral
/// rows: 0 … nu − 1 when the crash start applies (above), else none
[[nodiscard]] std::vector<int> crash_rows(int m, int nu, bool warm_started);

struct IslandJob {
  const IslandInput* island = nullptr;
  lcp::LemkeOptions lemke;                       ///< with the island's warm start
  lcp::SparseMixedLcpProblem* record = nullptr;  ///< WorldSettings::record_lcps
  bool small_path = true;                        ///< WorldSettings::small_islands
};

/// the outputs in the order of the jobs, written over `out` (resized to the jobs): an island
/// answered by a small path keeps the memory of the answer it replaces. `on_failed` is called
/// under a lock when several threads run (in an order that depends on the threads: it must not
/// affect the step)
void solve_islands_batch(const ConstraintSet& rows, const std::vector<IslandJob>& jobs,
                         const FailedLcpCallback& on_failed, ThreadPool* pool,
                         std::vector<IslandOutput>& out);

}  // namespace pivot::detail
