#include "pivot/engine/step_report.hpp"

#include <algorithm>
#include <cmath>

namespace pivot {

const char* to_string(StepWarning kind) {
  switch (kind) {
    case StepWarning::nonfinite_forces:
      return "nonfinite_forces";
    case StepWarning::redundant_joint:
      return "redundant_joint";
    case StepWarning::island_lcp_failed:
      return "island_lcp_failed";
    case StepWarning::post_lcp_failed:
      return "post_lcp_failed";
    case StepWarning::hybrid_entry_failed:
      return "hybrid_entry_failed";
    case StepWarning::lcp_ray:
      return "lcp_ray";
    case StepWarning::hybrid_exit_failed:
      return "hybrid_exit_failed";
    case StepWarning::post_step_incomplete:
      return "post_step_incomplete";
    case StepWarning::nonfinite_state:
      return "nonfinite_state";
    case StepWarning::lcp_fallback:
      return "lcp_fallback";
  }
  return "unknown";
}

const char* to_string(StepStage stage) {
  switch (stage) {
    case StepStage::forces:
      return "forces";
    case StepStage::broad_phase:
      return "broad_phase";
    case StepStage::narrow_phase:
      return "narrow_phase";
    case StepStage::assembly:
      return "assembly";
    case StepStage::reduction:
      return "reduction";
    case StepStage::lemke:
      return "lemke";
    case StepStage::verification:
      return "verification";
    case StepStage::integration:
      return "integration";
    case StepStage::post_stabilization:
      return "post_stabilization";
    case StepStage::hybrid:
      return "hybrid";
  }
  return "unknown";
}

}  // namespace pivot

namespace pivot {

int reduced_step_bin(double dt) {
  if (!(dt > 0.0)) return 0;
  const int k = static_cast<int>(std::floor(std::log2(dt))) + kReducedStepBins;
  return std::clamp(k, 0, kReducedStepBins - 1);
}

double reduced_step_bin_start(int k) {
  return std::ldexp(1.0, k - kReducedStepBins);
}

}  // namespace pivot
