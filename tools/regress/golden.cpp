#include "regress/golden.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "pivot/version.hpp"

namespace pivot::cli {
namespace {

using json = nlohmann::json;

std::map<std::string, double> quantities(const json& summary) {
  std::map<std::string, double> q;
  static const char* fields[] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz",
                                 "vx", "vy", "vz", "wx", "wy", "wz"};
  for (const json& b : summary.at("final_state"))
    for (const char* f : fields)
      q["final/" + b.at("body").get<std::string>() + "/" + f] = b.at(f).get<double>();
  q["energy/final"] = summary.at("energy").at("final").at("total").get<double>();
  q["max_joint_error"] = summary.at("max_joint_error").get<double>();
  q["max_penetration"] = summary.at("max_penetration").get<double>();
  q["lcp/pivots"] = summary.at("lcp").at("pivots").get<double>();
  q["lcp/failures"] = summary.at("lcp").at("failures").get<double>();
  q["steps"] = summary.at("steps").get<double>();
  return q;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

nlohmann::ordered_json make_golden(const std::string& scene_file, const json& summary) {
  nlohmann::ordered_json g;
  g["scene"] = scene_file;
  g["recorded_with"] = std::string("pivot ") + kVersion;
  nlohmann::ordered_json q = nlohmann::ordered_json::object();
  for (const auto& [key, value] : quantities(summary)) q[key] = value;
  g["quantities"] = q;
  return g;
}

double golden_tolerance(const std::string& key, double golden_value) {
  if (key.rfind("final/", 0) == 0) {
    for (const char* f : {"/x", "/y", "/z"})
      if (ends_with(key, f)) return 1e-6;  // m
    for (const char* f : {"/qw", "/qx", "/qy", "/qz"})
      if (ends_with(key, f)) return 1e-6;
    for (const char* f : {"/vx", "/vy", "/vz"})
      if (ends_with(key, f)) return 1e-5;  // m/s
    return 1e-4;                           // rad/s
  }
  if (key == "energy/final") return 1e-6 * std::max(1.0, std::abs(golden_value));  // J
  if (key == "max_joint_error" || key == "max_penetration")
    return 1e-8 + 0.1 * std::abs(golden_value);
  if (key == "lcp/pivots") return 10.0 + 0.25 * std::abs(golden_value);
  return 0.0;  // lcp/failures, steps: exact
}

std::vector<GoldenDiff> compare_golden(const json& golden, const json& summary) {
  std::vector<GoldenDiff> out;
  const auto run = quantities(summary);
  const json& stored = golden.at("quantities");
  for (const auto& item : stored.items()) {
    GoldenDiff d;
    d.key = item.key();
    d.golden = item.value().get<double>();
    d.tolerance = golden_tolerance(d.key, d.golden);
    const auto it = run.find(d.key);
    if (it == run.end()) {
      d.note = "missing in the run";
    } else {
      d.measured = it->second;
      d.pass = std::isfinite(d.measured) && std::abs(d.measured - d.golden) <= d.tolerance;
    }
    out.push_back(d);
  }
  for (const auto& [key, value] : run)
    if (!stored.contains(key)) {
      GoldenDiff d;
      d.key = key;
      d.measured = value;
      d.note = "not in the golden (re-record it)";
      out.push_back(d);
    }
  return out;
}

}  // namespace pivot::cli
