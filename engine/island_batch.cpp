// The islands of a step, solved independently: see island_batch.hpp.
#include "pivot/engine/island_batch.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <mutex>
#include <new>
#include <numeric>

#include "pivot/core/error.hpp"
#include "pivot/engine/contact_island.hpp"
#include "pivot/engine/island_assembly.hpp"
#include "pivot/engine/island_bounds.hpp"
#include "pivot/engine/small_island.hpp"
#include "pivot/engine/thread_pool.hpp"

namespace pivot::detail {
namespace {

// below this many rows in all, the islands are solved on the calling thread: waking the
// workers costs more than it saves
constexpr long kParallelRows = 96;

// the small paths write over `out` in its own memory; the general path makes a new answer
void solve_path(const ConstraintSet& rows, const IslandJob& job, const FailedLcpCallback& on_failed,
                IslandOutput& out) {
  // a recorded problem is the general path's sparse one
  if (job.small_path && !job.record) {
    if (fits_contact_island(rows, *job.island)) {
      if (solve_contact_island(rows, *job.island, job.lemke, out)) return;
    } else if (fits_small_island(rows, *job.island)) {
      if (solve_small_island(rows, *job.island, job.lemke, out)) return;
    }
  }
  out = solve_island(rows, *job.island, job.lemke, job.record, on_failed);
}

// the island's answer; a degenerate island (island_bounds.hpp) is reported unsolved, and memory
// running out is an error that names the island
void solve_one(const ConstraintSet& rows, const IslandJob& job, const FailedLcpCallback& on_failed,
               IslandOutput& out) {
  const IslandInput& in = *job.island;
  if (auto why = overlapping_island(rows, in)) {
    out = IslandOutput{};
    out.status = lcp::LcpStatus::invalid_input;
    out.lcp_size = island_lcp_size(rows, in);
    out.message = std::move(*why);
    return;
  }
  try {
    solve_path(rows, job, on_failed, out);
  } catch (const std::bad_alloc&) {
    throw Error(fmt::format(
        "out of memory solving an island of {} bodies with {} joint rows and {} contact and "
        "limit rows (body index {} first)",
        in.bodies.size(), in.equalities.size(), in.unilaterals.size(), in.bodies.front()));
  }
}

}  // namespace

std::vector<int> crash_rows(int m, int nu, bool warm_started) {
  std::vector<int> out;
  if (warm_started || m <= kCrashStartRows || nu <= 0 || nu >= m) return out;
  out.resize(static_cast<std::size_t>(nu));
  std::iota(out.begin(), out.end(), 0);
  return out;
}

void solve_islands_batch(const ConstraintSet& rows, const std::vector<IslandJob>& jobs,
                         const FailedLcpCallback& on_failed, ThreadPool* pool,
                         std::vector<IslandOutput>& out) {
  out.resize(jobs.size());
  long total = 0;
  for (const IslandJob& job : jobs) {
    const IslandInput& in = *job.island;
    total += static_cast<long>(in.equalities.size()) + island_lcp_size(rows, in);
  }
  if (!pool || pool->threads() < 2 || jobs.size() < 2 || total < kParallelRows) {
    for (std::size_t j = 0; j < jobs.size(); ++j) solve_one(rows, jobs[j], on_failed, out[j]);
    return;
  }
  std::vector<long> size(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const IslandInput& in = *jobs[j].island;
    size[j] = static_cast<long>(in.equalities.size()) + island_lcp_size(rows, in);
  }
  // the largest islands first, so that a long one does not start last
  std::vector<int> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return size[a] > size[b]; });
  std::mutex callback_mutex;
  FailedLcpCallback locked;
  if (on_failed)
    locked = [&](const FailedLcp& failed) {
      const std::lock_guard lock(callback_mutex);
      on_failed(failed);
    };
  pool->run(static_cast<int>(order.size()), [&](int task) {
    const int j = order[task];
    solve_one(rows, jobs[j], locked, out[j]);
  });
}

}  // namespace pivot::detail
