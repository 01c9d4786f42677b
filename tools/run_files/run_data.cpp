#include "run_files/run_data.hpp"

#include <fmt/core.h>

#include <Eigen/Geometry>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "run_files/csv_reader.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::array<const char*, 14> kFrameFields = {"t",  "x",  "y",  "z",  "qw", "qx", "qy",
                                                      "qz", "vx", "vy", "vz", "wx", "wy", "wz"};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) out.push_back(cell);
  return out;
}

double number(const std::string& text, const fs::path& file, std::size_t line) {
  const std::optional<double> v = read_number(text);
  if (!v)
    throw std::runtime_error(
        fmt::format("{}: line {}: expected a number (got \"{}\")", file.string(), line, text));
  return *v;
}

std::ifstream open(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot be read", file.string()));
  return in;
}

}  // namespace

std::vector<double> RunData::metric(const std::string& name) const {
  for (std::size_t c = 0; c < metric_columns.size(); ++c)
    if (metric_columns[c] == name) {
      std::vector<double> out;
      out.reserve(metrics.size());
      for (const auto& row : metrics) out.push_back(row[c]);
      return out;
    }
  throw std::runtime_error(fmt::format("metrics.csv has no column \"{}\"", name));
}

const std::vector<Frame>& RunData::body(const std::string& name) const {
  const auto it = frames.find(name);
  if (it == frames.end() || it->second.empty())
    throw std::runtime_error(fmt::format("trajectory.csv has no dynamic body \"{}\"", name));
  return it->second;
}

RunData read_run(const fs::path& dir) {
  RunData data;
  {
    const fs::path file = dir / "trajectory.csv";
    std::ifstream in = open(file);
    std::string line;
    std::getline(in, line);
    for (std::size_t n = 2; std::getline(in, line); ++n) {
      // the body name is the second cell; names with commas are quoted in the CSV
      std::vector<std::string> cells = split(line);
      if (cells.size() < 15)
        throw std::runtime_error(fmt::format("{}: line {}: too few columns", file.string(), n));
      std::string name = cells[1];
      std::size_t first = 2;
      if (!name.empty() && name.front() == '"') {
        while (name.size() < 2 || name.back() != '"') name += "," + cells[first++];
        name = name.substr(1, name.size() - 2);
      }
      Frame f{};
      f[0] = number(cells[0], file, n);
      for (std::size_t k = 0; k < 13; ++k) f[k + 1] = number(cells.at(first + k), file, n);
      data.frames[name].push_back(f);
    }
  }
  {
    const fs::path file = dir / "metrics.csv";
    std::ifstream in = open(file);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header = split(line);
    std::vector<std::size_t> numeric;
    for (std::size_t c = 0; c < header.size(); ++c)
      if (header[c] != "status") {
        numeric.push_back(c);
        data.metric_columns.push_back(header[c]);
      }
    for (std::size_t n = 2; std::getline(in, line); ++n) {
      const std::vector<std::string> cells = split(line);
      if (cells.size() != header.size())
        throw std::runtime_error(
            fmt::format("{}: line {}: expected {} columns", file.string(), n, header.size()));
      std::vector<double> row;
      for (std::size_t c : numeric) row.push_back(number(cells[c], file, n));
      data.metrics.push_back(std::move(row));
    }
  }
  if (fs::exists(dir / "sensors.csv")) data.sensors = read_sensor_table(dir / "sensors.csv");
  if (fs::exists(dir / "character.csv")) {
    const fs::path file = dir / "character.csv";
    std::ifstream in = open(file);
    std::string line;
    std::getline(in, line);
    for (std::size_t n = 2; std::getline(in, line); ++n) {
      const std::vector<std::string> cells = split(line);
      if (cells.size() != 2)
        throw std::runtime_error(fmt::format("{}: line {}: expected 2 columns", file.string(), n));
      data.character.push_back({number(cells[0], file, n), number(cells[1], file, n)});
    }
  }
  {
    const fs::path file = dir / "summary.json";
    std::ifstream in = open(file);
    try {
      data.summary = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error(fmt::format("{}: {}", file.string(), e.what()));
    }
  }
  return data;
}

double frame_field(const Frame& frame, const std::string& field) {
  for (std::size_t k = 0; k < kFrameFields.size(); ++k)
    if (field == kFrameFields[k]) return frame[k];
  if (field == "wx_body" || field == "wy_body" || field == "wz_body") {
    const Eigen::Quaterniond q(frame[4], frame[5], frame[6], frame[7]);
    const Eigen::Vector3d w(frame[11], frame[12], frame[13]);
    const Eigen::Vector3d wb = q.normalized().conjugate() * w;
    return wb[field[1] - 'x'];
  }
  throw std::runtime_error(fmt::format(
      "unknown trajectory field \"{}\" (t, x … wz, or wx_body, wy_body, wz_body)", field));
}

}  // namespace pivot::cli
