#include "replay/replay_data.hpp"

#include <fmt/core.h>

#include <cmath>
#include <fstream>
#include <map>

#include "pivot/core/error.hpp"
#include "run_files/csv_reader.hpp"
#include "run_files/run_forces.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

constexpr const char* kTrajectoryHeader = "t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";

ojson read_json(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string(), "", "cannot be read (is the run folder complete?)");
  try {
    return ojson::parse(in);
  } catch (const ojson::exception& e) {
    throw Error(file.string(), "", fmt::format("not valid JSON: {}", e.what()));
  }
}

/// checks of shapes.json, each error naming the JSON pointer
class ShapeChecks {
 public:
  explicit ShapeChecks(fs::path file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw Error(file_.string(), pointer, what);
  }
  const ojson& key(const ojson& object, const char* name, const std::string& pointer) const {
    if (!object.is_object()) fail(pointer, "expected an object");
    const auto it = object.find(name);
    if (it == object.end()) fail(pointer, fmt::format("missing key \"{}\"", name));
    return *it;
  }
  /// an array of finite numbers of length `size` (0: any multiple of `multiple`)
  void numbers(const ojson& v, const std::string& pointer, std::size_t size,
               std::size_t multiple = 1) const {
    if (!v.is_array()) fail(pointer, "expected an array of numbers");
    if (size > 0 ? v.size() != size : v.size() % multiple != 0)
      fail(pointer, size > 0 ? fmt::format("expected {} numbers (got {})", size, v.size())
                             : fmt::format("expected a multiple of {} numbers", multiple));
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!v[i].is_number() || !std::isfinite(v[i].get<double>()))
        fail(fmt::format("{}/{}", pointer, i), "expected a finite number");
  }
  /// vertices (x, y, z each) and triangles (3 indices into them each)
  void mesh(const ojson& object, const std::string& pointer) const {
    const ojson& vertices = key(object, "vertices", pointer);
    numbers(vertices, pointer + "/vertices", 0, 3);
    const ojson& triangles = key(object, "triangles", pointer);
    if (!triangles.is_array() || triangles.size() % 3 != 0)
      fail(pointer + "/triangles", "expected an array of 3 indices per triangle");
    for (std::size_t i = 0; i < triangles.size(); ++i)
      if (!triangles[i].is_number_integer() || triangles[i].get<long>() < 0 ||
          triangles[i].get<std::size_t>() >= vertices.size() / 3)
        fail(fmt::format("{}/triangles/{}", pointer, i), "expected a vertex index");
  }
  void part(const ojson& p, const std::string& pointer) const {
    const ojson& type = key(p, "type", pointer);
    numbers(key(p, "position", pointer), pointer + "/position", 3);
    numbers(key(p, "quat_wxyz", pointer), pointer + "/quat_wxyz", 4);
    const std::string t = type.is_string() ? type.get<std::string>() : "";
    const auto positive = [&](const char* name) {
      const ojson& v = key(p, name, pointer);
      if (!v.is_number() || !(v.get<double>() >= 0.0) || !std::isfinite(v.get<double>()))
        fail(pointer + "/" + name, "expected a number >= 0");
    };
    if (t == "sphere") {
      positive("radius");
    } else if (t == "box") {
      numbers(key(p, "half_extents", pointer), pointer + "/half_extents", 3);
    } else if (t == "capsule" || t == "cylinder") {
      positive("radius");
      positive("half_length");
    } else if (t == "ellipsoid") {
      numbers(key(p, "radii", pointer), pointer + "/radii", 3);
    } else if (t == "convex") {
      numbers(key(p, "points", pointer), pointer + "/points", 0, 3);
    } else if (t == "plane") {
      numbers(key(p, "normal", pointer), pointer + "/normal", 3);
      numbers(ojson::array({key(p, "offset", pointer)}), pointer + "/offset", 1);
    } else if (t == "mesh") {
      mesh(p, pointer);
    } else {
      fail(pointer + "/type", fmt::format("unknown part type {}", type.dump()));
    }
  }
  void check(const ojson& shapes) const {
    const ojson& bodies = key(shapes, "bodies", "(document)");
    if (!bodies.is_array()) fail("/bodies", "expected an array");
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const std::string b = fmt::format("/bodies/{}", i);
      if (!key(bodies[i], "name", b).is_string()) fail(b + "/name", "expected a string");
      if (!key(bodies[i], "fixed", b).is_boolean()) fail(b + "/fixed", "expected true or false");
      numbers(key(bodies[i], "position", b), b + "/position", 3);
      numbers(key(bodies[i], "quat_wxyz", b), b + "/quat_wxyz", 4);
      const ojson& parts = key(bodies[i], "parts", b);
      if (!parts.is_array()) fail(b + "/parts", "expected an array");
      for (std::size_t k = 0; k < parts.size(); ++k)
        part(parts[k], fmt::format("{}/parts/{}", b, k));
      const ojson& surface = key(bodies[i], "surface", b);
      if (!surface.is_null()) mesh(surface, b + "/surface");
    }
  }

 private:
  fs::path file_;
};

void read_trajectory(const fs::path& file, const std::map<std::string, int>& body_index,
                     ReplayRun& run) {
  CsvReader csv(file, kTrajectoryHeader);
  bool first_frame = true;  // the first frame's rows name the dynamic bodies and their order
  std::size_t slot = 0;     // position of the current row in its frame
  while (csv.next()) {
    const double t = csv.number(0);
    const auto it = body_index.find(csv.text(1));
    if (it == body_index.end())
      csv.fail(fmt::format("body \"{}\" is not a body of shapes.json", csv.text(1)));
    if (run.times.empty()) run.times.push_back(t);
    if (first_frame && t == run.times.front()) {
      for (const int b : run.dynamic)
        if (b == it->second) csv.fail(fmt::format("body \"{}\" twice in a frame", csv.text(1)));
      run.dynamic.push_back(it->second);
    } else {
      if (first_frame || slot == run.dynamic.size()) {
        first_frame = false;
        slot = 0;
        if (!(t > run.times.back()))
          csv.fail(fmt::format("t = {} does not follow the previous frame's t = {}", t,
                               run.times.back()));
        run.times.push_back(t);
      } else if (t != run.times.back()) {
        csv.fail(fmt::format("the frame at t = {} lists {} of the {} bodies of the first frame",
                             run.times.back(), slot, run.dynamic.size()));
      }
      if (run.dynamic[slot] != it->second)
        csv.fail(
            fmt::format("body \"{}\" out of order (each frame lists the bodies of the "
                        "first frame in the same order)",
                        csv.text(1)));
      ++slot;
    }
    for (std::size_t k = 2; k < 9; ++k) run.poses.push_back(to_float(csv.number(k)));
    for (std::size_t k = 9; k < 15; ++k) (void)csv.number(k);
  }
  if (run.times.empty())
    throw Error(file.string(), "", "has no frames (a scene without moving bodies has no replay)");
  if (run.poses.size() != run.times.size() * run.dynamic.size() * 7)
    throw Error(file.string(), fmt::format("line {}", csv.line()),
                "the last frame is incomplete (the file is truncated)");
}

void read_metrics(const fs::path& file, ReplayRun& run) {
  CsvReader csv(file,
                "t,kinetic_energy,potential_energy,total_energy,contacts,lcp_size,pivots,"
                "solve_time_s,max_joint_error,max_penetration,reduced_pairs,status");
  run.metric_columns = {
      "t",      "kinetic_energy", "potential_energy", "total_energy",    "contacts",     "lcp_size",
      "pivots", "solve_time_s",   "max_joint_error",  "max_penetration", "reduced_pairs"};
  run.metrics.assign(run.metric_columns.size(), {});
  while (csv.next()) {
    for (std::size_t c = 0; c < run.metric_columns.size(); ++c)
      run.metrics[c].push_back(csv.number(c));
    if (csv.text(11) != "solved") ++run.failed_steps;
  }
}

/// the frame whose time is t (written from the same double, so equal), or a CSV error
std::size_t frame_of(const CsvReader& csv, const ReplayRun& run, double t, std::size_t from) {
  while (from < run.times.size() && run.times[from] < t) ++from;
  if (from == run.times.size() || run.times[from] != t)
    csv.fail(fmt::format("t = {} is not a frame time of trajectory.csv (rows in time order)", t));
  return from;
}

int body_of(const CsvReader& csv, const std::map<std::string, int>& body_index,
            std::size_t column) {
  const auto it = body_index.find(csv.text(column));
  if (it != body_index.end()) return it->second;
  if (csv.text(column) == "world") return -1;
  csv.fail(fmt::format("body \"{}\" is not a body of shapes.json", csv.text(column)));
}

void read_contacts(const fs::path& file, const std::map<std::string, int>& body_index,
                   ReplayRun& run) {
  CsvReader csv(file, kContactsHeader);
  run.has_contacts = true;
  run.contacts.assign(run.times.size(), {});
  std::size_t frame = 0;
  while (csv.next()) {
    frame = frame_of(csv, run, csv.number(0), frame);
    ReplayContact c;
    c.body_a = body_of(csv, body_index, 1);
    c.body_b = body_of(csv, body_index, 2);
    for (std::size_t k = 0; k < c.values.size(); ++k) c.values[k] = to_float(csv.number(3 + k));
    run.contacts[frame].push_back(c);
  }
}

void read_joints(const fs::path& file, const std::map<std::string, int>& body_index,
                 ReplayRun& run) {
  CsvReader csv(file, kJointsHeader);
  run.has_joints = true;
  std::size_t frame = 0, slot = 0;
  std::vector<std::size_t> rows(run.times.size(), 0);
  while (csv.next()) {
    frame = frame_of(csv, run, csv.number(0), frame);
    ReplayJoint j{csv.text(1), csv.text(2), csv.text(3), csv.text(4)};
    body_of(csv, body_index, 3);
    body_of(csv, body_index, 4);
    if (frame == 0) {
      run.joints.push_back(j);
    } else {
      slot = rows[frame];
      if (slot >= run.joints.size() || run.joints[slot].name != j.name ||
          run.joints[slot].type != j.type)
        csv.fail(
            fmt::format("joint \"{}\" out of order (each frame lists the joints of the "
                        "first frame in the same order)",
                        j.name));
    }
    ++rows[frame];
    for (std::size_t k = 0; k < kJointValues; ++k)
      run.joint_values.push_back(to_float(csv.number(5 + k)));
  }
  for (std::size_t f = 0; f < rows.size(); ++f)
    if (rows[f] != run.joints.size())
      throw Error(file.string(), "",
                  fmt::format("the frame at t = {} has {} joint rows, the first frame {} (the "
                              "file is truncated or corrupted)",
                              run.times[f], rows[f], run.joints.size()));
}

}  // namespace

ReplayRun read_replay_run(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw Error(dir.string(), "", "is not a run folder (pivot run --out writes one)");
  ReplayRun run;
  run.summary = read_json(dir / "summary.json");
  for (const char* key : {"scene", "dt", "final_state_hash"})
    if (!run.summary.is_object() || !run.summary.contains(key))
      throw Error((dir / "summary.json").string(), "", fmt::format("missing key \"{}\"", key));
  run.shapes = read_json(dir / "shapes.json");
  ShapeChecks(dir / "shapes.json").check(run.shapes);
  std::map<std::string, int> body_index;
  const ojson& bodies = run.shapes["bodies"];
  for (std::size_t i = 0; i < bodies.size(); ++i)
    body_index[bodies[i]["name"].get<std::string>()] = static_cast<int>(i);

  read_trajectory(dir / "trajectory.csv", body_index, run);
  read_metrics(dir / "metrics.csv", run);
  if (fs::exists(dir / "contacts.csv", ec)) read_contacts(dir / "contacts.csv", body_index, run);
  if (fs::exists(dir / "joints.csv", ec)) read_joints(dir / "joints.csv", body_index, run);
  if (fs::exists(dir / "sensors.csv", ec)) {
    run.sensors = read_sensor_table(dir / "sensors.csv");
    run.has_sensors = true;
  }
  return run;
}

}  // namespace pivot::cli
