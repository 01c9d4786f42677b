// `pivot run --checkpoint-every T` and `pivot run --resume DIR` (run_checkpoint.hpp). The file
// DIR/checkpoint.pivot, in the bytes of the World's checkpoints (checkpoint_bytes.hpp):
//
//   "PIVOTRUN" | u64 format version | the recipe, the schedule and the files (JSON text) |
//   the Simulation's checkpoint (text) | u64 checksum (FNV-1a 64 of every byte before it)

#include "run_files/run_checkpoint.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "pivot/core/error.hpp"
#include "pivot/engine/checkpoint_bytes.hpp"
#include "pivot/scenes/run_length.hpp"
#include "run_files/run_output.hpp"

namespace pivot::cli {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

constexpr std::string_view kMagic = "PIVOTRUN";
constexpr std::uint64_t kFormatVersion = 1;

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot read it: {}", file.string(), std::strerror(errno)));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ojson recipe_json(const RunRecipe& r) {
  ojson j;
  j["scene"] = r.scene;
  j["scene_hash"] = r.scene_hash;
  j["sets"] = r.sets;
  j["duration"] = r.duration ? ojson(*r.duration) : ojson();
  j["dt"] = r.dt ? ojson(*r.dt) : ojson();
  j["no_ground"] = r.no_ground;
  j["forces"] = r.forces;
  j["html"] = r.html;
  j["profile"] = r.profile;
  j["dump_failed_lcp"] = r.dump_failed_lcp;
  j["checkpoint_every"] = r.checkpoint_every;
  return j;
}

RunRecipe recipe_of(const ojson& j) {
  RunRecipe r;
  r.scene = j.at("scene").get<std::string>();
  r.scene_hash = j.at("scene_hash").get<std::uint64_t>();
  r.sets = j.at("sets").get<std::vector<std::string>>();
  if (!j.at("duration").is_null()) r.duration = j.at("duration").get<double>();
  if (!j.at("dt").is_null()) r.dt = j.at("dt").get<double>();
  r.no_ground = j.at("no_ground").get<bool>();
  r.forces = j.at("forces").get<bool>();
  r.html = j.at("html").get<bool>();
  r.profile = j.at("profile").get<bool>();
  r.dump_failed_lcp = j.at("dump_failed_lcp").get<std::string>();
  r.checkpoint_every = j.at("checkpoint_every").get<double>();
  if (!(r.checkpoint_every > 0.0) || !std::isfinite(r.checkpoint_every))
    throw Error("checkpoint_every is not a positive time");
  return r;
}

// FNV-1a 64 of the file's bytes [bytes − kTailBytes, bytes); 0 when it cannot be read so far
std::uint64_t tail_hash(const fs::path& file, std::uintmax_t bytes) {
  std::ifstream in(file, std::ios::binary);
  const std::uintmax_t from = bytes > kTailBytes ? bytes - kTailBytes : 0;
  std::string tail(static_cast<std::size_t>(bytes - from), '\0');
  if (!in.seekg(static_cast<std::streamoff>(from)) ||
      !in.read(tail.data(), static_cast<std::streamsize>(tail.size())))
    return 0;
  return detail::fnv1a(tail);
}

}  // namespace

fs::path checkpoint_path(const fs::path& dir) {
  return dir / "checkpoint.pivot";
}

std::uint64_t file_hash(const fs::path& file) {
  return detail::fnv1a(read_bytes(file));
}

RunCheckpoint read_run_checkpoint(const fs::path& dir) {
  const fs::path file = checkpoint_path(dir);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    throw Error(fmt::format("{}: no checkpoint there (a run of --checkpoint-every T writes it)",
                            file.string()));
  const std::string bytes = read_bytes(file);
  RunCheckpoint c;
  try {
    if (bytes.size() < kMagic.size() || std::string_view(bytes).substr(0, kMagic.size()) != kMagic)
      throw Error("not a Pivot run checkpoint (no PIVOTRUN magic at the start)");
    detail::ByteReader r(bytes);
    (void)r.bytes(kMagic.size(), "the magic");
    const std::uint64_t version = r.u64("the format version");
    if (version != kFormatVersion)
      throw Error(
          fmt::format("format version {} (this build reads version {})", version, kFormatVersion));
    if (bytes.size() < 8 + 8 + 8 ||
        detail::fnv1a(std::string_view(bytes).substr(0, bytes.size() - 8)) !=
            detail::ByteReader(std::string_view(bytes).substr(bytes.size() - 8))
                .u64("the checksum"))
      throw Error("truncated or corrupt (checksum mismatch)");
    const ojson j = ojson::parse(r.text("the run's recipe"));
    c.recipe = recipe_of(j.at("recipe"));
    c.next_time = j.at("next_time").get<double>();
    for (const ojson& f : j.at("files")) {
      CheckpointedFile cf{f.at("name").get<std::string>(), f.at("bytes").get<std::uintmax_t>(),
                          f.at("header").get<std::uintmax_t>(), f.at("tail").get<std::uint64_t>()};
      if (cf.name.empty() || cf.name.find('/') != std::string::npos || cf.name.starts_with(".") ||
          cf.header > cf.bytes)
        throw Error(fmt::format("corrupt (output file {})", pivot::quoted(cf.name)));
      c.files.push_back(std::move(cf));
    }
    c.simulation = r.text("the run's state");
    if (r.remaining() != 8) throw Error("corrupt (bytes left after the run's state)");
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{}: checkpoint: corrupt ({})", file.string(), e.what()));
  } catch (const Error& e) {
    const std::string what = e.what();
    throw Error(fmt::format("{}: {}{}", file.string(),
                            what.starts_with("checkpoint: ") ? "" : "checkpoint: ", what));
  }
  if (!c.recipe.scene.empty() && file_hash(c.recipe.scene) != c.recipe.scene_hash)
    throw Error(fmt::format("{}: the scene file {} changed since the checkpoint was written",
                            file.string(), c.recipe.scene));
  return c;
}

void resume_simulation(Simulation& sim, const Scene& scene, const RunCheckpoint& resumed,
                       const fs::path& dir) {
  try {
    sim.restore_checkpoint(resumed.simulation);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", checkpoint_path(dir).string(), e.what()));
  }
  const long total = steps_for_duration(scene.settings.duration, scene.settings.world.time_step);
  if (total < sim.position().steps)
    throw Error(fmt::format(
        "{}: the run's duration {:g} s ends before its checkpoint at step {} (t = {:g} s)",
        checkpoint_path(dir).string(), scene.settings.duration, sim.position().steps,
        run_time(sim.world())));
  sim.set_total_steps(total);
}

std::vector<std::string> with_checkpoint(std::vector<std::string> outputs) {
  outputs.push_back("checkpoint.pivot");
  return outputs;
}

RunCheckpointer::RunCheckpointer(RunRecipe recipe, fs::path dir, const RunCheckpoint* resumed)
    : recipe_(std::move(recipe)), dir_(std::move(dir)) {
  // a checkpoint write cut short by a kill leaves its temporary file: gone once its writer is
  remove_stale_partials(dir_, "checkpoint.pivot");
  next_time_ = recipe_.checkpoint_every;
  if (resumed) {
    next_time_ = resumed->next_time;
    for (const CheckpointedFile& f : resumed->files) headers_.emplace_back(f.name, f.header);
  }
}

void RunCheckpointer::continue_files(const RunCheckpoint& resumed) {
  for (const CheckpointedFile& f : resumed.files) {
    const fs::path path = dir_ / f.name;
    std::error_code ec;
    const std::uintmax_t size = fs::is_regular_file(path, ec) ? fs::file_size(path, ec) : 0;
    if (ec || !fs::is_regular_file(path, ec) || size < f.bytes)
      throw Error(fmt::format(
          "{}: cannot continue the run: it {} {} bytes, its checkpoint counts {}", path.string(),
          fs::exists(path, ec) ? "holds" : "is missing, not even", ec ? 0 : size, f.bytes));
    if (tail_hash(path, f.bytes) != f.tail)
      throw Error(fmt::format(
          "{}: cannot continue the run: its first {} bytes are not those of its checkpoint (a "
          "file of another run?)",
          path.string(), f.bytes));
  }
  for (const CheckpointedFile& f : resumed.files)
    OutputFile::continue_next(dir_ / f.name, {.bytes = f.bytes, .header = f.header});
  std::error_code ec;
  fs::remove(dir_ / "summary.json", ec);
}

void RunCheckpointer::start() {
  if (!headers_.empty()) return;  // a resumed run keeps its checkpoint's headers
  headers_ = OutputFile::sync_open_files(dir_);
  std::error_code ec;
  fs::remove(dir_ / "summary.json", ec);
  fs::remove(checkpoint_path(dir_), ec);
}

void RunCheckpointer::after_step(const Simulation& sim, double t, bool stopping) {
  if (stopping || t < next_time_) return;
  const double every = recipe_.checkpoint_every;
  next_time_ = (std::floor(t / every + 1e-9) + 1.0) * every;
  write(sim);
}

void RunCheckpointer::write(const Simulation& sim) {
  // the files first: the checkpoint counts only bytes that are on the disk
  const auto sizes = OutputFile::sync_open_files(dir_);
  ojson j;
  j["recipe"] = recipe_json(recipe_);
  j["next_time"] = next_time_;
  j["files"] = ojson::array();
  for (const auto& [name, bytes] : sizes) {
    std::uintmax_t header = 0;
    for (const auto& [n, h] : headers_)
      if (n == name) header = h;
    j["files"].push_back({{"name", name},
                          {"bytes", bytes},
                          {"header", header},
                          {"tail", tail_hash(dir_ / name, bytes)}});
  }
  detail::ByteWriter w;
  w.bytes(kMagic);
  w.u64(kFormatVersion);
  w.text(j.dump());
  w.text(sim.save_checkpoint());
  w.u64(detail::fnv1a(w.str()));

  const fs::path temp = dir_ / fmt::format(".checkpoint.pivot.partial-{}", ::getpid());
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  bool ok = f != nullptr;
  if (f) {
    ok = std::fwrite(w.str().data(), 1, w.str().size(), f) == w.str().size() &&
         std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
    ok = std::fclose(f) == 0 && ok;
  }
  const int error = errno;
  std::error_code ec;
  if (ok) fs::rename(temp, checkpoint_path(dir_), ec);
  if (!ok || ec) {
    fs::remove(temp, ec);
    throw std::runtime_error(fmt::format("cannot write {}: {}", checkpoint_path(dir_).string(),
                                         ok ? ec.message() : std::strerror(error)));
  }
}

}  // namespace pivot::cli
