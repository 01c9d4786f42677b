#pragma once
// Reading a whole input file with a size limit (docs/limits.md: scenes, trajectories, BVH clips,
// meshes and actuator targets are at most 64 MiB each): at most limit + 1 bytes are read, so a
// larger file, or an endless one such as /dev/zero, is refused without reading it all. Each
// reader words its own messages from the outcome.

#include <cstddef>
#include <filesystem>
#include <string>

namespace pivot::detail {

enum class FileRead {
  ok,
  folder,       ///< the path is a folder
  cannot_open,  ///< missing or unreadable
  cannot_read,  ///< an I/O error while reading
  too_large     ///< more than `limit` bytes
};

/// reads `file` into `text` (binary, unchanged) when it holds at most `limit` bytes
[[nodiscard]] FileRead read_at_most(const std::filesystem::path& file, std::size_t limit,
                                    std::string& text);

}  // namespace pivot::detail
