#!/usr/bin/env bash
# Instructions per step of the small scenes, Pivot against ODE's dWorldStep, counted by
# valgrind's callgrind: `pivot-bench small` runs under callgrind (every child process counted),
# and each engine's step function (the benchmark adapters' PivotSimulation::step and
# OdeSimulation::step: collision detection and the solve, what the time table measures) is
# summed with its calls. Unlike wall time on a shared machine, the counts repeat to the
# instruction from run to run, so the effect of a change on the small path can be read to 0.1 %
# where the timed ratios move by ±20 % (docs/benchmarks.md "Instruction counts").
#
#   tools/bench/instruction_counts.sh            # builds the bench preset's pivot-bench if needed
#
# Needs valgrind (apt-get install valgrind) and ODE (tools/setup.sh --bench). About 3 minutes:
# callgrind runs the code some 50 times slower, so every scene run is given a 3 s budget. The
# short scenes finish in it; the 10-box stack does not, and its count (over the steps that fit,
# shown in the table: per-step costs change as the stack settles) can move by ~0.5 % between
# runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed" >&2; exit 2; }
bench=build/bench/bin/pivot-bench
if [[ ! -x $bench ]]; then
  cmake --preset bench >/dev/null
  cmake --build --preset bench --target pivot_bench
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/cg.%p" \
  "$bench" --budget 3 small >"$work/out.md" 2>"$work/valgrind.log" ||
  { tail -20 "$work/valgrind.log" >&2; echo "$0: pivot-bench failed under valgrind" >&2; exit 1; }
python3 - "$work" <<'PY'
import glob, os, re, sys

work = sys.argv[1]
steps = {"pivot": "PivotSimulation::step()", "ode": "OdeSimulation::step()"}

def step_cost(path):
    """(engine, calls, inclusive instructions) of the engine step function in one callgrind file"""
    names, engine, calls, cost, pending = {}, None, 0, 0, None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
            if m:
                if m.group(2):
                    names[m.group(1)] = m.group(2).strip()
                target = None
                if line.startswith("cfn="):
                    name = names.get(m.group(1), "")
                    for key, suffix in steps.items():
                        if name.endswith(suffix):
                            target = key
                pending = target
                continue
            if pending and line.startswith("calls="):
                calls += int(line.split()[0].split("=")[1])
                engine = pending
                continue
            if pending and engine == pending and re.match(r"[+*-]|\d", line):
                cost += int(line.split()[1])
                pending = None
    return engine, calls, cost

runs = []
for path in glob.glob(os.path.join(work, "cg.*")):
    engine, calls, cost = step_cost(path)
    if engine and calls > 0:
        runs.append((int(path.rsplit(".", 1)[1]), engine, calls, cost))
runs.sort()
# the table of `pivot-bench small` names the scenes in the order they ran, Pivot then ODE
scenes = []
for line in open(os.path.join(work, "out.md"), encoding="utf-8"):
    if line.startswith("### 20-cube"):
        break
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if line.startswith("|") and len(cells) > 2 and cells[0] not in ("scene", "") and \
            not cells[0].startswith("-"):
        scenes.append(cells[0])
print("| scene | steps counted | Pivot instructions / step | ODE instructions / step | Pivot / ODE |")
print("| --- | ---: | ---: | ---: | ---: |")
for k, scene in enumerate(scenes):
    pair = runs[2 * k:2 * k + 2]
    if len(pair) < 2 or [r[1] for r in pair] != ["pivot", "ode"]:
        sys.exit(f"instruction_counts: the runs of '{scene}' were not found in order")
    p, o = (r[3] / r[2] for r in pair)
    steps = f"{pair[0][2]}" if pair[0][2] == pair[1][2] else f"{pair[0][2]}, {pair[1][2]}"
    print(f"| {scene} | {steps} | {p:,.0f} | {o:,.0f} | {p / o:.2f}× |")
PY
