// Fuzz target: the LCP and mixed LCP problem file readers on arbitrary bytes
// (lcp/lcp_io.hpp, docs/reliability.md).
//
// The bytes are written to a file of this process and read by both read_lcp_file and
// read_mixed_lcp_file. Contract: each returns a problem of consistent sizes or throws
// pivot::Error with a non-empty message; nothing else.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_support.hpp"
#include "pivot/core/error.hpp"
#include "pivot/lcp/lcp_io.hpp"

namespace {

const std::filesystem::path& scratch_file() {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("pivot-fuzz-lcp-" + std::to_string(::getpid()) + ".dat");
  return path;
}

template <typename Read, typename Check>
void read_one(const char* reader, Read read, Check check) {
  try {
    check(read(scratch_file()));
  } catch (const pivot::Error& e) {
    if (std::string(e.what()).empty())
      pivot::fuzz::finding(std::string(reader) + ": pivot::Error with an empty message");
  } catch (const std::exception& e) {
    pivot::fuzz::finding(std::string(reader) + " threw a non-pivot exception: " + e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(scratch_file(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  read_one("read_lcp_file", pivot::lcp::read_lcp_file, [](const pivot::lcp::LcpProblem& p) {
    if (p.M.rows() != p.M.cols() || p.M.rows() != p.q.size() || p.q.size() == 0)
      pivot::fuzz::finding("read_lcp_file returned inconsistent sizes");
  });
  read_one("read_mixed_lcp_file", pivot::lcp::read_mixed_lcp_file,
           [](const pivot::lcp::MixedLcpProblem& p) {
             const auto n = p.u.size();
             const auto m = p.v.size();
             const bool ok = p.P.rows() == n && p.P.cols() == n && p.Q.rows() == n &&
                             p.Q.cols() == m && p.K.rows() == m && p.K.cols() == n &&
                             p.S.rows() == m && p.S.cols() == m && n + m > 0;
             if (!ok) pivot::fuzz::finding("read_mixed_lcp_file returned inconsistent sizes");
           });
  return 0;
}
