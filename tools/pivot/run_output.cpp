#include "run_output.hpp"

#include <fmt/core.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "pivot/engine/world.hpp"

namespace pivot::cli {

namespace fs = std::filesystem;

OutputDir::OutputDir(fs::path target) : target_(std::move(target)) {
  // a trailing separator would leave an empty file name
  if (!target_.has_filename()) target_ = target_.parent_path();
  const fs::path parent = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec)
    throw std::runtime_error(
        fmt::format("cannot create the folder {}: {}", parent.string(), ec.message()));
  if (fs::exists(target_, ec) && !fs::is_directory(target_, ec))
    throw std::runtime_error(fmt::format("{} exists and is not a folder", target_.string()));
  temp_ = parent / fmt::format(".{}.partial-{}", target_.filename().string(), ::getpid());
  fs::remove_all(temp_, ec);
  if (!fs::create_directory(temp_, ec) || ec)
    throw std::runtime_error(fmt::format("cannot create the folder {}: {}", temp_.string(),
                                         ec ? ec.message() : "it exists"));
}

OutputDir::~OutputDir() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(temp_, ec);
}

void OutputDir::commit(const std::vector<std::string>& files,
                       const std::vector<std::string>& stale) {
  std::error_code ec;
  if (!fs::exists(target_, ec)) {
    fs::rename(temp_, target_, ec);
    if (!ec) {
      committed_ = true;
      return;
    }
    // the target appeared meanwhile: fall through to replacing its files
    if (!fs::is_directory(target_))
      throw std::runtime_error(
          fmt::format("cannot move {} to {}: {}", temp_.string(), target_.string(), ec.message()));
  }
  for (const std::string& name : files) {
    fs::rename(temp_ / name, target_ / name, ec);
    if (ec)
      throw std::runtime_error(
          fmt::format("cannot move {} into {}: {}", name, target_.string(), ec.message()));
  }
  for (const std::string& name : stale) fs::remove(target_ / name, ec);
  committed_ = true;
  fs::remove_all(temp_, ec);
}

OutputFile::OutputFile(const fs::path& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_)
    throw std::runtime_error(
        fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
}

void OutputFile::close() {
  if (!file_) return;
  const bool failed = std::ferror(file_) != 0;
  const int rc = std::fclose(file_);
  file_ = nullptr;
  if (failed || rc != 0) throw std::runtime_error(fmt::format("error writing {}", path_.string()));
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string xml_text(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

std::string slugify(std::string_view name) {
  std::string out;
  bool dash = false;
  for (const char c : name) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    const bool upper = c >= 'A' && c <= 'Z';
    if (alnum || upper) {
      if (dash && !out.empty()) out += '-';
      out += upper ? static_cast<char>(c - 'A' + 'a') : c;
      dash = false;
    } else {
      dash = true;
    }
  }
  return out.empty() ? "scene" : out;
}

std::array<double, 13> body_state(const World& world, int i) {
  const Pose p = world.pose(i);
  const Twist V = world.twist(i);
  return {p.p_WB.x(), p.p_WB.y(), p.p_WB.z(), p.q_WB.w(), p.q_WB.x(), p.q_WB.y(), p.q_WB.z(),
          V.v().x(),  V.v().y(),  V.v().z(),  V.w().x(),  V.w().y(),  V.w().z()};
}

void write_trajectory_rows(std::FILE* out, const World& world, double t) {
  for (int i = 0; i < world.body_count(); ++i) {
    const RigidBody& body = world.bodies().body(i);
    if (body.fixed && !body.kinematic) continue;
    const auto s = body_state(world, i);
    fmt::print(out, "{},{},{}\n", t, csv_field(body.name), fmt::join(s, ","));
  }
}

}  // namespace pivot::cli
