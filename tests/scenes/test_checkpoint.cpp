// World checkpoints (docs/checkpoints.md): on every shipped scene, a run saved after k steps
// (hybrid pairs in reduced mode included) and restored into a freshly built World ends, after the
// remaining steps, on the same final-state hash as the straight run; the program's actuator
// targets come back; bad checkpoints are refused with an error naming the cause.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/scene.hpp"
#include "support/test_data.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;

namespace {

std::vector<std::filesystem::path> shipped_scenes() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(pivot::test::source_scenes_dir()))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

constexpr int kSteps = 200;

bool any_reduced(const World& w) {
  for (int i = 0; i < w.body_count(); ++i)
    if (w.in_reduced_mode(i)) return true;
  return false;
}

}  // namespace

// Every shipped scene, saved at several steps of one run (the first step, three fixed ones and
// the first step at which a hybrid pair is in reduced coordinates), each checkpoint restored
// into a freshly built World that then steps to kSteps: every one must end on the straight
// run's hash (pivot::state_hash, independent of the checkpoint code), and a restored World must
// save the very bytes it restored (nothing a checkpoint holds is lost on the way back).
TEST_CASE("checkpoint: a restored run ends on the straight run's hash, every shipped scene") {
  int scenes = 0, saves = 0, reduced_saves = 0;
  for (const auto& file : shipped_scenes()) {
    INFO(file.filename().string());
    const Scene scene = load_scene(file);
    World straight = build_world(scene);
    for (int k = 0; k < kSteps; ++k) straight.step();
    const std::uint64_t expected = state_hash(straight);

    World first = build_world(scene);
    std::vector<std::pair<int, std::string>> blobs;
    bool reduced_saved = false;
    for (int k = 0; k <= kSteps; ++k) {
      const bool fixed_point = k == 1 || k == 57 || k == 120 || k == kSteps - 1;
      const bool reduced = any_reduced(first);
      if (fixed_point || (reduced && !reduced_saved)) {
        blobs.emplace_back(k, first.save_state());
        if (reduced) {
          reduced_saved = true;
          ++reduced_saves;
        }
      }
      if (k < kSteps) first.step();
    }
    CHECK(state_hash(first) == expected);  // saving does not disturb the run
    for (const auto& [k, blob] : blobs) {
      INFO("saved after step " << k);
      World resumed = build_world(scene);
      resumed.restore_state(blob);
      CHECK(resumed.step_count() == k);
      CHECK(resumed.save_state() == blob);
      for (int i = k; i < kSteps; ++i) resumed.step();
      CHECK(state_hash(resumed) == expected);
      CHECK(resumed.time() == straight.time());
      CHECK(resumed.totals().reduced_entries == straight.totals().reduced_entries);
      CHECK(resumed.totals().reduced_exits == straight.totals().reduced_exits);
      ++saves;
    }
    ++scenes;
  }
  // every shipped scene, none skipped; the hybrid ones (ellipsoid_drop_hybrid,
  // rolling_sphere_hybrid, marble_in_bowl, lumpy_marble_in_plate, the three rattlebacks,
  // bowl_on_table, bowl_on_bezier) have pairs in reduced mode within 200 steps
  const int shipped = static_cast<int>(shipped_scenes().size());
  CHECK(shipped >= 48);
  CHECK(scenes == shipped);
  CHECK(saves >= 4 * shipped);
  CHECK(reduced_saves >= 20);  // 35 in this build
  WARN(saves << " checkpoints of " << scenes << " scenes, " << reduced_saves
             << " with a pair in reduced mode");
}

// A program's actuator targets are state: a servo whose target the program changed, saved and
// restored into a World built from the scene (with the scene's own target), steps on as the
// World that was never interrupted does
TEST_CASE("checkpoint: the program's actuator targets are restored") {
  const std::string arm = R"({
    "pivot_scene": 1,
    "settings": {"duration": 1.0, "dt": 0.002},
    "bodies": [{"name": "floor", "fixed": true, "shape": {"type": "plane"}}],
    "models": [{"urdf": "robots/two_link_arm.urdf", "name": "arm", "fixed_base": true}],
    "actuators": [
      {"name": "shoulder", "joint": "arm/shoulder", "type": "position", "kp": 1e4, "kd": 100,
       "target": 0.3},
      {"name": "elbow", "joint": "arm/elbow", "type": "effort", "target": 0.0}
    ]
  })";
  const Scene scene = parse_scene(arm, pivot::test::source_scenes_dir(), "arm.json");
  World a = build_world(scene);
  for (int k = 0; k < 50; ++k) a.step();
  a.set_actuator_target("shoulder", -0.5);
  a.set_actuator_target("elbow", 3.0);
  a.step();
  const std::string blob = a.save_state();
  World b = build_world(scene);
  b.restore_state(blob);
  CHECK(b.actuator("shoulder").target(b.time()) == -0.5);
  CHECK(b.actuator("elbow").effort() == a.actuator("elbow").effort());
  for (int k = 0; k < 100; ++k) {
    a.step();
    b.step();
  }
  CHECK(state_hash(b) == state_hash(a));
  // the scene's targets would have gone elsewhere: the restored targets matter
  World c = build_world(scene);
  for (int k = 0; k < 151; ++k) c.step();
  CHECK(state_hash(c) != state_hash(a));
}

TEST_CASE("checkpoint: bad checkpoints are refused and leave the World unchanged") {
  const Scene scene = load_scene(pivot::test::source_scenes_dir() / "box_stack_10.json");
  World world = build_world(scene);
  for (int k = 0; k < 20; ++k) world.step();
  const std::string blob = world.save_state();
  World target = build_world(scene);
  const std::uint64_t before = state_hash(target);
  const auto refused = [&](std::string bytes, const std::string& words) {
    INFO(words);
    try {
      target.restore_state(bytes);
      FAIL("restored");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find(words) != std::string::npos);
    }
    CHECK(state_hash(target) == before);
    CHECK(target.step_count() == 0);
  };
  refused(blob.substr(0, blob.size() / 2), "truncated");
  refused(blob.substr(0, 10), "truncated");
  refused("", "not a Pivot checkpoint");
  refused("hello world, not a checkpoint", "not a Pivot checkpoint");
  std::string flipped = blob;
  flipped[flipped.size() / 2] ^= 0x10;
  refused(flipped, "checksum");
  std::string version = blob;
  version[8] = 7;  // the format version's low byte
  refused(version, "format version 7");
  std::string build = blob;
  build[16] ^= 1;  // the build fingerprint, with its checksum made good again
  {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (std::size_t i = 0; i + 8 < build.size(); ++i) {
      h ^= static_cast<unsigned char>(build[i]);
      h *= 0x100000001b3ULL;
    }
    for (int b = 0; b < 8; ++b)
      build[build.size() - 8 + b] = static_cast<char>((h >> (8 * b)) & 0xff);
  }
  refused(build, "another build");
  // a World of another structure
  World other = build_world(load_scene(pivot::test::source_scenes_dir() / "box_pyramid.json"));
  REQUIRE_THROWS_WITH(other.restore_state(blob), Catch::Contains("another structure"));
  // and the good one is accepted: it continues bit for bit
  target.restore_state(blob);
  world.step();
  target.step();
  CHECK(state_hash(target) == state_hash(world));
}

// A checkpoint whose checksum is made good again after a word of its payload was overwritten
// (a bug or a tampered file, not caught by the checksum): restore_state refuses it or restores
// a World that steps without a crash and without a non-finite state. Every 64-bit word of the
// payload of a rolling_sphere_hybrid checkpoint with its pair in reduced mode, three values each.
TEST_CASE("checkpoint: a corrupt payload with a good checksum never crashes") {
  const Scene scene = load_scene(pivot::test::source_scenes_dir() / "rolling_sphere_hybrid.json");
  World world = build_world(scene);
  for (int k = 0; k < 30; ++k) world.step();
  REQUIRE(any_reduced(world));
  const std::string blob = world.save_state();
  const auto with_checksum = [](std::string bytes) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (std::size_t i = 0; i + 8 < bytes.size(); ++i) {
      h ^= static_cast<unsigned char>(bytes[i]);
      h *= 0x100000001b3ULL;
    }
    for (int b = 0; b < 8; ++b)
      bytes[bytes.size() - 8 + b] = static_cast<char>((h >> (8 * b)) & 0xff);
    return bytes;
  };
  constexpr std::size_t kHeader = 8 * 6;  // magic, version, fingerprints, payload size
  int refused = 0, restored = 0;
  for (std::size_t at = kHeader; at + 16 <= blob.size(); at += 8) {
    for (const std::uint64_t value :
         {0xffffffffffffffffULL, 0x7ff0000000000001ULL, 0x0000000000001000ULL}) {
      std::string bytes = blob;
      for (int b = 0; b < 8; ++b) bytes[at + b] = static_cast<char>((value >> (8 * b)) & 0xff);
      World target = build_world(scene);
      try {
        target.restore_state(with_checksum(bytes));
      } catch (const Error& e) {
        CHECK(std::string(e.what()).starts_with("checkpoint: "));
        ++refused;
        continue;
      }
      ++restored;
      for (int k = 0; k < 3; ++k) target.step();
      CHECK(target.bodies().positions().allFinite());
      CHECK(target.bodies().velocities().allFinite());
    }
  }
  CHECK(refused > 0);
  CHECK(restored > 0);
}
