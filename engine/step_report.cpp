#include "pivot/engine/step_report.hpp"

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
  }
  return "unknown";
}

}  // namespace pivot
