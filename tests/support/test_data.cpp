#include "support/test_data.hpp"

#include <cstdlib>

namespace pivot::test {

std::optional<std::filesystem::path> shared_data_dir() {
  std::filesystem::path dir = PIVOT_SHARED_DATA_DIR;
  if (const char* env = std::getenv("PIVOT_SHARED_DATA_DIR")) dir = env;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  return std::filesystem::canonical(dir, ec);
}

std::filesystem::path source_scenes_dir() { return PIVOT_SOURCE_SCENES_DIR; }

}  // namespace pivot::test
