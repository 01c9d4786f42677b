// Warm steps and the heap: World::step keeps its buffers (assembly, islands, the small paths'
// factorizations and answers, the post-step, the warm starts) in a workspace it owns and reuses,
// so a scene whose contact set does not grow allocates only in the parts listed at the bounds
// below. This program replaces the global operator new to count every allocation (its own
// binary, so no other test sees it).
#include <catch2/catch.hpp>

#include <execinfo.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

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

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  trace_allocation();
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  return operator new(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
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
}

// The bound of each scene is what its warm steps still allocate, all of it outside the step's
// own workspace (engine/step_workspace.hpp), counted per step with PIVOT_TRACE_ALLOCATIONS:
//   collision detection: the broad phase's pair list, the narrow phase's manifolds (box faces
//     clipped polygon by polygon) and the contact list, 2 to 4 lists a detection, 2 or 3
//     detections a step (about 15 a step for the chain and sphere, 900 for the 10-box stack);
//   Lemke's method: its result (z, w, active set) and the warm start's basis solve and residual
//     check (3 to 5 a solve);
//   the force gradients of the character's muscles (compute_forces: the coupled body pairs and
//     the gradient's sparse assembly, about 19 a step).
// The step's own assembly, islands, M̃ (with the gradient's entries, in place), small-path
// factorizations (the body tree's, engine/equality_solve.hpp, for the character's joints) and
// answers, post-step and warm starts allocate nothing here. Before the workspace the same scenes
// allocated 58, 93, 141, 1192 and 533 times a step.
TEST_CASE("100 warm steps of the small scenes stay within their allocation bounds", "[alloc]") {
  struct Case {
    const char* file;
    long bound;  ///< allocations in 100 warm steps (see above)
  };
  const Case cases[] = {{"rolling_sphere.json", 2000},
                        {"incline_stick.json", 3400},
                        {"chain_6_links.json", 1800},
                        {"box_stack_10.json", 92600},
                        {"character_full_body.json", 4600}};
  for (const Case& c : cases) {
    INFO(c.file);
    const long n = allocations_of_warm_steps(c.file, 20, 100);
    CHECK(n <= c.bound);
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
