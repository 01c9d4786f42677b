#include "pivot/core/bounded_file.hpp"

#include <array>
#include <fstream>
#include <system_error>

namespace pivot::detail {

FileRead read_at_most(const std::filesystem::path& file, std::size_t limit, std::string& text) {
  text.clear();
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) return FileRead::folder;
  std::ifstream in(file, std::ios::binary);
  if (!in) return FileRead::cannot_open;
  std::array<char, 1 << 16> chunk{};
  while (in && text.size() <= limit) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return FileRead::cannot_read;
  if (text.size() > limit) return FileRead::too_large;
  return FileRead::ok;
}

}  // namespace pivot::detail
