#include "pivot/lcp/lcp_result.hpp"

#include <algorithm>
#include <limits>

#include "pivot/lcp/solve_policy.hpp"

namespace pivot::lcp {

const char* to_string(LcpStatus status) {
  switch (status) {
    case LcpStatus::solved:
      return "solved";
    case LcpStatus::ray_termination:
      return "ray_termination";
    case LcpStatus::pivot_limit:
      return "pivot_limit";
    case LcpStatus::numerical_failure:
      return "numerical_failure";
    case LcpStatus::invalid_input:
      return "invalid_input";
  }
  return "unknown";
}

const char* to_string(StartPath path) {
  switch (path) {
    case StartPath::trivial:
      return "trivial";
    case StartPath::warm_start:
      return "warm_start";
    case StartPath::lemke:
      return "lemke";
    case StartPath::warm_lemke:
      return "warm_lemke";
  }
  return "unknown";
}

double LcpResiduals::worst() const {
  if (!verifiable()) return std::numeric_limits<double>::infinity();
  return std::max({-min_z, -min_w, max_complementarity});
}

bool LcpResiduals::verifiable() const {
  return rounding_share <= kMaxRoundingShare;
}

const char* attempt_name(const LcpResult& result) {
  if (result.attempt < 0 || result.attempt >= static_cast<int>(detail::kLemkeAttempts.size()))
    return "none";
  return detail::kLemkeAttempts[static_cast<std::size_t>(result.attempt)].name;
}

}  // namespace pivot::lcp
