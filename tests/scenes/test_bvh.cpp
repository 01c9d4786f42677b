// The strict BVH reader and writer (scenes/format/bvh.hpp): a hand-written file read to the values
// written in it, malformed files rejected with the line of the fault, and a write/read round
// trip that gives the clip back exactly.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "pivot/core/error.hpp"
#include "pivot/scenes/bvh.hpp"
#include "pivot/scenes/bvh_motion.hpp"

using namespace pivot;

namespace {

// two joints and an End Site, two frames (written by hand)
const char* kGood = R"(HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Knee
  {
    OFFSET 0 -40 0
    CHANNELS 1 Xrotation
    End Site
    {
      OFFSET 0 -42.5 0
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.01
1 90 3 0 0 0 45
1.5 91 3 90 0 0 -30
)";

// the place of the error parse_bvh throws for `text` ("" when none)
std::string place_of(const std::string& text) {
  try {
    (void)parse_bvh(text, "bad.bvh");
  } catch (const Error& e) {
    return e.place();
  }
  return "";
}

std::string message_of(const std::string& text) {
  try {
    (void)parse_bvh(text, "bad.bvh");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// kGood with one piece replaced
std::string good_with(const std::string& from, const std::string& to) {
  std::string s = kGood;
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("bvh: a hand-written file reads to the values written in it") {
  const BvhClip clip = parse_bvh(kGood, "good.bvh");
  REQUIRE(clip.joints.size() == 2);
  CHECK(clip.joints[0].name == "Hips");
  CHECK(clip.joints[0].parent == -1);
  CHECK(clip.joints[0].channels.size() == 6);
  CHECK(clip.joints[1].name == "Knee");
  CHECK(clip.joints[1].parent == 0);
  CHECK(clip.joints[1].offset == Vec3(0, -40, 0));
  CHECK(clip.joints[1].first_channel == 6);
  REQUIRE(clip.joints[1].end_site);
  CHECK(*clip.joints[1].end_site == Vec3(0, -42.5, 0));
  CHECK(clip.joints[1].line == 6);
  CHECK(clip.frame_time == 0.01);
  REQUIRE(clip.frame_count() == 2);
  REQUIRE(clip.channel_count() == 7);
  CHECK(clip.frames(1, 0) == 1.5);
  CHECK(clip.frames(1, 6) == -30);
  CHECK(clip.find_joint("Knee") == 1);
  CHECK(clip.find_joint("Elbow") == -1);
}

TEST_CASE("bvh: the local transform is the product of the rotation channels in file order") {
  const BvhClip clip = parse_bvh(kGood, "good.bvh");
  // frame 1: Zrotation 90, Xrotation 0, Yrotation 0 → Rz(90°): x → y
  const Mat3 R = bvh_local_rotation(clip.joints[0], clip.frames.row(1).transpose());
  CHECK((R * Vec3::UnitX() - Vec3::UnitY()).norm() < 1e-15);
  CHECK(bvh_local_position(clip.joints[0], clip.frames.row(1).transpose()) == Vec3(1.5, 91, 3));
  // Rz(a) Rx(b): rotating Rx first then Rz, checked on a vector by hand for a = b = 90°
  BvhJoint j;
  j.channels = {BvhChannel::z_rotation, BvhChannel::x_rotation};
  Eigen::VectorXd f(2);
  f << 90, 90;
  // Rx(90) y = z; Rz(90) z = z.  Rx(90) z = −y; Rz(90)(−y) = x
  CHECK((bvh_local_rotation(j, f) * Vec3::UnitY() - Vec3::UnitZ()).norm() < 1e-15);
  CHECK((bvh_local_rotation(j, f) * Vec3::UnitZ() - Vec3::UnitX()).norm() < 1e-15);
  // the knee's one channel: Xrotation −30°
  const Mat3 K = bvh_local_rotation(clip.joints[1], clip.frames.row(1).transpose());
  CHECK(std::abs(K(1, 1) - std::cos(-30 * M_PI / 180)) < 1e-15);
  CHECK(std::abs(K(2, 1) - std::sin(-30 * M_PI / 180)) < 1e-15);
}

TEST_CASE("bvh: write then read gives the clip back exactly") {
  BvhClip clip = parse_bvh(kGood, "good.bvh");
  clip.frames(0, 3) = 1.0 / 3.0;  // a value that needs all 17 digits
  clip.frame_time = 1.0 / 120.0;
  const BvhClip back = parse_bvh(write_bvh(clip), "written.bvh");
  REQUIRE(back.joints.size() == clip.joints.size());
  for (std::size_t i = 0; i < clip.joints.size(); ++i) {
    CHECK(back.joints[i].name == clip.joints[i].name);
    CHECK(back.joints[i].parent == clip.joints[i].parent);
    CHECK(back.joints[i].offset == clip.joints[i].offset);
    CHECK(back.joints[i].channels == clip.joints[i].channels);
    CHECK(back.joints[i].end_site == clip.joints[i].end_site);
  }
  CHECK(back.frame_time == clip.frame_time);
  CHECK(back.frames == clip.frames);
}

TEST_CASE("bvh: malformed files are rejected with the line of the fault") {
  CHECK(place_of(kGood) == "");
  CHECK(place_of("HIERARCHY\nROOT") == "line 2");  // ends: expected a name
  CHECK(place_of(good_with("HIERARCHY", "HIERARCHIE")) == "line 1");
  CHECK(place_of(good_with("OFFSET 0 -40 0", "OFFSET 0 forty 0")) == "line 8");
  CHECK(place_of(good_with("OFFSET 0 -40 0", "OFFSET 0 nan 0")) == "line 8");
  CHECK(place_of(good_with("CHANNELS 1 Xrotation", "CHANNELS 1 Xrotate")) == "line 9");
  CHECK(place_of(good_with("CHANNELS 1 Xrotation", "CHANNELS 2 Xrotation Xrotation")) == "line 9");
  CHECK(place_of(good_with("CHANNELS 1 Xrotation", "CHANNELS 7 Xrotation")) == "line 9");
  CHECK(place_of(good_with("JOINT Knee", "JOINT Hips")) == "line 6");
  CHECK(place_of(good_with("End Site", "End Sight")) == "line 10");
  CHECK(place_of(good_with("Frames: 2", "Frames: 3")) == "line 21");  // the end of the file
  CHECK(place_of(good_with("Frames: 2", "Frames: 0")) == "line 17");
  CHECK(place_of(good_with("Frames: 2", "Frames: 1")) == "line 20");
  CHECK(place_of(good_with("Frame Time: 0.01", "Frame Time: 0")) == "line 18");
  CHECK(place_of(good_with("Frame Time: 0.01", "Frame Time: 1e-300")) == "line 18");
  CHECK(place_of(good_with("Frame Time: 0.01", "Frame Time: 1e6")) == "line 18");
  // a frame count the file cannot hold is refused before any storage is taken for it
  CHECK(place_of(good_with("Frames: 2", "Frames: 9999999")) == "line 17");
  CHECK_THAT(message_of(good_with("Frames: 2", "Frames: 9999999")),
             Catch::Contains("only") && Catch::Contains("lines follow"));
  CHECK(place_of(good_with("Frame Time: 0.01", "Frame Time: 0.01 7")) == "line 18");
  CHECK(place_of(good_with("1.5 91 3 90 0 0 -30", "1.5 91 3 90 0 0")) == "line 20");
  CHECK(place_of(good_with("1.5 91 3 90 0 0 -30", "1.5 91 3 90 0 0 -30 4")) == "line 20");
  CHECK(place_of(good_with("1.5 91 3 90 0 0 -30", "1.5 91 3 90 0 0 1e999")) == "line 20");
  CHECK(place_of(good_with("MOTION", "ROOT")) == "line 16");
  CHECK(place_of(good_with("  }\n}\nMOTION", "  }\nMOTION")) == "line 15");
  // messages say what was expected
  CHECK(message_of(good_with("CHANNELS 1 Xrotation", "CHANNELS 1 Xrotate")) ==
        "bad.bvh: line 9: expected a channel (Xposition, Yposition, Zposition, Xrotation, "
        "Yrotation, Zrotation), got \"Xrotate\"");
  CHECK(message_of(good_with("1.5 91 3 90 0 0 -30", "1.5 91 3 90 0 0")) ==
        "bad.bvh: line 20: frame 1 has 6 values, the hierarchy declares 7 channels");
}

TEST_CASE("bvh: a missing file is an error naming it") {
  try {
    (void)load_bvh("no/such/file.bvh");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.source() == "no/such/file.bvh");
  }
}

// ---- the clip as motion (scenes/format/bvh_motion.hpp) ----

namespace {

// one root joint with one Zrotation channel through `angles` (degrees) at 100 frames/s
std::string one_channel_clip(const std::vector<double>& angles) {
  std::string text = "HIERARCHY\nROOT R\n{\n  OFFSET 0 0 0\n  CHANNELS 1 Zrotation\n"
                     "  End Site\n  {\n    OFFSET 0 10 0\n  }\n}\nMOTION\nFrames: " +
                     std::to_string(angles.size()) + "\nFrame Time: 0.01\n";
  for (double a : angles) text += std::to_string(a) + "\n";
  return text;
}

}  // namespace

TEST_CASE("bvh motion: a rotation channel that wraps past ±180° moves as the unwrapped one") {
  // 170, 179, −172, −163 is 170, 179, 188, 197 written within ±180°: equally spaced values, so
  // the natural spline through the unwrapped ones is the straight line, 9° per 0.01 s, at every t
  const BvhMapping z_up{.scale = 0.01, .y_up = false};
  const BvhMotion wrapped(parse_bvh(one_channel_clip({170, 179, -172, -163}), "w.bvh"), z_up);
  const BvhMotion unwrapped(parse_bvh(one_channel_clip({170, 179, 188, 197}), "u.bvh"), z_up);
  const double rate = 9.0 / 0.01 * 3.14159265358979323846 / 180.0;  // rad/s
  for (double t : {0.0, 0.004, 0.01, 0.015, 0.02, 0.027}) {
    const JointState a = wrapped.evaluate(t).front();
    const JointState b = unwrapped.evaluate(t).front();
    CHECK((a.R_WJ - b.R_WJ).norm() < 1e-12);
    CHECK((a.w_W - b.w_W).norm() < 1e-9);
    CHECK((a.dw_W - b.dw_W).norm() < 1e-6);
    CHECK(a.w_W.z() == Approx(rate).epsilon(1e-9));  // not 358° in one frame
    CHECK(a.w_W.head<2>().norm() < 1e-12);
  }
}

TEST_CASE("bvh motion: world lengths beyond the scene format's limit are errors") {
  const BvhClip clip = parse_bvh(one_channel_clip({0, 1}), "c.bvh");
  auto message = [](const BvhClip& c, const BvhMapping& m) -> std::string {
    try {
      (void)BvhMotion(c, m);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  CHECK(message(clip, BvhMapping{}).empty());
  // the End Site's offset 10 file units at a scale of 1e9 m per unit is 1e10 m
  CHECK_THAT(message(clip, BvhMapping{.scale = 1e9}), Catch::Contains("more than the limit"));
  CHECK_THAT(message(clip, BvhMapping{.origin = Vec3(0, 2e9, 0)}), Catch::Contains("origin"));
}
