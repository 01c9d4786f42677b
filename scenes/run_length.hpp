#pragma once
// How many steps a run of a scene takes: the one rule, shared by `pivot run` and the Python
// module's pivot.run, so both end on the same step and the same final-state hash.

namespace pivot {

/// the first step count whose time n·h reaches `duration` (a count within 1e-9 relative of an
/// integer is that integer, so 1 s at h = 1 ms is 1000 steps, not 1001); at least 1. Throws
/// pivot::Error for a non-positive or non-finite duration or step, or more than 10¹² steps.
[[nodiscard]] long steps_for_duration(double duration, double h);

}  // namespace pivot
