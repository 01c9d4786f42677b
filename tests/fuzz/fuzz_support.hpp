#pragma once
// Shared pieces of the fuzz targets (docs/reliability.md): a reader that decodes the fuzzer's
// bytes into bounded values, and the one way a target reports a finding.
//
// Every target defines LLVMFuzzerTestOneInput. Built with clang and -fsanitize=fuzzer (the
// `fuzz` preset) it is a libFuzzer binary; built with the normal compiler and replay_main.cpp
// it is a replay driver that runs committed inputs as an ordinary CTest test. A finding is an
// abort (with a message on stderr), which both libFuzzer and CTest report.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace pivot::fuzz {

/// reports a finding and aborts: libFuzzer saves the input as a crash, the replay driver fails
[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "FUZZ FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

/// Decodes the fuzzer's bytes front to back; past the end every read gives 0, so any input,
/// however short, decodes to a complete (if dull) case.
class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  /// an integer in [0, n)
  int below(int n) { return static_cast<int>(byte() % n); }
  bool flag() { return (byte() & 1u) != 0; }
  /// a signed 16-bit integer, little-endian
  int int16() {
    const int lo = byte();
    const int hi = byte();
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(lo | (hi << 8)));
  }
  /// a value in [−128, 128) with resolution 1/256
  double unit_ish() { return int16() / 256.0; }
  /// a value in [lo, hi] (linear)
  double uniform(double lo, double hi) { return lo + (hi - lo) * (byte() / 255.0); }
  /// 10^e for e uniform in [lo_exp, hi_exp] (a positive magnitude spanning decades)
  double magnitude(double lo_exp, double hi_exp) {
    return std::pow(10.0, uniform(lo_exp, hi_exp));
  }
  [[nodiscard]] bool exhausted() const { return pos_ >= size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace pivot::fuzz
