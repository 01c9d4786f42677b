#pragma once
// A fresh folder under the system's temporary folder for one test, removed at its end.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

namespace pivot::test {

struct TempDir {
  std::filesystem::path path;
  /// <temp>/pivot-test-TAG-PID, emptied first
  explicit TempDir(const std::string& tag) {
    path = std::filesystem::temp_directory_path() /
           ("pivot-test-" + tag + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// writes `text` to path/name (its folders made as needed) and returns that file's path
  std::filesystem::path write(const std::string& name, std::string_view text) const {
    const std::filesystem::path file = path / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }
};

}  // namespace pivot::test
