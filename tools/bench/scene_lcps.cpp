#include "scene_lcps.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <ostream>

#include "pivot/lcp/lcp_io.hpp"
#include "pivot/lcp/mixed_lcp.hpp"
#include "scene_spec.hpp"
#include "sim_pivot.hpp"

namespace pivot::bench {
namespace {

struct Dump {
  std::string file_stem;  ///< pivot_<this>_step<k>.dat
  SceneCase scene;
  std::vector<int> steps;  ///< 1-based step numbers whose LCPs are written
};

lcp::MixedLcpProblem to_dense(const lcp::SparseMixedLcpProblem& p) {
  return {p.P.toDense(), p.Q.toDense(), p.K.toDense(), p.S.toDense(), p.u, p.v, p.name};
}

}  // namespace

std::vector<std::filesystem::path> write_scene_lcps(const std::filesystem::path& dir,
                                                    std::ostream& log) {
  std::filesystem::create_directories(dir);
  const std::vector<Dump> dumps{
      {"incline_stick", incline_case(false), {1, 200}},
      {"incline_slide", incline_case(true), {200}},
      {"sphere", rolling_sphere_case(), {1, 500}},
      {"stack10", stack_case(10), {1, 30}},
      {"pyramid3", pyramid_case(3), {1, 30}},
      {"pyramid4", pyramid_case(4), {1, 30}},
      {"pyramid5", pyramid_case(5), {1, 30}},
  };
  std::vector<std::filesystem::path> written;
  for (const Dump& d : dumps) {
    World world = build_pivot_world(d.scene.spec, true);
    const int last = *std::max_element(d.steps.begin(), d.steps.end());
    for (int k = 1; k <= last; ++k) {
      world.step();
      if (std::find(d.steps.begin(), d.steps.end(), k) == d.steps.end()) continue;
      const auto& islands = world.recorded_lcps();
      for (std::size_t i = 0; i < islands.size(); ++i) {
        lcp::LcpProblem problem = lcp::reduce_mixed_lcp(to_dense(islands[i]));
        if (problem.q.size() == 0) continue;
        const std::string stem = islands.size() == 1
                                     ? fmt::format("pivot_{}_step{}", d.file_stem, k)
                                     : fmt::format("pivot_{}_step{}_island{}", d.file_stem, k, i);
        const auto path = dir / (stem + ".dat");
        lcp::write_lcp_file(
            path, problem,
            fmt::format("Pivot {} (h = {} s), step {}, island {}: the dynamics LCP after the "
                        "Schur reduction of the free velocities; {} contacts in the step",
                        d.scene.spec.name, d.scene.spec.time_step, k, i,
                        world.last_report().contacts));
        // as the engine solves it (sparse reduction, cold start), for comparison with the table
        const lcp::MixedLcpResult engine = lcp::solve_mixed_lcp(islands[i]);
        log << fmt::format(
            "- wrote {} (n = {}; Pivot's sparse mixed solve of it, cold: {}, {} "
            "pivots)\n",
            path.filename().string(), problem.q.size(), lcp::to_string(engine.lcp.status),
            engine.lcp.pivots);
        written.push_back(path);
      }
    }
  }
  return written;
}

}  // namespace pivot::bench
