// pivot-bench speed, "Free bodies": see free_bodies_benchmark.hpp.
#include "free_bodies_benchmark.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ostream>
#include <string>

#include "pivot/engine/world.hpp"
#include "report.hpp"

namespace pivot::bench {

void run_free_bodies_benchmark(const FreeBodiesOptions& o, std::ostream& out) {
  using Clock = std::chrono::steady_clock;
  out << fmt::format(
      "### Free bodies without shapes\n\nN bodies of 1 kg falling under gravity, no shapes, no "
      "joints (N islands of one body); median of {} steps of h = 1 ms after one untimed step, one "
      "thread. Every per-step cost should be linear in N.\n\n",
      o.steps);
  Table table;
  table.header = {"bodies", "median step ms", "µs per body"};
  table.right = {true, true, true};
  std::vector<double> bodies, times;
  for (const int n : o.counts) {
    WorldSettings settings;
    settings.threads = 1;
    World world(settings);
    for (int i = 0; i < n; ++i) {
      BodySettings b;
      b.name = "b" + std::to_string(i);
      b.mass = 1.0;
      b.inertia_diag = Vec3(0.01, 0.01, 0.01);
      b.p_WS = Vec3(static_cast<double>(i % 100), static_cast<double>(i / 100 % 100),
                    static_cast<double>(i / 10000));
      (void)world.add_body(b);
    }
    (void)world.step();  // the first step allocates
    std::vector<double> step_seconds;
    for (int k = 0; k < o.steps; ++k) {
      const auto t0 = Clock::now();
      (void)world.step();
      step_seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::sort(step_seconds.begin(), step_seconds.end());
    const double median = step_seconds[step_seconds.size() / 2];
    table.add({format_number(n), format_ms(median),
               fmt::format("{:.3f}", 1e6 * median / static_cast<double>(n))});
    bodies.push_back(n);
    times.push_back(median);
    out.flush();
  }
  table.print(out);
  const PowerFit fit = fit_power_law(bodies, times);
  out << fmt::format("\nFitted exponent of the step time against N: {}\n\n",
                     fit.ok ? fmt::format("{:.2f}", fit.exponent) : "—");
}

}  // namespace pivot::bench
