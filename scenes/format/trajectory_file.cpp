// Trajectory files: see trajectory_file.hpp.
#include "pivot/scenes/trajectory_file.hpp"

#include <fmt/core.h>

#include <array>
#include <cmath>
#include <fstream>
#include <string>

#include "pivot/core/bounded_file.hpp"
#include "pivot/core/error.hpp"
#include "pivot/core/number_text.hpp"
#include "pivot/scenes/json_reader.hpp"

namespace pivot {
namespace {

constexpr double kMaxPosition = 1e9;  // m, as the scene format's lengths

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

enum class Parsed { ok, bad, out_of_range };

// one whole field as a double (core/number_text.hpp), spaces around it allowed
Parsed parse_field(std::string_view field, double& x) {
  const ParsedNumber n = parse_number(trim(field));
  x = n.value;
  if (n.status == NumberStatus::overflow || n.status == NumberStatus::underflow)
    return Parsed::out_of_range;
  return n.status == NumberStatus::ok ? Parsed::ok : Parsed::bad;
}

}  // namespace

KinematicTrack parse_trajectory(std::string_view text, std::string_view source) {
  const std::string src(source);
  KinematicTrack track;
  track.interpolation = TrackInterpolation::linear;
  std::size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    const std::string where = fmt::format("line {}", line_no);
    std::array<double, 8> v{};
    std::size_t n = 0, start = 0;
    bool ok = true;
    std::string_view out_of_range;  // the first field beyond a double's range
    while (ok) {
      const std::size_t comma = line.find(',', start);
      const std::string_view field = line.substr(
          start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
      if (n == v.size()) {
        ok = false;
      } else {
        const Parsed r = parse_field(field, v[n]);
        if (r == Parsed::bad) ok = false;
        if (r == Parsed::out_of_range && out_of_range.empty()) out_of_range = trim(field);
      }
      ++n;
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (!ok || n != v.size())
      throw Error(src, where, "expected 8 comma-separated numbers: t, x, y, z, qw, qx, qy, qz");
    if (!out_of_range.empty())
      throw Error(
          src, where,
          fmt::format(
              "{} is out of a double's range (not finite, or a non-zero value that rounds to 0)",
              out_of_range));
    for (double x : v)
      if (!std::isfinite(x)) throw Error(src, where, "expected finite numbers");
    KeyFrame k;
    k.t = v[0];
    k.p_WS = Vec3(v[1], v[2], v[3]);
    if (k.p_WS.cwiseAbs().maxCoeff() > kMaxPosition)
      throw Error(src, where, "the position is beyond 1e9 m");
    const Quat q(v[4], v[5], v[6], v[7]);
    if (!(std::abs(q.norm() - 1.0) <= kKeyFrameQuatTolerance))
      throw Error(src, where,
                  fmt::format("the quaternion's length is {} (expected 1 within {})", q.norm(),
                              kKeyFrameQuatTolerance));
    k.q_WB = q;
    if (!track.keyframes.empty()) {
      const KeyFrame& prev = track.keyframes.back();
      if (!(k.t > prev.t))
        throw Error(
            src, where,
            fmt::format("times must be strictly increasing (got {} after {})", k.t, prev.t));
      // the segment's speeds, as the scene's velocity limits (beyond them the coupling's
      // damping term, c (v_T − v_G), throws the body or overflows): |Δp|/Δt, and the short
      // way's rotation angle / Δt
      const double dt = k.t - prev.t;
      const double speed = (k.p_WS - prev.p_WS).norm() / dt;
      if (!(speed <= detail::kMaxSpeed))
        throw Error(src, where,
                    fmt::format("the segment from the previous line moves {:g} m in {:g} s: "
                                "{:g} m/s, beyond the limit of {:g} m/s",
                                (k.p_WS - prev.p_WS).norm(), dt, speed, detail::kMaxSpeed));
      const Quat r = prev.q_WB.normalized().conjugate() * q.normalized();
      const double angle = 2.0 * std::atan2(r.vec().norm(), std::abs(r.w()));
      const double rate = angle / dt;
      if (!(rate <= detail::kMaxSpeed))
        throw Error(src, where,
                    fmt::format("the segment from the previous line turns {:g} rad in {:g} s: "
                                "{:g} rad/s, beyond the limit of {:g} rad/s",
                                angle, dt, rate, detail::kMaxSpeed));
    }
    track.keyframes.push_back(k);
  }
  if (track.keyframes.empty()) throw Error(src, "", "the trajectory has no poses");
  check_track(track);  // normalizes and puts the quaternions in one hemisphere
  return track;
}

KinematicTrack load_trajectory(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::string text;
  switch (detail::read_at_most(file, kMaxTrajectoryBytes, text)) {
    case detail::FileRead::ok:
      return parse_trajectory(text, name);
    case detail::FileRead::folder:
      throw Error(name, "", "is a folder, not a trajectory file");
    case detail::FileRead::cannot_open:
      throw Error(name, "", "cannot open the trajectory file");
    case detail::FileRead::cannot_read:
      throw Error(name, "", "cannot read the trajectory file");
    case detail::FileRead::too_large:
      break;
  }
  throw Error(name, "", "the file is larger than the limit of 64 MiB for a trajectory");
}

}  // namespace pivot
