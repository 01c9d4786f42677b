#include "support/test_data.hpp"

#include <algorithm>
#include <cstdlib>

namespace pivot::test {

std::optional<std::filesystem::path> shared_data_dir() {
  std::filesystem::path dir = PIVOT_SHARED_DATA_DIR;
  if (const char* env = std::getenv("PIVOT_SHARED_DATA_DIR")) dir = env;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  return std::filesystem::canonical(dir, ec);
}

std::filesystem::path source_scenes_dir() {
  return PIVOT_SOURCE_SCENES_DIR;
}

std::vector<std::filesystem::path> dat_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".dat")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace pivot::test
