#pragma once
// Reading and writing LCP problem files in the Siconos numerics `.dat` text format
// (see ../shared/data/README.md): M is stored COLUMN-MAJOR, text line j is column j of M.
//
//   n
//   0            storage: 0 = dense
//   n
//   n
//   n <TAB> n
//   <n lines of n numbers: the columns of M>
//   <one line of n numbers: q>
//   <optional free text>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "pivot/core/error.hpp"
#include "pivot/lcp/lcp_problem.hpp"

namespace pivot::lcp {

/// read an LCP `.dat` file; throws Error (with file name, line, and what was expected)
[[nodiscard]] LcpProblem read_lcp_file(const std::filesystem::path& path);

/// write an LCP in the same format, with full double precision (round-trips exactly)
void write_lcp_file(const std::filesystem::path& path, const LcpProblem& problem,
                    const std::string& remark = {});

/// read a mixed LCP `.dat` file of the Siconos suite (../shared/data/mlcp/); throws Error
[[nodiscard]] MixedLcpProblem read_mixed_lcp_file(const std::filesystem::path& path);

}  // namespace pivot::lcp
