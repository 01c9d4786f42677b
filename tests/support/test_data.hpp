#pragma once

#include <filesystem>
#include <optional>
#include <vector>

namespace pivot::test {

/// The folder of the public LCP test problems (`../shared/data` beside the clone unless the
/// build was configured with -DPIVOT_SHARED_DATA_DIR=...), or nothing when it is absent.
/// The environment variable PIVOT_SHARED_DATA_DIR overrides the configured path.
std::optional<std::filesystem::path> shared_data_dir();

/// the problem files (*.dat) of a folder of the shared data, sorted; none when it is absent
std::vector<std::filesystem::path> dat_files(const std::filesystem::path& dir);

/// The source tree's scenes/ folder, as an absolute path fixed by the build (not derived from
/// __FILE__, which compiler caches may make relative).
std::filesystem::path source_scenes_dir();

}  // namespace pivot::test
