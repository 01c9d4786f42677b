#pragma once
// A batch of cart-poles (docs/python.md "Batches of worlds", scenes/cart_pole.json): world-steps
// per second of a pivot::WorldBatch of 64 copies stepped on the thread pool, each copy under its
// own PD push on the cart (as pivot.Batch.step does, without Python), against the target of
// 100 000 world-steps per second on this machine's 2 cores; and the time of one world-step, wall
// and CPU (the process's CPU time over the world-steps: what a step costs a core, whatever else
// the machine runs). Every round starts with WorldBatch::reset. Prints a Markdown table.

#include <iosfwd>
#include <string>

namespace pivot::bench {

struct ControlBenchOptions {
  std::string scene;            ///< scenes/cart_pole.json
  int worlds = 64;              ///< the batch size
  int steps_per_call = 10;      ///< WorldBatch::step's steps per call
  double budget_seconds = 3.0;  ///< wall time per thread count (at least one round)
};

void run_control_benchmark(const ControlBenchOptions& options, std::ostream& out);

}  // namespace pivot::bench
