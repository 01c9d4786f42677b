#pragma once
// `pivot run --profile`: the run's time per stage of the step (RunTotals::stage_seconds), as a
// table on stdout and as the `profile` section of summary.json (docs/cli.md).

#include <cstdio>
#include <nlohmann/json.hpp>

#include "pivot/engine/world.hpp"

namespace pivot::cli {

/// the table: per stage the steps it ran in, its mean time per such step, its total time and
/// its share of the profiled steps' wall time
void print_profile(std::FILE* out, const World& world);

/// {"step_seconds": …, "threads": …, "stages": {"forces": {"steps", "mean_ms", "total_s",
/// "fraction"}, …}}
[[nodiscard]] nlohmann::ordered_json profile_json(const World& world);

}  // namespace pivot::cli
