"""Sweeps of many runs on Dask distributed (docs/sweeps.md).

    import pivot.sweep
    table = pivot.sweep.run("scenes/sweeps/box_drop_grid.json", out="sweep-out")   # a DataFrame

or, from a shell, on a running Dask scheduler (or a LocalCluster when no address is given):

    python3 -m pivot.sweep SWEEP.json [--scheduler ADDRESS] [--workers N] --out DIR

The sweep file is read, expanded and run by the library, through pivot._pivot.load_sweep, as
`pivot sweep --local N` does: the same variants, the same rows, the same results.csv byte for
byte. Each variant is one Dask task that returns its results.csv line. A variant whose scene is
invalid or whose run fails is a row with its status and error; a worker lost while it runs a
task has the task run again on another worker by the scheduler (runs are deterministic, so the
row is the same); a task whose workers keep dying (distributed.scheduler.allowed-failures) is a
row with status "crashed". Rows are appended to DIR/results.csv as tasks end, so a sweep
resumes from its partial table; when all have run the table is rewritten in index order.
"""

from __future__ import annotations

import argparse
import functools
import os
import subprocess
import sys
import time
from pathlib import Path

from . import _pivot

__all__ = ["load", "run", "main"]


def load(path: str | os.PathLike) -> _pivot.Sweep:
    """The sweep file, read and checked (pivot.Error with its JSON pointer when it is not)."""
    return _pivot.load_sweep(os.fspath(path))


@functools.lru_cache(maxsize=8)
def _cached(path: str, mtime_ns: int) -> _pivot.Sweep:
    return _pivot.load_sweep(path)


def _run_variant(path: str, index: int, runs_dir: str | None) -> str:
    """One task: variant `index` of the sweep at `path` (the same path on every worker: a
    shared folder), its results.csv line; with runs_dir, also its run folder."""
    sweep = _cached(path, os.stat(path).st_mtime_ns)
    if runs_dir is not None:
        _write_run_folder(sweep, index, Path(runs_dir) / f"{index:06d}")
    return sweep.run_row(index)


def _write_run_folder(sweep: _pivot.Sweep, index: int, folder: Path) -> None:
    """`pivot run`'s files for the variant, and scene.json, its scene as `pivot check` prints
    it, as `pivot sweep --keep-runs` writes them; nothing for an invalid or failing variant."""
    from . import cli_path
    try:
        scene = sweep.resolved_variant_scene(index)
    except _pivot.Error:
        return
    folder.parent.mkdir(parents=True, exist_ok=True)
    scene_file = folder.parent / f".{folder.name}.scene-{os.getpid()}.json"
    scene_file.write_text(scene)
    try:
        done = subprocess.run([cli_path(), "run", str(scene_file), "--out", str(folder),
                               "--quiet", "--threads", "1"], capture_output=True)
        # a failed run leaves no folder (pivot run writes all or nothing), and so no scene.json
        if done.returncode == 0:
            os.replace(scene_file, folder / "scene.json")
    finally:
        if scene_file.exists():
            scene_file.unlink()


def _write_atomically(file: Path, text: str) -> None:
    partial = file.parent / f".{file.name}.partial-{os.getpid()}"
    with open(partial, "w", newline="") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(partial, file)


def _status_counts(sweep: _pivot.Sweep, rows: dict[int, str]) -> dict[str, int]:
    import csv
    column = 1 + len(sweep.pointers)
    counts: dict[str, int] = {}
    for line in rows.values():
        status = next(csv.reader([line]))[column]
        counts[status] = counts.get(status, 0) + 1
    return counts


def run(path: str | os.PathLike, client=None, out: str | os.PathLike | None = None,
        workers: int | None = None, keep_runs: bool = False, progress: bool = False):
    """Runs the sweep on Dask and returns results.csv as a pandas DataFrame (one row per
    variant, in index order; final_state_hash and error as strings).

    client: a dask.distributed.Client; None starts a LocalCluster of `workers` processes (every
    core by default), one thread each, closed at the end. out: the folder of results.csv
    (resumed when a partial one is there); None keeps the table in memory only. keep_runs: also
    write each variant's run folder into out/runs/<index> (out must be a folder every worker
    can write, e.g. a shared file system). progress: a line per finished run on stderr.
    """
    path = os.path.abspath(os.fspath(path))
    sweep = load(path)  # a bad sweep file is an error before Dask starts

    import io

    import pandas
    from dask.distributed import Client, LocalCluster, as_completed

    rows: dict[int, str] = {}
    table = None
    if out is not None:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        table = folder / "results.csv"
        rows = dict(sweep.read_results(str(table)))
        _write_atomically(table, sweep.header + "".join(rows[i] for i in sorted(rows)))
    elif keep_runs:
        raise ValueError("keep_runs needs out")
    todo = [i for i in range(sweep.size) if i not in rows]
    if progress and rows:
        print(f"pivot.sweep: resuming: {len(rows)} of {sweep.size} runs already in {table}",
              file=sys.stderr)
    runs_dir = str(Path(out).resolve() / "runs") if keep_runs else None

    own = client is None
    cluster = None
    if own:
        cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    start = time.monotonic()
    step = max(1, sweep.size // 10)  # progress lines when stderr is not a terminal
    try:
        futures = {client.submit(_run_variant, path, i, runs_dir, pure=False, retries=2): i
                   for i in todo}
        append = open(table, "a", newline="") if table is not None else None
        try:
            for future in as_completed(futures):
                index = futures[future]
                try:
                    line = future.result()
                except Exception as e:  # KilledWorker: its workers kept dying
                    line = sweep.error_row(index, "crashed",
                                           f"{type(e).__name__}: {e}".replace("\n", " "))
                rows[index] = line
                if append is not None:
                    append.write(line)
                    append.flush()
                if progress and (sys.stderr.isatty() or len(rows) % step == 0):
                    end = "\r" if sys.stderr.isatty() else "\n"
                    print(f"pivot.sweep: {len(rows)}/{sweep.size} runs", end=end, file=sys.stderr)
        finally:
            if append is not None:
                append.close()
    finally:
        if own:
            client.close()
            cluster.close()
    seconds = time.monotonic() - start
    text = sweep.header + "".join(rows[i] for i in sorted(rows))
    if table is not None:
        _write_atomically(table, text)
    if progress:
        counts = ", ".join(f"{n} {s}" for s, n in sorted(_status_counts(sweep, rows).items()))
        rate = len(todo) / seconds if seconds > 0 else 0.0
        print(f"pivot.sweep: {sweep.size} runs ({counts}); {len(todo)} run now in {seconds:.3g} s "
              f"({rate:.3g} runs/s)" + (f"; {table}" if table is not None else ""),
              file=sys.stderr)
    return pandas.read_csv(io.StringIO(text), dtype={"final_state_hash": str, "error": str,
                                                     "status": str},
                           keep_default_na=False, na_values={c: [""] for c in sweep.columns
                                                             if c not in ("error", "status",
                                                                          "final_state_hash")})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m pivot.sweep",
        description="Runs a sweep file's variants on Dask distributed into DIR/results.csv "
                    "(docs/sweeps.md).")
    parser.add_argument("sweep", help="the sweep file")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="a Dask scheduler's address (tcp://host:8786); default: a "
                             "LocalCluster on this machine")
    parser.add_argument("--workers", type=int, metavar="N",
                        help="LocalCluster worker processes (default: every core)")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="folder of results.csv; a results.csv already there is resumed")
    parser.add_argument("--keep-runs", action="store_true",
                        help="also write each run's folder into DIR/runs/<index>")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    if args.workers is not None and args.workers < 1:
        parser.error("--workers: expected an integer >= 1")
    if args.scheduler and args.workers is not None:
        parser.error("--workers is for the LocalCluster; a scheduler has its own workers")
    try:
        client = None
        if args.scheduler:
            from dask.distributed import Client
            client = Client(args.scheduler)
        try:
            run(args.sweep, client=client, out=args.out, workers=args.workers,
                keep_runs=args.keep_runs, progress=not args.quiet)
        finally:
            if client is not None:
                client.close()
    except _pivot.Error as e:
        print(f"pivot.sweep: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    # run as the module pivot.sweep, not as __main__, so that Dask's workers find the task
    # function by its module's name
    from pivot import sweep as _sweep
    sys.exit(_sweep.main())
