// Warm steps and the heap: World::step keeps its buffers (assembly, islands, the small paths'
// factorizations and answers, the post-step, the warm starts) in a workspace it owns and reuses,
// so a scene whose contact set does not grow allocates only in the parts listed at the bounds
// below. This program replaces the global operator new and the C library's malloc and realloc
// (which Eigen's dynamic matrices and Bullet use) to count every allocation (its own binary, so
// no other test sees it; glibc's __libc_malloc and __libc_realloc do the work).
#include <catch2/catch.hpp>

#include <Eigen/Core>

#include <execinfo.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "pivot/collision/collision_world.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/scene.hpp"
#include "support/test_data.hpp"

namespace {
std::atomic<long> g_allocations{0};
// the profiling aid below: each allocation's call stack, as raw addresses, to this descriptor
int g_trace_fd = -1;
thread_local bool g_tracing = false;

void trace_allocation() {
  if (g_trace_fd < 0 || g_tracing) return;
  g_tracing = true;
  void* frames[16];
  const int n = backtrace(frames, 16);
  char line[16 * 20 + 2];
  int at = 0;
  for (int k = 1; k < n; ++k)
    at += std::snprintf(line + at, sizeof line - static_cast<std::size_t>(at), "%p ", frames[k]);
  line[at++] = '\n';
  (void)!write(g_trace_fd, line, static_cast<std::size_t>(at));
  g_tracing = false;
}
}  // namespace

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_realloc(void* p, std::size_t size);

void* malloc(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  trace_allocation();
  return __libc_malloc(size);
}
void* realloc(void* p, std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  trace_allocation();
  return __libc_realloc(p, size);
}
}

// through malloc above, which counts them
void* operator new(std::size_t size) {
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  return operator new(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t& t) noexcept {
  return operator new(size, t);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

namespace pivot {
namespace {

// heap allocations of `steps` steps after `warm` steps of the shipped scene
long allocations_of_warm_steps(const std::string& file, int warm, int steps) {
  World world = build_world(load_scene(test::source_scenes_dir() / file));
  for (int k = 0; k < warm; ++k) world.step();
  const long before = g_allocations.load();
  for (int k = 0; k < steps; ++k) world.step();
  return g_allocations.load() - before;
}

}  // namespace

TEST_CASE("the counter sees an allocation", "[alloc]") {
  const long before = g_allocations.load();
  auto* p = new std::string(100, 'x');
  CHECK(g_allocations.load() - before >= 1);
  delete p;
  // an Eigen dynamic vector's storage (Eigen's aligned malloc, not operator new)
  const long eigen_before = g_allocations.load();
  Eigen::VectorXd v(1000);
  v.setOnes();
  CHECK(g_allocations.load() - eigen_before >= 1);
  CHECK(v.sum() == 1000.0);
}

// A warm collision detection allocates nothing: the world's candidate pairs and per-pair lists
// keep their memory, the manifolds of boxes, spheres, capsules and planes live in inline lists
// (collision/polytope.hpp's ContactPoints and PointList), and the contacts go into the caller's
// list. Boxes resting on boxes and on a floor (face clipping, manifold reduction), a sphere
// and a capsule on the floor, a sphere on a box.
TEST_CASE("a warm collision detection of boxes, spheres and capsules allocates nothing",
          "[alloc]") {
  CollisionWorld world;
  std::vector<Pose> poses;
  auto add = [&](const ShapePtr& shape, const Vec3& x, const Quat& q, bool fixed) {
    CollisionObjectSettings s;
    s.body = static_cast<int>(poses.size());
    s.shape = shape;
    s.fixed = fixed;
    world.add(s);
    poses.push_back(Pose{x, q});
  };
  add(make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
  const ShapePtr box = make_box(Vec3(0.1, 0.1, 0.1));
  for (int k = 0; k < 5; ++k)  // a stack, each box turned a little about z
    add(box, Vec3(0.001 * k, 0.0, 0.1 + 0.2 * k), Quat(Eigen::AngleAxisd(0.05 * k, Vec3::UnitZ())),
        false);
  add(make_sphere(0.1), Vec3(1.0, 0.0, 0.1), Quat::Identity(), false);
  add(make_capsule(0.05, 0.2), Vec3(-1.0, 0.0, 0.05),
      Quat(Eigen::AngleAxisd(0.5 * 3.141592653589793, Vec3::UnitX())), false);
  add(make_sphere(0.05), Vec3(0.004, 0.0, 1.05), Quat::Identity(), false);  // on the top box
  const auto pose = [&](int i) { return poses[static_cast<std::size_t>(i)]; };
  std::vector<Contact> contacts;
  world.detect_into(contacts, pose, 0.01);
  const std::size_t first = contacts.size();
  // 4 corners per box face (5 faces down), 1 for each sphere, 2 for the capsule
  REQUIRE(first == 5 * 4 + 1 + 2 + 1);
  const long before = g_allocations.load();
  for (int k = 0; k < 10; ++k) world.detect_into(contacts, pose, 0.01);
  CHECK(g_allocations.load() - before == 0);
  CHECK(contacts.size() == first);
}

// Every scene below allocates nothing in its warm steps (operator new, malloc and realloc
// alike: Eigen's dynamic matrices allocate through malloc; PIVOT_TRACE_ALLOCATIONS shows where
// one comes from). Collision detection, the forces and their gradients' sparse term (its pattern
// kept, engine/force_gradient.hpp), the contact and joint rows, the islands, the contact islands'
// reduction, the small islands' scratch (one per island shape and thread), the LCP answers
// (reused results, lcp/lemke.hpp), the warm start's block solve (lcp/block_solve.hpp), the
// residual check and its certificate, the post-step and the warm starts keep their memory.
TEST_CASE("100 warm steps of the small scenes and the character allocate nothing", "[alloc]") {
  for (const char* file : {"rolling_sphere.json", "incline_stick.json", "chain_6_links.json",
                           "box_stack_10.json", "character_full_body.json"}) {
    INFO(file);
    CHECK(allocations_of_warm_steps(file, 20, 100) == 0);
  }
}

// a profiling aid, hidden from the test run: PIVOT_PROFILE_SCENE=file PIVOT_PROFILE_STEPS=n
TEST_CASE("steps of one scene for a profiler", "[.profile]") {
  const char* file = std::getenv("PIVOT_PROFILE_SCENE");
  const char* steps = std::getenv("PIVOT_PROFILE_STEPS");
  if (!file) return;
  World world = build_world(load_scene(test::source_scenes_dir() / file));
  const int n = steps ? std::atoi(steps) : 10000;
  for (int k = 0; k < n; ++k) world.step();
  // PIVOT_TRACE_ALLOCATIONS=file: the call stacks of one more step's allocations
  if (const char* trace = std::getenv("PIVOT_TRACE_ALLOCATIONS")) {
    void* warm[2];
    backtrace(warm, 2);  // its first call loads libgcc
    g_trace_fd = open(trace, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    world.step();
    close(g_trace_fd);
    g_trace_fd = -1;
  }
}

}  // namespace pivot
