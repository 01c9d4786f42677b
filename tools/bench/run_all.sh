#!/usr/bin/env bash
# Builds the `bench` preset (if needed) and runs every benchmark of pivot-bench: the LCP solvers,
# the scenes and the scaling, printing Markdown tables. A few minutes on 2 cores.
#   tools/bench/run_all.sh                 everything
#   tools/bench/run_all.sh --quick         a smoke run (small pyramids, few repeats)
#   tools/bench/run_all.sh lcp             one part (lcp, scenes, scaling); see pivot-bench --help
# Peers are optional: `tools/setup.sh --bench` installs them; missing ones are listed and skipped.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
if [[ ! -f build/bench/build.ninja ]]; then
  cmake --preset bench >/dev/null
fi
cmake --build --preset bench -j "${PIVOT_BENCH_JOBS:-1}" --target pivot_bench >/dev/null
exec build/bench/bin/pivot-bench "$@"
