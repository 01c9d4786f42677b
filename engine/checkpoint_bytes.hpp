#pragma once
// The byte stream of a World checkpoint (internal; docs/checkpoints.md): little-endian
// fixed-width integers and the IEEE-754 bits of doubles, so a value read back is the value
// written, bit for bit. The reader throws pivot::Error naming what it was reading when the
// bytes run out or a count is impossible, never reading past the end.

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "pivot/core/error.hpp"

namespace pivot::detail {

/// FNV-1a 64 over bytes, continuing from `h` (the checkpoint's checksum and fingerprints)
[[nodiscard]] inline std::uint64_t fnv1a(std::string_view bytes,
                                         std::uint64_t h = 0xcbf29ce484222325ULL) {
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

class ByteWriter {
 public:
  void u64(std::uint64_t x) {
    for (int b = 0; b < 8; ++b) out_.push_back(static_cast<char>((x >> (8 * b)) & 0xffU));
  }
  void i64(std::int64_t x) { u64(static_cast<std::uint64_t>(x)); }
  void f64(double x) { u64(std::bit_cast<std::uint64_t>(x)); }
  void bytes(std::string_view s) { out_.append(s); }
  void text(std::string_view s) {
    u64(s.size());
    bytes(s);
  }
  [[nodiscard]] std::string& str() { return out_; }

 private:
  std::string out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}
  [[nodiscard]] std::uint64_t u64(const char* what) {
    need(8, what);
    std::uint64_t x = 0;
    for (int b = 0; b < 8; ++b)
      x |= static_cast<std::uint64_t>(static_cast<unsigned char>(in_[at_ + b])) << (8 * b);
    at_ += 8;
    return x;
  }
  [[nodiscard]] std::int64_t i64(const char* what) { return static_cast<std::int64_t>(u64(what)); }
  [[nodiscard]] double f64(const char* what) { return std::bit_cast<double>(u64(what)); }
  /// a count of items of at least `item_bytes` each: refused when the rest cannot hold them
  [[nodiscard]] std::size_t count(const char* what, std::size_t item_bytes) {
    const std::uint64_t n = u64(what);
    if (item_bytes > 0 && n > (in_.size() - at_) / item_bytes)
      throw Error(std::string("checkpoint: truncated or corrupt (") + what + " count " +
                  std::to_string(n) + " exceeds the remaining bytes)");
    return static_cast<std::size_t>(n);
  }
  [[nodiscard]] std::string_view bytes(std::size_t n, const char* what) {
    need(n, what);
    const std::string_view s = in_.substr(at_, n);
    at_ += n;
    return s;
  }
  /// a text written by ByteWriter::text
  [[nodiscard]] std::string text(const char* what) {
    return std::string(bytes(count(what, 1), what));
  }
  [[nodiscard]] std::size_t remaining() const { return in_.size() - at_; }

 private:
  void need(std::size_t n, const char* what) const {
    if (in_.size() - at_ < n)
      throw Error(std::string("checkpoint: truncated (the file ends inside ") + what + ")");
  }
  std::string_view in_;
  std::size_t at_ = 0;
};

}  // namespace pivot::detail
