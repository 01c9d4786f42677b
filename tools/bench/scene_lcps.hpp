#pragma once
// The contact LCPs of Pivot's own steps, written as problem files (lcp/lcp_io.hpp) so that every
// LCP solver can be run on them: a scene is built in a World with record_lcps on, stepped, and
// at chosen steps each island's dynamics mixed LCP is reduced to the pure LCP that Lemke solves
// (lcp::reduce_mixed_lcp: 𝓜 = S − K P⁻¹ Q, q = v − K P⁻¹ u) and written.

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace pivot::bench {

/// Writes `pivot_<scene>_step<k>.dat` files into `dir` (created) for the benchmark scenes (the
/// incline, the rolling sphere, the 10-box stack, pyramids of 3 to 5 levels), at their first
/// step (fresh contacts) and once resting; returns the files written. Progress goes to `log`.
std::vector<std::filesystem::path> write_scene_lcps(const std::filesystem::path& dir,
                                                    std::ostream& log);

}  // namespace pivot::bench
