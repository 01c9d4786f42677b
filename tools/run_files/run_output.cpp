#include "run_files/run_output.hpp"

#include <fmt/core.h>
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"

namespace pivot::cli {

namespace fs = std::filesystem;

namespace {

/// the pid of a partial folder `.<name>.partial-<pid>` of `name`, or −1 for any other name
long partial_folder_pid(const std::string& entry, const std::string& name) {
  const std::string prefix = "." + name + ".partial-";
  if (entry.size() <= prefix.size() || entry.compare(0, prefix.size(), prefix) != 0) return -1;
  long pid = 0;
  for (std::size_t i = prefix.size(); i < entry.size(); ++i) {
    if (entry[i] < '0' || entry[i] > '9' || pid > 100000000L) return -1;
    pid = 10 * pid + (entry[i] - '0');
  }
  return pid;
}

/// removes the partial folders of `name` in `parent` left by runs that were killed: only those
/// whose process no longer exists (kill(pid, 0) fails with ESRCH), so a run still writing into
/// the same target is left alone

/// the names a run folder may hold: the outputs of pivot run and animate (stale_outputs), a
/// recorded live run's scene.json, pivot plot's plots/ folder (and SVGs it wrote beside the
/// files before), pivot render's run.mp4 and frame-T.png, --dump-failed-lcp's problems, and
/// hidden partial files and folders
bool is_run_file(const std::string& name) {
  static const char* const kNames[] = {"trajectory.csv", "metrics.csv",  "summary.json",
                                       "shapes.json",    "contacts.csv", "joints.csv",
                                       "animator.csv",   "replay.html",  "character.csv",
                                       "scene.json",     "sensors.csv",  "checkpoint.pivot"};
  for (const char* n : kNames)
    if (name == n) return true;
  if ((name.starts_with("metric-") || name.starts_with("body-") || name.starts_with("sensor-")) &&
      name.ends_with(".svg"))
    return true;
  if (name == "plots" || name == "run.mp4") return true;
  if (name.starts_with("frame-") && name.ends_with(".png")) return true;
  if (name.starts_with("failed-lcp-") && name.ends_with(".dat")) return true;  // --dump-failed-lcp
  return name.starts_with(".") && name.find(".partial-") != std::string::npos;
}

/// refuses an existing folder that holds anything but a run's files: `--out /` or `--out ~`
/// would write run files into it and replace or remove files of those names
void require_run_folder(const fs::path& target) {
  std::error_code ec;
  if (!fs::is_directory(target, ec)) return;
  fs::directory_iterator it(target, ec);
  if (ec)
    throw std::runtime_error(
        fmt::format("cannot read the folder {}: {}", target.string(), ec.message()));
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    if (!is_run_file(name))
      throw Error(fmt::format(
          "{}: the folder holds {}, which is not a run's file; a run is written into a new or "
          "empty folder, or over an earlier run (docs/cli.md)",
          target.string(), pivot::quoted(name)));
  }
}

}  // namespace

void remove_stale_partials(const fs::path& parent, const std::string& name) {
  std::error_code ec;
  fs::directory_iterator it(parent, ec);
  if (ec) return;
  for (const fs::directory_entry& entry : it) {
    const long pid = partial_folder_pid(entry.path().filename().string(), name);
    if (pid <= 0 || pid == static_cast<long>(::getpid())) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    fs::remove_all(entry.path(), ignored);
  }
}

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
  require_run_folder(target_);
  remove_stale_partials(parent, target_.filename().string());
  temp_ = parent / fmt::format(".{}.partial-{}", target_.filename().string(), ::getpid());
  fs::remove_all(temp_, ec);
  if (!fs::create_directory(temp_, ec) || ec)
    throw std::runtime_error(fmt::format("cannot create the folder {}: {}", temp_.string(),
                                         ec ? ec.message() : "it exists"));
}

OutputDir::OutputDir(fs::path target, InPlace) : target_(std::move(target)), in_place_(true) {
  if (!target_.has_filename()) target_ = target_.parent_path();
  std::error_code ec;
  if (fs::exists(target_, ec) && !fs::is_directory(target_, ec))
    throw std::runtime_error(fmt::format("{} exists and is not a folder", target_.string()));
  require_run_folder(target_);
  fs::create_directories(target_, ec);
  if (ec)
    throw std::runtime_error(
        fmt::format("cannot create the folder {}: {}", target_.string(), ec.message()));
  temp_ = target_;
}

OutputDir::~OutputDir() {
  if (committed_ || in_place_) return;
  std::error_code ec;
  fs::remove_all(temp_, ec);
}

void OutputDir::commit(const std::vector<std::string>& files,
                       const std::vector<std::string>& stale) {
  std::error_code ec;
  if (in_place_) {
    for (const std::string& name : stale)
      if (fs::is_regular_file(fs::symlink_status(target_ / name, ec)))
        fs::remove(target_ / name, ec);
    committed_ = true;
    return;
  }
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
  replace_files(files, stale);
  committed_ = true;
  fs::remove_all(temp_, ec);
}

// Replacing the files of an existing target as one transaction: first every name is checked
// (a folder or other non-file in the way is an error before anything moves); then the
// target's old files are moved aside into the temporary folder, the new ones renamed in, and
// the stale ones left aside. Any failure moves the new files back out and the old ones back
// in, so the target is as it was, and throws naming the file.
void OutputDir::replace_files(const std::vector<std::string>& files,
                              const std::vector<std::string>& stale) {
  std::vector<std::string> names = files;
  names.insert(names.end(), stale.begin(), stale.end());
  for (const std::string& name : names) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(target_ / name, ec);
    if (fs::exists(st) && !fs::is_regular_file(st) && !fs::is_symlink(st))
      throw std::runtime_error(
          fmt::format("cannot replace {}: it is not a file (a {} stands in the way); {} was "
                      "left as it was",
                      (target_ / name).string(), fs::is_directory(st) ? "folder" : "special file",
                      target_.string()));
  }
  const fs::path aside = temp_ / ".previous";
  std::error_code ec;
  fs::create_directory(aside, ec);
  if (ec)
    throw std::runtime_error(
        fmt::format("cannot create the folder {}: {}", aside.string(), ec.message()));
  std::vector<std::string> moved_aside, moved_in;
  auto roll_back = [&] {
    std::error_code ignored;
    for (const std::string& name : moved_in) fs::rename(target_ / name, temp_ / name, ignored);
    for (const std::string& name : moved_aside) fs::rename(aside / name, target_ / name, ignored);
  };
  for (const std::string& name : names) {
    if (!fs::exists(fs::symlink_status(target_ / name, ec))) continue;
    fs::rename(target_ / name, aside / name, ec);
    if (ec) {
      roll_back();
      throw std::runtime_error(fmt::format("cannot replace {}: {}; {} was left as it was",
                                           (target_ / name).string(), ec.message(),
                                           target_.string()));
    }
    moved_aside.push_back(name);
  }
  for (const std::string& name : files) {
    fs::rename(temp_ / name, target_ / name, ec);
    if (ec) {
      roll_back();
      throw std::runtime_error(fmt::format("cannot move {} into {}: {}; {} was left as it was",
                                           name, target_.string(), ec.message(), target_.string()));
    }
    moved_in.push_back(name);
  }
}

namespace {

// the OutputFiles open in this process, and the files the next ones continue (a resumed run)
std::mutex g_files_mutex;
std::vector<OutputFile*> g_open_files;
std::map<fs::path, OutputFile::Continued> g_continued;

}  // namespace

void OutputFile::continue_next(const fs::path& path, Continued c) {
  const std::lock_guard<std::mutex> lock(g_files_mutex);
  g_continued[path] = c;
}

OutputFile::OutputFile(const fs::path& path) : path_(path) {
  std::optional<Continued> continued;
  {
    const std::lock_guard<std::mutex> lock(g_files_mutex);
    if (auto it = g_continued.find(path); it != g_continued.end()) {
      continued = it->second;
      g_continued.erase(it);
    }
  }
  if (continued) {
    // the kept part stays; its header is read back to be checked against the writer's
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec || size < continued->bytes)
      throw std::runtime_error(
          fmt::format("cannot continue {}: it holds {} bytes, fewer than the {} of its checkpoint",
                      path.string(), ec ? 0 : size, continued->bytes));
    file_ = std::fopen(path.c_str(), "r+b");
    if (file_) {
      header_.resize(static_cast<std::size_t>(continued->header));
      if (std::fread(header_.data(), 1, header_.size(), file_) != header_.size() ||
          ::ftruncate(::fileno(file_), static_cast<off_t>(continued->bytes)) != 0 ||
          std::fseek(file_, 0, SEEK_END) != 0) {
        std::fclose(file_);
        file_ = nullptr;
      }
    }
  } else {
    file_ = std::fopen(path.c_str(), "wb");
  }
  if (!file_)
    throw std::runtime_error(
        fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  const std::lock_guard<std::mutex> lock(g_files_mutex);
  g_open_files.push_back(this);
}

OutputFile::~OutputFile() {
  {
    const std::lock_guard<std::mutex> lock(g_files_mutex);
    std::erase(g_open_files, this);
  }
  if (file_) std::fclose(file_);
}

void OutputFile::write(std::string_view text) {
  if (!header_.empty()) {
    // a continued file: its writer's header again, dropped once checked
    const std::size_t n = std::min(header_.size(), text.size());
    if (text.substr(0, n) != std::string_view(header_).substr(0, n))
      throw std::runtime_error(fmt::format(
          "cannot continue {}: its header differs from the resumed run's", path_.string()));
    header_.erase(0, n);
    text.remove_prefix(n);
  }
  if (text.empty()) return;
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
    const int error = errno;
    throw std::runtime_error(fmt::format("cannot write {}: {}", path_.string(),
                                         error != 0 ? std::strerror(error) : "write error"));
  }
}

std::vector<std::pair<std::string, std::uintmax_t>> OutputFile::sync_open_files(
    const fs::path& folder) {
  const std::lock_guard<std::mutex> lock(g_files_mutex);
  std::vector<std::pair<std::string, std::uintmax_t>> out;
  for (OutputFile* f : g_open_files) {
    if (!f->file_ || f->path_.parent_path() != folder) continue;
    errno = 0;
    const long at =
        std::fflush(f->file_) == 0 && ::fsync(::fileno(f->file_)) == 0 ? std::ftell(f->file_) : -1L;
    if (at < 0)
      throw std::runtime_error(
          fmt::format("cannot write {}: {}", f->path_.string(), std::strerror(errno)));
    out.emplace_back(f->path_.filename().string(), static_cast<std::uintmax_t>(at));
  }
  std::sort(out.begin(), out.end());
  return out;
}

void OutputFile::close() {
  if (!file_) return;
  const bool failed = std::ferror(file_) != 0;
  errno = 0;
  const int rc = std::fclose(file_);
  const int error = errno;
  file_ = nullptr;
  if (failed || rc != 0)
    throw std::runtime_error(fmt::format("cannot write {}: {}", path_.string(),
                                         error != 0 ? std::strerror(error) : "write error"));
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

std::vector<std::string> stale_outputs(const std::vector<std::string>& written) {
  static const char* const kOutputs[] = {"trajectory.csv", "metrics.csv",     "summary.json",
                                         "shapes.json",    "contacts.csv",    "joints.csv",
                                         "animator.csv",   "replay.html",     "character.csv",
                                         "sensors.csv",    "checkpoint.pivot"};
  std::vector<std::string> stale;
  for (const char* f : kOutputs)
    if (std::find(written.begin(), written.end(), f) == written.end()) stale.emplace_back(f);
  return stale;
}

nlohmann::ordered_json final_state_json(const World& world) {
  static const char* keys[13] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz",
                                 "vx", "vy", "vz", "wx", "wy", "wz"};
  nlohmann::ordered_json bodies = nlohmann::ordered_json::array();
  for (int i = 0; i < world.body_count(); ++i) {
    const auto s = body_state(world, i);
    nlohmann::ordered_json b;
    b["body"] = world.bodies().body(i).name;
    for (int k = 0; k < 13; ++k) b[keys[k]] = s[k];
    bodies.push_back(b);
  }
  return bodies;
}

void write_trajectory_rows(OutputFile& out, const World& world, double t) {
  for (int i = 0; i < world.body_count(); ++i) {
    const RigidBody& body = world.bodies().body(i);
    if (!body.moves()) continue;
    const auto s = body_state(world, i);
    out.print("{},{},{}\n", t, csv_field(body.name), fmt::join(s, ","));
  }
}

}  // namespace pivot::cli
