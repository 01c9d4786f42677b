#include "replay/replay_html.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "pivot/core/error.hpp"
#include "pivot/version.hpp"
#include "replay/replay_data.hpp"
#include "replay/viewer_bundle.hpp"
#include "run_files/run_output.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;
static_assert(std::endian::native == std::endian::little,
              "replay.html stores little-endian arrays; a big-endian host would swap bytes");

/// the bytes of a typed array as base64 (RFC 4648), read by the viewer into the same type
template <class T>
std::string base64(const std::vector<T>& values) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<unsigned char> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t{bytes[i]} << 16) |
                            (i + 1 < bytes.size() ? std::uint32_t{bytes[i + 1]} << 8 : 0u) |
                            (i + 2 < bytes.size() ? std::uint32_t{bytes[i + 2]} : 0u);
    out += kDigits[(n >> 18) & 63];
    out += kDigits[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[n & 63] : '=';
  }
  return out;
}

/// frame indices kept with stride s: every s-th frame and the last
std::vector<std::size_t> kept(std::size_t count, std::size_t stride) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < count; i += stride) out.push_back(i);
  if (out.back() != count - 1) out.push_back(count - 1);
  return out;
}

/// the frame stride that keeps the file under max_bytes: base64 makes 4 bytes of 3
std::size_t frame_stride(const ReplayRun& run, std::size_t fixed_bytes, std::uintmax_t max_bytes) {
  double frame_bytes = 0.0;
  const double per_frame = 8.0 + 28.0 * static_cast<double>(run.dynamic.size()) +
                           4.0 * kJointValues * static_cast<double>(run.joints.size());
  frame_bytes += per_frame * static_cast<double>(run.times.size());
  for (const auto& frame : run.contacts)
    frame_bytes += 4.0 + 52.0 * static_cast<double>(frame.size());
  frame_bytes *= 4.0 / 3.0;
  // 2 % for the JSON around the arrays and the page
  const double room = 0.98 * static_cast<double>(max_bytes) - static_cast<double>(fixed_bytes);
  if (room <= 0.0)
    throw Error(fmt::format("the viewer, shapes and metrics of this run alone pass {:g} MB",
                            static_cast<double>(max_bytes) / 1e6));
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(frame_bytes / room)));
}

ojson frames_json(const ReplayRun& run, const std::vector<std::size_t>& frames,
                  std::size_t stride) {
  std::vector<double> t;
  std::vector<float> pose;
  const std::size_t width = 7 * run.dynamic.size();
  for (const std::size_t f : frames) {
    t.push_back(run.times[f]);
    pose.insert(pose.end(), run.poses.begin() + static_cast<long>(f * width),
                run.poses.begin() + static_cast<long>((f + 1) * width));
  }
  return {{"count", frames.size()},
          {"recorded", run.times.size()},
          {"stride", stride},
          {"t", base64(t)},
          {"pose", base64(pose)}};
}

ojson contacts_json(const ReplayRun& run, const std::vector<std::size_t>& frames) {
  if (!run.has_contacts) return nullptr;
  std::vector<std::uint32_t> offsets{0};
  std::vector<std::int32_t> bodies;
  std::vector<float> values;
  for (const std::size_t f : frames) {
    for (const ReplayContact& c : run.contacts[f]) {
      bodies.push_back(c.body_a);
      bodies.push_back(c.body_b);
      values.insert(values.end(), c.values.begin(), c.values.end());
    }
    offsets.push_back(static_cast<std::uint32_t>(bodies.size() / 2));
  }
  return {{"offsets", base64(offsets)}, {"bodies", base64(bodies)}, {"values", base64(values)}};
}

ojson joints_json(const ReplayRun& run, const std::vector<std::size_t>& frames) {
  if (!run.has_joints) return nullptr;
  ojson list = ojson::array();
  for (const ReplayJoint& j : run.joints)
    list.push_back(
        {{"name", j.name}, {"type", j.type}, {"body_a", j.body_a}, {"body_b", j.body_b}});
  std::vector<float> values;
  const std::size_t width = kJointValues * run.joints.size();
  for (const std::size_t f : frames)
    values.insert(values.end(), run.joint_values.begin() + static_cast<long>(f * width),
                  run.joint_values.begin() + static_cast<long>((f + 1) * width));
  return {{"list", list}, {"values", base64(values)}};
}

ojson metrics_json(const ReplayRun& run) {
  const std::size_t rows = run.metrics.empty() ? 0 : run.metrics.front().size();
  const std::size_t stride =
      std::max<std::size_t>(1, (rows + kReplayMaxMetricRows - 1) / kReplayMaxMetricRows);
  const std::vector<std::size_t> keep = rows > 0 ? kept(rows, stride) : std::vector<std::size_t>{};
  ojson columns = ojson::object();
  for (std::size_t c = 0; c < run.metric_columns.size(); ++c) {
    if (run.metric_columns[c] == "t") {
      std::vector<double> v;
      for (const std::size_t r : keep) v.push_back(run.metrics[c][r]);
      columns["t"] = base64(v);
    } else {
      std::vector<float> v;
      for (const std::size_t r : keep) v.push_back(to_float(run.metrics[c][r]));
      columns[run.metric_columns[c]] = base64(v);
    }
  }
  return {{"rows", keep.size()},
          {"recorded", rows},
          {"stride", stride},
          {"failed_steps", run.failed_steps},
          {"columns", columns}};
}

/// sensors.csv as one plot per sensor: {"name", "t", "fields": {field: values}} with the rows
/// where the sensor sampled, at most kReplayMaxMetricRows of them; null without sensors.csv
ojson sensors_json(const ReplayRun& run) {
  if (!run.has_sensors) return nullptr;
  const SensorTable& table = run.sensors;
  ojson plots = ojson::array();
  for (std::size_t c = 0; c < table.columns.size();) {
    const std::string& name = table.sensor[c];
    std::size_t end = c;
    while (end < table.columns.size() && table.sensor[end] == name) ++end;
    std::vector<std::size_t> rows;  // where this sensor sampled
    for (std::size_t r = 0; r < table.times.size(); ++r)
      if (!std::isnan(table.values[c][r])) rows.push_back(r);
    const std::size_t stride =
        std::max<std::size_t>(1, (rows.size() + kReplayMaxMetricRows - 1) / kReplayMaxMetricRows);
    std::vector<std::size_t> keep;
    if (!rows.empty())
      for (const std::size_t k : kept(rows.size(), stride)) keep.push_back(rows[k]);
    std::vector<double> t;
    for (const std::size_t r : keep) t.push_back(table.times[r]);
    ojson fields = ojson::object();
    for (std::size_t k = c; k < end; ++k) {
      std::vector<float> v;
      for (const std::size_t r : keep) v.push_back(to_float(table.values[k][r]));
      fields[table.columns[k].substr(name.size() + 1)] = base64(v);
    }
    plots.push_back({{"name", name}, {"rows", keep.size()}, {"t", base64(t)}, {"fields", fields}});
    c = end;
  }
  return plots;
}

ojson summary_json(const ojson& s) {
  ojson out = ojson::object();
  for (const char* key : {"pivot_version", "mode", "scene", "scene_file", "steps", "dt",
                          "simulated_time_s", "wall_time_s", "final_state_hash"})
    if (s.contains(key)) out[key] = s[key];
  return out;
}

/// JSON inside <script>: "<" never appears outside strings, so escaping it everywhere keeps
/// "</script>" in a body name from closing the element
std::string script_safe(std::string text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

}  // namespace

void require_viewer() {
  if (kViewerBundle.empty())
    throw Error(fmt::format("replays are unavailable: {}", kViewerUnavailable));
}

ReplayWritten write_replay(const fs::path& dir, const fs::path& out, std::uintmax_t max_bytes) {
  const auto start = std::chrono::steady_clock::now();
  const ReplayRun run = read_replay_run(dir);  // a bad run folder is reported first
  require_viewer();

  ojson data;
  data["format"] = 1;
  data["summary"] = summary_json(run.summary);
  data["bodies"] = run.shapes["bodies"];
  data["dimension"] = run.shapes.value("dimension", 3);
  data["dynamic"] = run.dynamic;
  data["metrics"] = metrics_json(run);
  data["sensors"] = sensors_json(run);
  const std::size_t fixed_bytes = kViewerBundle.size() + data.dump().size();
  const std::size_t stride = frame_stride(run, fixed_bytes, max_bytes);
  const std::vector<std::size_t> frames = kept(run.times.size(), stride);
  data["frames"] = frames_json(run, frames, stride);
  data["contacts"] = contacts_json(run, frames);
  data["joints"] = joints_json(run, frames);
  ojson notes = ojson::array();
  if (stride > 1)
    notes.push_back(
        fmt::format("frames decimated to keep the file under {:g} MB: 1 in {} of "
                    "the {} recorded frames is shown",
                    static_cast<double>(max_bytes) / 1e6, stride, run.times.size()));
  if (data["metrics"]["stride"].get<std::size_t>() > 1)
    notes.push_back(fmt::format("plots show 1 in {} of the {} steps",
                                data["metrics"]["stride"].get<std::size_t>(),
                                data["metrics"]["recorded"].get<std::size_t>()));
  // the reason for a missing contacts.csv, naming --no-forces only when the run was made so
  if (!run.has_contacts) {
    const ojson& outputs = run.summary.contains("outputs") ? run.summary["outputs"] : ojson();
    const bool animator = run.summary.value("mode", std::string()) == "animator";
    const bool listed = outputs.is_array() &&
                        std::find(outputs.begin(), outputs.end(), "contacts.csv") != outputs.end();
    if (animator)
      notes.push_back("a key-framed animation (pivot animate): no contact forces to show");
    else if (outputs.is_array() && !listed)
      notes.push_back("no contacts.csv: the run was made with pivot run --no-forces");
    else
      notes.push_back("no contacts.csv in the run folder");
  }
  data["notes"] = notes;

  const std::string title =
      xml_text(run.summary["scene"].is_string() ? run.summary["scene"].get<std::string>()
                                                : std::string("run"));
  const fs::path temp = out.parent_path() / fmt::format(".{}.partial-{}", out.filename().string(),
                                                        static_cast<long>(::getpid()));
  {
    std::ofstream file(temp, std::ios::binary);
    if (!file) throw std::runtime_error(fmt::format("cannot write {}", temp.string()));
    file << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         << "<meta name=\"generator\" content=\"pivot " << kVersion << "\">\n"
         << "<title>" << title << " - Pivot replay</title>\n</head>\n<body>\n"
         << "<noscript>This replay needs JavaScript.</noscript>\n"
         << "<script type=\"application/json\" id=\"pivot-run\">" << script_safe(data.dump())
         << "</script>\n<script>" << kViewerBundle << "</script>\n</body>\n</html>\n";
    file.close();
    if (!file) {
      std::error_code ec;
      fs::remove(temp, ec);
      throw std::runtime_error(fmt::format("error writing {}", temp.string()));
    }
  }
  std::error_code ec;
  fs::rename(temp, out, ec);
  if (ec) {
    fs::remove(temp, ec);
    throw std::runtime_error(fmt::format("cannot write {}: {}", out.string(), ec.message()));
  }
  ReplayWritten written;
  written.file = out;
  written.bytes = fs::file_size(out, ec);
  written.frames = frames.size();
  written.recorded = run.times.size();
  written.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return written;
}

RunReplay write_run_replay(const OutputDir& dir, std::vector<std::string>& outputs) {
  RunReplay replay;
  try {
    replay.written = write_replay(dir.file(""), dir.file("replay.html"));
    replay.written->file = dir.target() / "replay.html";
    return replay;
  } catch (const std::exception& e) {
    replay.error = e.what();
  }
  std::error_code ec;
  fs::remove(dir.file("replay.html"), ec);
  outputs.erase(std::remove(outputs.begin(), outputs.end(), "replay.html"), outputs.end());
  // "<temp>/metrics.csv: line 540: ..." as "<target>/metrics.csv: line 540: ..."
  const std::string temp = dir.file("").string(), target = (dir.target() / "").string();
  for (std::size_t at = replay.error.find(temp); at != std::string::npos;
       at = replay.error.find(temp, at + target.size()))
    replay.error.replace(at, temp.size(), target);
  return replay;
}

std::string replay_failed_message(const OutputDir& dir, const std::string& reason) {
  return fmt::format("the run is in {} (without replay.html); its replay failed: {}",
                     dir.target().string(), reason);
}

}  // namespace pivot::cli
