// Simulation checkpoints (scenes/format/simulation_checkpoint.cpp, docs/checkpoints.md "Runs"): a
// run stopped after step k, saved, and continued by a fresh Simulation hands its sink the same
// frames and step rows, and ends on the same summary, as the run never stopped; bad bytes are
// refused with the Simulation unchanged.

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "pivot/core/error.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/simulation.hpp"
#include "support/test_data.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;

namespace {

/// every frame and step a run hands its sink, as text (bit-exact: hex floats)
struct Rows : RunSink {
  std::vector<std::string> rows;
  void frame(const World& world, double t) override {
    rows.push_back(fmt::format("frame {} {:a} {:x}", world.step_count(), t, state_hash(world)));
  }
  void step(const World&, const StepReport& r, const Energy& e, double t) override {
    rows.push_back(fmt::format("step {:a} {:a} {:a} {} {}", t, e.kinetic, e.potential, r.contacts,
                               r.reduced_pairs));
  }
  void warning(const std::string& message, double t) override {
    rows.push_back(fmt::format("warning {:a} {}", t, message));
  }
};

/// the summary's fields apart from the wall time
std::string summary_text(RunSummary s) {
  s.wall_time_s = 0.0;
  s.totals.solve_seconds = s.totals.step_seconds = 0.0;
  return summary_json(s);
}

}  // namespace

TEST_CASE("simulation checkpoint: a continued run equals the run never stopped") {
  for (const char* name :
       {"rolling_sphere_hybrid.json", "box_stack_10.json", "marble_in_bowl.json"}) {
    INFO(name);
    const Scene scene = load_scene(pivot::test::source_scenes_dir() / name);
    Simulation straight(scene);
    straight.set_total_steps(150);
    Rows all;
    const std::string expected = summary_text(straight.run(&all));

    for (const long k : {1L, 33L, 100L, 149L}) {
      INFO("stopped after step " << k);
      Simulation first(scene);
      first.set_total_steps(150);
      Rows before;
      std::string blob;
      RunHooks hooks;
      hooks.progress = [&](long steps, long, double) {
        if (steps == k) blob = first.save_checkpoint();
      };
      hooks.stop = [&] { return !blob.empty(); };
      first.run(&before, hooks);
      REQUIRE(!blob.empty());
      // the stopped run's own last frame (written because it stopped) is not the straight run's
      if (before.rows.back().starts_with("frame") && all.rows.size() > before.rows.size() &&
          before.rows.back() != all.rows[before.rows.size() - 1])
        before.rows.pop_back();

      Simulation resumed(scene);
      resumed.restore_checkpoint(blob);
      CHECK(resumed.position().steps == k);
      CHECK(resumed.total_steps() == 150);
      Rows after;
      const std::string summary = summary_text(resumed.run(&after));
      std::vector<std::string> joined = before.rows;
      joined.insert(joined.end(), after.rows.begin(), after.rows.end());
      CHECK(joined == all.rows);
      CHECK(summary == expected);
    }
  }
}

TEST_CASE("simulation checkpoint: bad bytes are refused, the Simulation unchanged") {
  const Scene scene = load_scene(pivot::test::source_scenes_dir() / "box_stack_10.json");
  Simulation a(scene);
  std::string blob;
  RunHooks hooks;
  hooks.progress = [&](long steps, long, double) {
    if (steps == 20) blob = a.save_checkpoint();
  };
  hooks.stop = [&] { return !blob.empty(); };
  a.run(nullptr, hooks);
  const auto refused = [&](const std::string& bytes, const std::string& words) {
    INFO(words);
    Simulation b(scene);
    REQUIRE_THROWS_WITH(b.restore_checkpoint(bytes), Catch::Contains(words));
    CHECK(b.position().steps == 0);
    CHECK(b.world().step_count() == 0);
    CHECK(b.summary().steps == 0);
  };
  refused("", "not a Pivot run checkpoint");
  refused(blob.substr(0, blob.size() - 3), "truncated");
  std::string flipped = blob;
  flipped[flipped.size() / 2] ^= 4;
  refused(flipped, "checksum");
  Simulation other(load_scene(pivot::test::source_scenes_dir() / "pendulum.json"));
  REQUIRE_THROWS_WITH(other.restore_checkpoint(blob), Catch::Contains("another structure"));
}
