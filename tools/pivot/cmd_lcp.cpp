// pivot lcp FILE [--json] [--z] [--mixed] [--max-pivots N]
//
// Reads an LCP (or mixed LCP) problem file, solves it with Lemke's method, and reports the
// status, the size, the pivots, the start path, the wall time and the residuals of the answer.
// Exit codes: 0 solved, 1 not solved (ray termination, pivot limit, numerical failure),
// 2 invalid input (unreadable or malformed file: one line "pivot: error: FILE:LINE: what" on
// stderr).
#include <fmt/core.h>
#include <fmt/format.h>

#include <chrono>
#include <exception>
#include <filesystem>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/lcp_result.hpp"
#include "pivot/lcp/lemke.hpp"
#include "pivot/lcp/mixed_lcp.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;  // keeps the fields in the order written

struct LcpArgs {
  std::string file;
  bool json = false;
  bool print_z = false;
  bool mixed = false;
  int max_pivots = 0;
};

/// the problem is a mixed LCP when asked for, or when its folder is named "mlcp"
bool looks_mixed(const fs::path& file) {
  std::error_code ec;
  fs::path absolute = fs::absolute(file, ec);
  if (ec) absolute = file;
  return absolute.lexically_normal().parent_path().filename() == "mlcp";
}

std::vector<double> to_std(const Eigen::VectorXd& v) {
  return {v.data(), v.data() + v.size()};
}

std::string join(const Eigen::VectorXd& v) {
  std::string out;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    fmt::format_to(std::back_inserter(out), "{}{:.17g}", i ? " " : "", v(i));
  return out;
}

/// everything the report shows, for both problem kinds
struct Report {
  std::string file;
  std::string name;
  bool mixed = false;
  long n = 0;       // size of the LCP that was pivoted on (m for a mixed problem)
  long n_free = 0;  // mixed only: the free variables
  double time_ms = 0.0;
  const lcp::LcpResult* result = nullptr;
  const lcp::MixedLcpResult* mixed_result = nullptr;
};

/// −0 prints as 0
double clean(double x) {
  return x + 0.0;
}

void print_text(const Report& r, bool print_z) {
  const auto& res = *r.result;
  fmt::print("file:       {}\n", r.file);
  if (r.mixed)
    fmt::print("problem:    {} (mixed LCP: {} free, n = {} complementarity rows)\n", r.name,
               r.n_free, r.n);
  else
    fmt::print("problem:    {} (LCP, n = {})\n", r.name, r.n);
  fmt::print("status:     {}\n", lcp::to_string(res.status));
  if (!res.message.empty()) fmt::print("message:    {}\n", res.message);
  fmt::print("n:          {}\n", r.n);
  fmt::print("pivots:     {}\n", res.pivots);
  fmt::print("path:       {}\n", lcp::to_string(res.path));
  fmt::print("attempt:    {}\n", lcp::attempt_name(res));
  fmt::print("time:       {:.3f} ms\n", r.time_ms);
  fmt::print(
      "residuals:  min_z = {:.3g}, min_w = {:.3g}, complementarity = {:.3g} (worst {:.3g})\n",
      clean(res.residuals.min_z), clean(res.residuals.min_w),
      clean(res.residuals.max_complementarity), clean(res.residuals.worst()));
  if (r.mixed) {
    const auto& mr = *r.mixed_result;
    fmt::print("free rows:  residual {:.3g}{}\n", clean(mr.free_residual),
               mr.regularized ? " (regularized P)" : "");
    if (!mr.singular_rows.empty())
      fmt::print("singular:   rows {} of P\n", fmt::join(mr.singular_rows, " "));
  }
  if (print_z) {
    fmt::print("z:          {}\n", join(res.z));
    if (r.mixed) fmt::print("x:          {}\n", join(r.mixed_result->x));
  }
}

void print_json(const Report& r, bool print_z) {
  const auto& res = *r.result;
  json out;
  out["file"] = r.file;
  out["name"] = r.name;
  out["type"] = r.mixed ? "mixed" : "lcp";
  out["status"] = lcp::to_string(res.status);
  out["n"] = r.n;
  out["pivots"] = res.pivots;
  out["path"] = lcp::to_string(res.path);
  out["attempt"] = lcp::attempt_name(res);
  out["time_ms"] = r.time_ms;
  out["residuals"] = {{"min_z", clean(res.residuals.min_z)},
                      {"min_w", clean(res.residuals.min_w)},
                      {"max_complementarity", clean(res.residuals.max_complementarity)},
                      {"rounding_share", clean(res.residuals.rounding_share)},
                      {"worst", clean(res.residuals.worst())}};
  if (!res.message.empty()) out["message"] = res.message;
  if (r.mixed) {
    const auto& mr = *r.mixed_result;
    out["n_free"] = r.n_free;
    out["free_residual"] = clean(mr.free_residual);
    out["regularized"] = mr.regularized;
    out["singular_rows"] = mr.singular_rows;
  }
  if (print_z) {
    out["z"] = to_std(res.z);
    if (r.mixed) out["x"] = to_std(r.mixed_result->x);
  }
  fmt::print("{}\n", out.dump());
}

int exit_code(lcp::LcpStatus status) {
  switch (status) {
    case lcp::LcpStatus::solved:
      return 0;
    case lcp::LcpStatus::invalid_input:
      return 2;
    default:
      return 1;
  }
}

int run_lcp(const LcpArgs& args) {
  const fs::path file = args.file;
  try {
    const bool mixed = args.mixed || looks_mixed(file);
    Report report;
    report.file = args.file;
    report.mixed = mixed;
    using clock = std::chrono::steady_clock;

    if (mixed) {
      const lcp::MixedLcpProblem problem = lcp::read_mixed_lcp_file(file);
      lcp::MixedLcpOptions options;
      options.lemke.max_pivots = args.max_pivots;
      const auto start = clock::now();
      const lcp::MixedLcpResult result = lcp::solve_mixed_lcp(problem, options);
      report.time_ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
      report.name = problem.name;
      report.n = static_cast<long>(problem.S.rows());
      report.n_free = static_cast<long>(problem.P.rows());
      report.result = &result.lcp;
      report.mixed_result = &result;
      args.json ? print_json(report, args.print_z) : print_text(report, args.print_z);
      return exit_code(result.lcp.status);
    }

    const lcp::LcpProblem problem = lcp::read_lcp_file(file);
    lcp::LemkeOptions options;
    options.max_pivots = args.max_pivots;
    const auto start = clock::now();
    const lcp::LcpResult result = lcp::solve_lemke(problem, options);
    report.time_ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
    report.name = problem.name;
    report.n = static_cast<long>(problem.M.rows());
    report.result = &result;
    args.json ? print_json(report, args.print_z) : print_text(report, args.print_z);
    return exit_code(result.status);
  } catch (const Error& e) {
    fmt::print(stderr, "pivot: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "pivot: error: {}: internal error: {}\n", args.file, e.what());
    return 1;
  } catch (...) {
    fmt::print(stderr, "pivot: error: {}: internal error (unknown exception)\n", args.file);
    return 1;
  }
}

}  // namespace

void register_lcp(CLI::App& app, Registry& registry) {
  auto args = std::make_shared<LcpArgs>();
  auto* sub = app.add_subcommand(
      "lcp", "solve an LCP or mixed LCP problem file (.dat) with Lemke's method");
  sub->add_option("file", args->file, "the problem file (Siconos .dat format)")->required();
  sub->add_flag("--json", args->json, "print one JSON object instead of text");
  sub->add_flag("--z", args->print_z, "print the solution z (and x for a mixed LCP)");
  sub->add_flag("--mixed", args->mixed,
                "read a mixed LCP (the default for files in a folder named \"mlcp\")");
  sub->add_option("--max-pivots", args->max_pivots, "pivot budget (0: automatic, 100 n + 1000)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  registry.actions.emplace_back(sub, [args] { return run_lcp(*args); });
}

}  // namespace pivot::cli
