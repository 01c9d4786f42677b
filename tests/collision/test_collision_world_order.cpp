// collision/collision_world.hpp: determinism and order of the contacts: the same poses give the
// same contacts in the same order, on one thread or several, with pairs skipped, and whatever
// the rounding of the poses.
#include <catch2/catch.hpp>

#include <cmath>
#include <thread>

#include "collision_test_scene.hpp"
#include "pivot/collision/collision_world.hpp"

using namespace pivot;
using pivot::test::axis_angle;
using pivot::test::Scene;

TEST_CASE("detection is deterministic: same poses, same contacts, same order", "[collision]") {
  auto build = [](Scene& s) {
    s.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
    for (int i = 0; i < 6; ++i) {
      const Vec3 x(0.35 * (i % 3), 0.4 * (i / 3), 0.1 + 0.19 * i);
      const Quat q = axis_angle(0.3 * i, Vec3(1, i, 2));
      switch (i % 4) {
        case 0:
          s.add(10 - i, make_box(Vec3(0.2, 0.15, 0.1)), x, q);
          break;
        case 1:
          s.add(10 - i, make_sphere(0.15), x, q);
          break;
        case 2:
          s.add(10 - i, make_capsule(0.08, 0.15), x, q);
          break;
        default:
          s.add(10 - i,
                make_convex({Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0, 0.3, 0), Vec3(0, 0, 0.3)}), x,
                q);
      }
    }
  };
  Scene a, b;
  build(a);
  build(b);
  const auto first = a.detect(0.1);
  REQUIRE(!first.empty());
  // move everything away and back: nothing from the earlier call may leak into the next
  auto saved = a.poses;
  for (auto& [i, p] : a.poses) p.p_WB += Vec3(0, 0, 5.0 * i);
  (void)a.detect(0.1);
  a.poses = saved;
  const auto second = a.detect(0.1);
  const auto fresh = b.detect(0.1);
  for (const auto* other : {&second, &fresh}) {
    REQUIRE(other->size() == first.size());
    for (std::size_t k = 0; k < first.size(); ++k) {
      CHECK((*other)[k].body_a == first[k].body_a);
      CHECK((*other)[k].body_b == first[k].body_b);
      CHECK((*other)[k].p_WCa == first[k].p_WCa);
      CHECK((*other)[k].p_WCb == first[k].p_WCb);
      CHECK((*other)[k].n_BA_W == first[k].n_BA_W);
      CHECK((*other)[k].gap == first[k].gap);
    }
  }
  for (std::size_t k = 1; k < first.size(); ++k)
    CHECK(std::make_pair(first[k - 1].body_a, first[k - 1].body_b) <=
          std::make_pair(first[k].body_a, first[k].body_b));
}

// The narrow phase on several threads (detect's ParallelFor, the engine's thread pool): the same
// contacts bit for bit in the same order as on one thread, with pairs whose manifolds must stay
// on the calling thread (a mesh floor) mixed in, and tasks run in a scrambled order on two
// threads. The pile is large enough (more than 32 pairs) for the threads to be used.
TEST_CASE("detection on several threads gives the same contacts as on one", "[collision]") {
  auto build = [](Scene& s) {
    s.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
    s.add(1,
          make_mesh({Vec3(2, -2, 0.001), Vec3(6, -2, 0.001), Vec3(6, 2, 0.001), Vec3(2, 2, 0.001)},
                    {{0, 1, 2}, {0, 2, 3}}, "floor"),
          Vec3::Zero(), Quat::Identity(), true);
    int body = 2;
    for (int i = 0; i < 12; ++i)
      for (int k = 0; k < 6; ++k) {
        // columns of touching shapes across the plane (x < 2) and the mesh (x > 2)
        const Vec3 x(-1.5 + 0.55 * i, 0.3 * (k % 2), 0.09 + 0.17 * k);
        const Quat q = axis_angle(0.05 * (i + k), Vec3(1, k, 2));
        switch ((i + k) % 4) {
          case 0:
            s.add(body++, make_box(Vec3(0.1, 0.12, 0.09)), x, q);
            break;
          case 1:
            s.add(body++, make_sphere(0.09), x, q);
            break;
          case 2:
            s.add(body++, make_capsule(0.06, 0.08), x, q);
            break;
          default:
            s.add(body++,
                  make_convex({Vec3(-0.1, -0.1, -0.09), Vec3(0.15, -0.1, -0.09),
                               Vec3(-0.1, 0.15, -0.09), Vec3(0.0, 0.0, 0.12)}),
                  x, q);
        }
      }
  };
  Scene serial, threaded;
  build(serial);
  build(threaded);
  // two threads, each taking every other task from the end
  const ParallelFor two_threads = [](int tasks, const std::function<void(int)>& body) {
    auto half = [&](int first) {
      for (int t = tasks - 1 - first; t >= 0; t -= 2) body(t);
    };
    std::thread other(half, 1);
    half(0);
    other.join();
  };
  int calls = 0;
  const ParallelFor counted = [&](int tasks, const std::function<void(int)>& body) {
    ++calls;
    two_threads(tasks, body);
  };
  const auto pose = [&](int i) { return serial.poses.at(i); };
  const auto one = serial.world.detect(pose, 0.05);
  const auto many = threaded.world.detect(pose, 0.05, nullptr, &counted);
  CHECK(calls == 1);
  REQUIRE(one.size() > 30);
  int on_mesh = 0;
  for (const Contact& c : one) on_mesh += c.body_b == 1 ? 1 : 0;
  CHECK(on_mesh > 0);
  REQUIRE(many.size() == one.size());
  for (std::size_t k = 0; k < one.size(); ++k) {
    INFO("contact " << k);
    CHECK(many[k].body_a == one[k].body_a);
    CHECK(many[k].body_b == one[k].body_b);
    CHECK(many[k].p_WCa == one[k].p_WCa);
    CHECK(many[k].p_WCb == one[k].p_WCb);
    CHECK(many[k].n_BA_W == one[k].n_BA_W);
    CHECK(many[k].gap == one[k].gap);
  }
}

// Skipped pairs (detect's PairFilter: the World skips a pair in reduced coordinates): the other
// contacts are those of the full detection, in the same order, and skipped_contacts() gives the
// skipped pair's contacts exactly as the full detection had them, on one thread or several.
TEST_CASE("a skipped pair: no contacts from detect, the same ones from skipped_contacts",
          "[collision]") {
  Scene s;
  s.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
  s.add(1,
        make_mesh({Vec3(2, -2, 0.001), Vec3(6, -2, 0.001), Vec3(6, 2, 0.001), Vec3(2, 2, 0.001)},
                  {{0, 1, 2}, {0, 2, 3}}, "floor"),
        Vec3::Zero(), Quat::Identity(), true);
  int body = 2;
  for (int i = 0; i < 12; ++i)
    for (int k = 0; k < 4; ++k) {  // columns of touching shapes on the plane and on the mesh
      const Vec3 x(-1.5 + 0.55 * i, 0.05 * (k % 2), 0.09 + 0.17 * k);
      const Quat q = axis_angle(0.05 * (i + k), Vec3(1, k, 2));
      if ((i + k) % 2 == 0)
        s.add(body++, make_box(Vec3(0.1, 0.12, 0.09)), x, q);
      else
        s.add(body++, make_sphere(0.09), x, q);
    }
  const auto pose = [&](int i) { return s.poses.at(i); };
  const std::vector<Contact> all = s.world.detect(pose, 0.05);
  REQUIRE(all.size() > 30);
  // skip a pair on the plane, a pair on the mesh and a pair of two free bodies
  std::vector<std::pair<int, int>> chosen;
  for (const Contact& c : all) {
    const bool plane = c.body_b == 0, mesh = c.body_b == 1, free = c.body_b > 1;
    const auto has = [&](auto test) {
      for (const auto& [a, b] : chosen)
        if (test(b)) return true;
      return false;
    };
    if ((plane && !has([](int b) { return b == 0; })) ||
        (mesh && !has([](int b) { return b == 1; })) || (free && !has([](int b) { return b > 1; })))
      chosen.emplace_back(c.body_a, c.body_b);
  }
  REQUIRE(chosen.size() == 3);
  const PairFilter skip = [&](int a, int b) {
    for (const auto& [x, y] : chosen)
      if ((a == x && b == y) || (a == y && b == x)) return true;
    return false;
  };
  const auto same = [](const Contact& x, const Contact& y) {
    return x.body_a == y.body_a && x.body_b == y.body_b && x.p_WCa == y.p_WCa &&
           x.p_WCb == y.p_WCb && x.n_BA_W == y.n_BA_W && x.gap == y.gap;
  };
  const ParallelFor two_threads = [](int tasks, const std::function<void(int)>& body_of) {
    std::thread other([&] {
      for (int t = 1; t < tasks; t += 2) body_of(t);
    });
    for (int t = 0; t < tasks; t += 2) body_of(t);
    other.join();
  };
  for (const ParallelFor* parallel : {static_cast<const ParallelFor*>(nullptr), &two_threads}) {
    const std::vector<Contact> rest = s.world.detect(pose, 0.05, nullptr, parallel, &skip);
    std::vector<Contact> expected;
    for (const Contact& c : all)
      if (!skip(c.body_a, c.body_b)) expected.push_back(c);
    REQUIRE(rest.size() == expected.size());
    for (std::size_t k = 0; k < rest.size(); ++k) CHECK(same(rest[k], expected[k]));
    for (const auto& [a, b] : chosen) {
      // asked in the other order: the same contacts, in detect's own order
      const std::vector<Contact> got = s.world.skipped_contacts(b, a);
      std::vector<Contact> want;
      for (const Contact& c : all)
        if (c.body_a == a && c.body_b == b) want.push_back(c);
      REQUIRE(!want.empty());
      REQUIRE(got.size() == want.size());
      for (std::size_t k = 0; k < got.size(); ++k) CHECK(same(got[k], want[k]));
    }
    CHECK(s.world.skipped_contacts(2, 49).empty());  // not a candidate pair
  }
  // the next call without a filter skips nothing and forgets the skipped pairs
  CHECK(s.world.detect(pose, 0.05).size() == all.size());
  CHECK(s.world.skipped_contacts(chosen[0].first, chosen[0].second).empty());
}

// A box resting across the edges of two others (a pyramid's upper level) has contact corners
// with equal x (an edge along y). Poses moved by a few units in the last place, as a resting
// body's are from step to step, must give the same order: comparing the exact x let rounding
// order those corners, the contacts changed places between steps, and the previous step's
// active set no longer fitted Lemke's warm start (issue #16, 13-level pyramid: 6000 pivots a
// step instead of 0).
TEST_CASE("the contact order does not depend on rounding of the poses", "[collision]") {
  const Vec3 half(0.1, 0.1, 0.05);
  auto build = [&](Scene& s, double nudge, const Quat& tilt) {
    s.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
    s.add(1, make_box(half), Vec3(-0.11, 0.0, 0.05), Quat::Identity());
    s.add(2, make_box(half), Vec3(0.11, 0.0, 0.05), Quat::Identity());
    s.add(3, make_box(half), Vec3(nudge, 0.0, 0.15 - nudge), tilt);
  };
  Scene reference;
  build(reference, 0.0, Quat::Identity());
  const auto first = reference.detect(0.01);
  REQUIRE(first.size() == 4 + 4 + 4 + 4);  // two boxes on the ground, the upper one on both
  int moved_orders = 0;
  for (int trial = 1; trial <= 40; ++trial) {
    // a few ulps of 0.1 and a rotation of about 1e-16 rad, different in every trial
    const double nudge = (trial % 2 ? 1.0 : -1.0) * (trial % 7) * 1.4e-17;
    const Quat tilt = axis_angle(1e-16 * trial, Vec3(trial % 3, 1.0, trial % 5 - 2.0));
    Scene s;
    build(s, nudge, tilt);
    const auto now = s.detect(0.01);
    REQUIRE(now.size() == first.size());
    bool same = true;
    for (std::size_t k = 0; k < first.size(); ++k)
      same = same && now[k].body_a == first[k].body_a && now[k].body_b == first[k].body_b &&
             (now[k].p_WCa - first[k].p_WCa).norm() < 1e-12;
    if (!same) ++moved_orders;
  }
  CHECK(moved_orders == 0);
}
