#pragma once
// A hook for island LCPs that fail: WorldSettings::on_failed_lcp is called with the problem as
// assembled and the solver's result, before the documented fallback (island_solver.hpp,
// IslandLayer::copositive_fallback) takes over. The library itself writes nothing and reads no
// environment: a caller that wants the problems on disk (`pivot run --dump-failed-lcp DIR`)
// writes them from the callback, e.g. as lcp::reduce_mixed_lcp(problem) in a problem file.

#include <functional>

#include "pivot/lcp/lcp_problem.hpp"
#include "pivot/lcp/mixed_lcp.hpp"

namespace pivot {

/// what the callback receives; the references are valid during the call only
struct FailedLcp {
  const lcp::SparseMixedLcpProblem& problem;  ///< the island's mixed LCP, as assembled
  /// the options it was solved with; `regularization` is non-empty when the joint block was
  /// singular and regularized (such a problem has no pure-LCP reduction without it)
  const lcp::MixedLcpOptions& options;
  const lcp::MixedLcpResult& result;  ///< the failed result: status, pivots, message
};

/// called on the stepping thread, once per failed island LCP (dynamics or post-stabilization)
using FailedLcpCallback = std::function<void(const FailedLcp&)>;

}  // namespace pivot
