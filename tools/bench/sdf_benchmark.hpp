#pragma once
// Contact generation of sdf shapes (docs/distributed-contact.md): the point shell's
// nested-tree traversal against brute force over every point and against Bullet's GImpact on
// the same two meshes (sdf_bullet.hpp, when compiled in), along a short motion, on dense pairs
// (peg in hole, sled over bumps, comb in slots) and sparse ones (the peg on a corner or an edge),
// with the thesis' Table 3.1 beside (Barbič 2007: 820 touching points of a 1.02M-point shell in
// 780 µs, brute force 80 ms, on a 2.66 GHz Core 2).

#include <filesystem>
#include <iosfwd>

namespace pivot::bench {

struct SdfBenchOptions {
  std::filesystem::path meshes;  ///< the folder of scenes/meshes
  int steps = 100;               ///< poses along the motion
  int points = 65536;            ///< shell size of the dense pair
};

void run_sdf_benchmark(const SdfBenchOptions& options, std::ostream& out);

}  // namespace pivot::bench
