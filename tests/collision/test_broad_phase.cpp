// The sort-and-sweep broad phase (collision/broad_phase.hpp) against every pair tested by hand,
// and the cost that made it: separated bodies in a row give no pair and take linear work.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <random>
#include <utility>
#include <vector>

#include "pivot/collision/broad_phase.hpp"
#include "pivot/collision/collision_world.hpp"

using namespace pivot;
using namespace pivot::detail;

namespace {

// the reference: all n(n−1)/2 pairs, closed intervals on each axis
std::vector<std::pair<int, int>> brute_force(const std::vector<Aabb>& boxes) {
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i)
    for (int j = i + 1; j < static_cast<int>(boxes.size()); ++j) {
      bool overlap = true;
      for (int k = 0; k < 3; ++k)
        overlap = overlap && boxes[i].lo(k) <= boxes[j].hi(k) && boxes[j].lo(k) <= boxes[i].hi(k);
      if (overlap) out.emplace_back(i, j);
    }
  return out;
}

std::vector<std::pair<int, int>> sorted(std::vector<std::pair<int, int>> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("broad phase: the same pairs as testing every pair", "[collision][broad_phase]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> centre(-5.0, 5.0), size(0.0, 1.5);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Aabb> boxes;
    for (int i = 0; i < 200; ++i) {
      const Vec3 c(centre(rng), centre(rng), trial % 2 ? 0.0 : centre(rng));
      const Vec3 h(size(rng), size(rng), size(rng));
      boxes.push_back({c - h, c + h});
    }
    // a floor plane's box (Bullet's ±1e30), boxes that only touch, and identical boxes
    boxes.push_back({Vec3::Constant(-1e30), Vec3::Constant(1e30)});
    boxes.push_back({Vec3(10, 0, 0), Vec3(11, 1, 1)});
    boxes.push_back({Vec3(11, 1, 1), Vec3(12, 2, 2)});
    boxes.push_back({Vec3(10, 0, 0), Vec3(11, 1, 1)});
    const auto pairs = overlapping_pairs(boxes);
    for (const auto& [i, j] : pairs) REQUIRE(i < j);
    REQUIRE(sorted(pairs) == brute_force(boxes));
  }
  REQUIRE(overlapping_pairs({}).empty());
  REQUIRE(overlapping_pairs({Aabb{}}).empty());
}

// 5 000 / 10 000 / 20 000 separated spheres in a row took 1.7 / 6.2 / 34 s a step in Bullet's
// btDbvtBroadphase (its tree one level deeper per sphere added in a row). Linear work: twice the
// spheres, about twice the time (a ratio under 3 leaves room for a shared machine; the
// quadratic cost gave 4 and more).
TEST_CASE("broad phase: separated bodies in a row cost linear time", "[collision][broad_phase]") {
  auto seconds_for = [](int n) {
    CollisionWorld world;
    const ShapePtr sphere = make_sphere(0.1);
    for (int i = 0; i < n; ++i) world.add({.body = i, .shape = sphere});
    const auto pose = [](int body) {
      Pose p;
      p.p_WB = Vec3(0.5 * body, 0.0, 0.0);
      return p;
    };
    double best = 1e9;
    for (int repeat = 0; repeat < 3; ++repeat) {
      const auto start = std::chrono::steady_clock::now();
      REQUIRE(world.detect(pose, 0.01).empty());
      best = std::min(
          best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
  };
  const double small = seconds_for(5000), large = seconds_for(10000);
  INFO("5 000 spheres: " << small << " s, 10 000: " << large << " s");
  REQUIRE(large < 3.0 * small + 0.01);
}
