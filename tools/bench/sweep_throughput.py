#!/usr/bin/env python3
"""Sweep throughput (docs/sweeps.md "Cost model"): runs per second of the same sweep run
serially in one process, by `pivot sweep --local N`, and by pivot.sweep on a Dask LocalCluster
of N workers; the per-run overhead of each way, from a sweep of one-step runs; and the rate of
empty Dask tasks, the scheduler's ceiling. Not a test: it prints figures.

    PYTHONPATH=build/release/python PIVOT_CLI=build/release/bin/pivot \\
        python3 tools/bench/sweep_throughput.py [--workers 2] [--runs 48]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pivot
import pivot.sweep

ROOT = Path(__file__).resolve().parents[2]


def make_sweep(folder: Path, scene: str, duration: float, runs: int, name: str) -> Path:
    """`runs` variants of a shipped scene: its ground's friction over a range"""
    base = json.loads((ROOT / "scenes" / f"{scene}.json").read_text())
    base["settings"]["duration"] = duration
    (folder / f"{name}-base.json").write_text(json.dumps(base))
    sweep = {"scene": f"{name}-base.json",
             "parameters": {"/bodies/0/friction": {"from": 0.3, "to": 0.9, "count": runs}}}
    path = folder / f"{name}.json"
    path.write_text(json.dumps(sweep))
    return path


def serial(sweep_path: Path) -> float:
    sweep = pivot.sweep.load(sweep_path)
    start = time.perf_counter()
    for i in range(sweep.size):
        sweep.run_row(i)
    return sweep.size / (time.perf_counter() - start)


def local(sweep_path: Path, workers: int, out: Path) -> float:
    size = pivot.sweep.load(sweep_path).size
    start = time.perf_counter()
    subprocess.run([pivot.cli_path(), "sweep", str(sweep_path), "--local", str(workers), "--out",
                    str(out), "--quiet"], check=True)
    return size / (time.perf_counter() - start)


def dask(sweep_path: Path, client, out: Path) -> float:
    size = pivot.sweep.load(sweep_path).size
    start = time.perf_counter()
    pivot.sweep.run(sweep_path, client=client, out=out)
    return size / (time.perf_counter() - start)


def empty_task_rate(client, tasks: int) -> float:
    start = time.perf_counter()
    futures = client.map(int, range(tasks), pure=False)
    client.gather(futures)
    return tasks / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=48, help="runs per sweep")
    args = parser.parse_args()
    from dask.distributed import Client, LocalCluster

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start; "
          f"pivot {pivot.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        workloads = [("one step", make_sweep(tmp, "box_drop", 0.001, args.runs, "step")),
                     ("box_drop 0.3 s", make_sweep(tmp, "box_drop", 0.3, args.runs, "short")),
                     ("box_stack_10 1 s", make_sweep(tmp, "box_stack_10", 1.0, args.runs, "long"))]
        start = time.perf_counter()
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
        client.wait_for_workers(args.workers)
        startup = time.perf_counter() - start
        print(f"Dask LocalCluster of {args.workers} workers: {startup:.2f} s to start "
              f"(not counted below)\n")
        print(f"{'workload':<18} {'runs':>5} {'serial runs/s':>14} {'--local':>9} "
              f"{'Dask':>9}   (runs/s; --local and Dask with {args.workers} processes)")
        rates = {}
        for name, path in workloads:
            s = serial(path)
            l_rate = local(path, args.workers, tmp / f"local-{path.stem}")
            d_rate = dask(path, client, tmp / f"dask-{path.stem}")
            rates[name] = (s, l_rate, d_rate)
            print(f"{name:<18} {args.runs:>5} {s:>14.1f} {l_rate:>9.1f} {d_rate:>9.1f}")
        empty = empty_task_rate(client, 2000)
        client.close()
        cluster.close()

    s, l_rate, d_rate = rates["one step"]
    print(f"\nper-run overhead, from the one-step sweep (its run is {1e3 / s:.3f} ms serially):")
    print(f"  pivot sweep --local: {1e3 * args.workers / l_rate - 1e3 / s:.2f} ms per run and "
          f"process (fork, pipe, row)")
    print(f"  pivot.sweep on Dask: {1e3 * args.workers / d_rate - 1e3 / s:.2f} ms per run and "
          f"worker (task, scheduler, gather)")
    print(f"Dask scheduler: {empty:.0f} empty tasks/s through {args.workers} workers "
          f"({1e3 / empty:.2f} ms per task)")
    print(f"  workers that keep it busy for runs of T seconds: about {empty:.0f} x T "
          f"(e.g. {empty * 0.1:.0f} for 0.1 s runs, {empty * 1.0:.0f} for 1 s runs)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
