#pragma once
// How many steps a run of a scene takes, and the time its outputs carry: the one rule, shared by
// `pivot run` and the Python module's pivot.run, so both end on the same step and hash.

namespace pivot {

/// the first step count whose time n·h reaches `duration` (a count within 1e-9 relative of an
/// integer is that integer, so 1 s at h = 1 ms is 1000 steps, not 1001); at least 1. Throws
/// pivot::Error for a non-positive or non-finite duration or step, a step longer than the
/// duration, or more than 10¹² steps.
[[nodiscard]] long steps_for_duration(double duration, double h);

/// The time of a run's outputs after `steps` steps of h, s: the double nearest the decimal k·h
/// when h is a decimal with at most 17 digits after the point (h = m / 10^d exactly; then
/// t = (k m) / 10^d, one rounding), else k·h. So 1250 steps of 1 ms are written 1.25, where
/// the World's clock, a running sum of h (which the hybrid mode's integrator works from), reads
/// 1.2499999999999731.
[[nodiscard]] double step_time(long steps, double h);

}  // namespace pivot
