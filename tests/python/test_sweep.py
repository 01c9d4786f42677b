"""Tests of sweeps (docs/sweeps.md): `pivot sweep --local`, pivot.sweep on a Dask LocalCluster,
and runs of `pivot run --set` one by one give the same table; failing variants are rows; a
killed process or Dask worker does not change the final table; a partial results.csv resumes;
random mode is reproducible and in bounds; errors carry their JSON pointer. Run by CTest with
the built module on PYTHONPATH and the built `pivot` in PIVOT_CLI, one test class per test."""

import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

import pivot
import pivot.sweep

SCENES = Path(os.environ.get("PIVOT_SCENES_DIR", Path(__file__).resolve().parents[2] / "scenes"))


def write_json(path, value):
    Path(path).write_text(json.dumps(value, indent=1))
    return Path(path)


def base_scene(folder, name, duration):
    """a shipped scene with a shorter duration, as base.json in `folder`"""
    scene = json.loads((SCENES / f"{name}.json").read_text())
    scene["settings"]["duration"] = duration
    return write_json(Path(folder) / "base.json", scene)


def grid_24(folder):
    """24 runs of box_drop, 0.3 s: 8 of them with a negative mass (invalid)"""
    base_scene(folder, "box_drop", 0.3)
    return write_json(Path(folder) / "grid.json", {
        "scene": "base.json",
        "parameters": {"/bodies/1/mass": [1.0, 2.0, -1.0],
                       "/bodies/1/friction": [0.2, 0.8],
                       "/settings/dt": {"from": 0.001, "to": 0.004, "count": 4}},
        "keep": {"summary": ["steps", "energy.final.total"], "metrics": ["contacts"],
                 "final_state": True}})


def slow_grid(folder):
    """24 runs of box_stack_10, 0.6 s (about 0.25 s each): long enough to kill a worker
    while the sweep runs"""
    base_scene(folder, "box_stack_10", 0.6)
    return write_json(Path(folder) / "slow.json", {
        "scene": "base.json",
        "parameters": {"/bodies/0/friction": [0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
                       "/settings/dt": [0.004, 0.005], "/bodies/1/mass": [1.0, 1.5]}})


def cli_sweep(sweep, out, *extra, check=True):
    done = subprocess.run([pivot.cli_path(), "sweep", str(sweep), "--out", str(out), *extra],
                          capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"pivot sweep failed: {done.stderr}")
    return done


def rows(table):
    with open(table, newline="") as f:
        return list(csv.DictReader(f))


def children(pid):
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


class Tables(unittest.TestCase):
    def test_local_dask_and_serial_runs_give_the_same_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = grid_24(tmp)
            cli_sweep(sweep, Path(tmp) / "local", "--local", "2", "--quiet")
            local = (Path(tmp) / "local" / "results.csv").read_text()
            frame = pivot.sweep.run(sweep, workers=2, out=Path(tmp) / "dask")
            self.assertEqual((Path(tmp) / "dask" / "results.csv").read_text(), local)

            table = rows(Path(tmp) / "local" / "results.csv")
            self.assertEqual([int(r["index"]) for r in table], list(range(24)))
            self.assertEqual(len(frame), 24)
            self.assertEqual(list(frame["final_state_hash"]), [r["final_state_hash"] for r in table])
            self.assertEqual(sorted({r["status"] for r in table}), ["invalid", "ok"])
            # 24 serial `pivot run --set` runs, the reference: the same hash, or exit 2 with the
            # same complaint for the invalid ones
            for r in table:
                sets = []
                for pointer in ("/bodies/1/mass", "/bodies/1/friction", "/settings/dt"):
                    sets += ["--set", f"{pointer}={r[pointer]}"]
                out = Path(tmp) / "serial" / r["index"]
                done = subprocess.run([pivot.cli_path(), "run", str(Path(tmp) / "base.json"),
                                       *sets, "--out", str(out), "--quiet", "--threads", "1",
                                       "--no-forces"], capture_output=True, text=True)
                with self.subTest(index=r["index"]):
                    if float(r["/bodies/1/mass"]) < 0:
                        self.assertEqual(r["status"], "invalid")
                        self.assertEqual(done.returncode, 2)
                        self.assertIn("/bodies/1/mass: expected a positive number", r["error"])
                        self.assertIn("/bodies/1/mass: expected a positive number", done.stderr)
                        self.assertEqual(r["final_state_hash"], "")
                    else:
                        self.assertEqual(done.returncode, 0, done.stderr)
                        summary = json.loads((out / "summary.json").read_text())
                        self.assertEqual(r["status"], "ok")
                        self.assertEqual(r["final_state_hash"], summary["final_state_hash"])
                        self.assertEqual(int(r["summary.steps"]), summary["steps"])
                        self.assertEqual(float(r["summary.energy.final.total"]),
                                         summary["energy"]["final"]["total"])
                        box = next(b for b in summary["final_state"] if b["body"] == "box")
                        self.assertEqual(float(r["final.box.z"]), box["z"])

    def test_keep_runs_folders_hold_the_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = grid_24(tmp)
            cli_sweep(sweep, Path(tmp) / "local", "--local", "2", "--quiet", "--keep-runs")
            table = rows(Path(tmp) / "local" / "results.csv")
            for r in table:
                folder = Path(tmp) / "local" / "runs" / f"{int(r['index']):06d}"
                if r["status"] != "ok":
                    self.assertFalse(folder.exists())
                    continue
                summary = json.loads((folder / "summary.json").read_text())
                self.assertEqual(summary["final_state_hash"], r["final_state_hash"])
                self.assertTrue((folder / "trajectory.csv").is_file())
                # its scene.json reruns to the same hash
                again = pivot.run(str(folder / "scene.json"))
                self.assertEqual(again["final_state_hash"], r["final_state_hash"])
            # Dask writes the same folders
            pivot.sweep.run(sweep, workers=2, out=Path(tmp) / "dask", keep_runs=True)
            self.assertEqual((Path(tmp) / "dask" / "results.csv").read_text(),
                             (Path(tmp) / "local" / "results.csv").read_text())
            for r in table:
                name = f"{int(r['index']):06d}"
                dask_folder = Path(tmp) / "dask" / "runs" / name
                self.assertEqual(dask_folder.exists(), r["status"] == "ok")
                if r["status"] == "ok":
                    for file in ("scene.json", "trajectory.csv"):
                        self.assertEqual((dask_folder / file).read_text(),
                                         (Path(tmp) / "local" / "runs" / name / file).read_text())


class Failures(unittest.TestCase):
    def test_a_killed_local_process_is_a_crashed_row_and_a_resume_reruns_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = slow_grid(tmp)
            reference = Path(tmp) / "reference"
            cli_sweep(sweep, reference, "--local", "2", "--quiet")
            out = Path(tmp) / "killed"
            process = subprocess.Popen([pivot.cli_path(), "sweep", str(sweep), "--out", str(out),
                                        "--local", "2", "--quiet"], stderr=subprocess.PIPE,
                                       text=True)
            victim = None
            deadline = time.monotonic() + 30
            while victim is None and time.monotonic() < deadline and process.poll() is None:
                running = children(process.pid)
                if running:
                    victim = running[0]
                    os.kill(victim, signal.SIGKILL)
                time.sleep(0.01)
            process.wait(timeout=60)
            self.assertIsNotNone(victim, "no worker process was seen")
            self.assertEqual(process.returncode, 0)
            crashed = [r for r in rows(out / "results.csv") if r["status"] == "crashed"]
            self.assertEqual(len(crashed), 1)
            self.assertIn("killed by signal 9", crashed[0]["error"])
            # the others are the reference's rows; a resume runs the crashed one again
            done = cli_sweep(sweep, out, "--local", "2")
            self.assertIn("resuming: 23 of 24 runs", done.stderr)
            self.assertEqual((out / "results.csv").read_text(),
                             (reference / "results.csv").read_text())


    def test_a_value_beyond_the_load_limits_is_an_invalid_row(self):
        # a speed of 1e300 m/s used to make the state non-finite at step 1; the loader now
        # refuses it (docs/limits.md), so the variant is an invalid row naming the limit, and
        # pivot run of the same scene refuses it alike (exit 2)
        with tempfile.TemporaryDirectory() as tmp:
            base_scene(tmp, "box_drop", 0.1)
            sweep = write_json(Path(tmp) / "blowup.json", {
                "scene": "base.json", "parameters": {"/bodies/1/velocity": [[0, 0, -2],
                                                                           [0, 0, -1e300]]}})
            out = Path(tmp) / "out"
            cli_sweep(sweep, out, "--local", "2", "--quiet")
            table = rows(out / "results.csv")
            self.assertEqual([r["status"] for r in table], ["ok", "invalid"])
            self.assertIn("/bodies/1/velocity/2", table[1]["error"])
            self.assertIn("beyond the limit", table[1]["error"])
            self.assertEqual(table[1]["final_state_hash"], "")
            done = subprocess.run([pivot.cli_path(), "run", str(Path(tmp) / "base.json"), "--set",
                                   "/bodies/1/velocity=[0,0,-1e300]", "--out",
                                   str(Path(tmp) / "run"), "--quiet"], capture_output=True,
                                  text=True)
            self.assertEqual(done.returncode, 2)
            self.assertIn("beyond the limit", done.stderr)

    def test_a_run_past_the_timeout_is_a_failed_row_not_run_again(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = slow_grid(tmp)  # runs of about 0.25 s, each far past 0.02 s
            out = Path(tmp) / "out"
            cli_sweep(sweep, out, "--local", "2", "--quiet", "--timeout", "0.02")
            table = rows(out / "results.csv")
            self.assertEqual(len(table), 24)
            for r in table:
                self.assertEqual(r["status"], "failed")
                self.assertIn("took longer than --timeout 0.02 s", r["error"])
            done = cli_sweep(sweep, out, "--local", "2", "--timeout", "0.02")
            self.assertIn("resuming: 24 of 24 runs", done.stderr)


class WorkerLoss(unittest.TestCase):
    def test_a_dask_worker_killed_during_the_sweep_does_not_change_the_table(self):
        from dask.distributed import Client, LocalCluster
        with tempfile.TemporaryDirectory() as tmp:
            sweep = slow_grid(tmp)
            reference = Path(tmp) / "reference"
            cli_sweep(sweep, reference, "--local", "2", "--quiet")
            out = Path(tmp) / "dask"
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                pids = client.run(os.getpid)
                result = {}
                runner = threading.Thread(target=lambda: result.update(
                    frame=pivot.sweep.run(sweep, client=client, out=out)))
                runner.start()
                killed = None
                deadline = time.monotonic() + 40
                while killed is None and time.monotonic() < deadline and runner.is_alive():
                    table = out / "results.csv"
                    done_rows = len(table.read_text().splitlines()) - 1 if table.exists() else 0
                    busy = [w for w, keys in client.processing().items() if keys]
                    if done_rows >= 3 and busy:
                        killed = pids[busy[0]]
                        rows_at_kill = done_rows
                        os.kill(killed, signal.SIGKILL)
                    time.sleep(0.02)
                runner.join(timeout=120)
            self.assertIsNotNone(killed, "no busy worker was seen")
            self.assertLess(rows_at_kill, 24)
            self.assertEqual(len(result["frame"]), 24)
            self.assertEqual((out / "results.csv").read_text(),
                             (reference / "results.csv").read_text())


class Resume(unittest.TestCase):
    def test_a_truncated_table_resumes_to_the_same_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = grid_24(tmp)
            reference = Path(tmp) / "reference"
            cli_sweep(sweep, reference, "--local", "2", "--quiet")
            full = (reference / "results.csv").read_text()
            lines = full.splitlines(keepends=True)
            # header, 10 rows in another order than the index's, half of an 11th row
            partial = lines[0] + "".join(lines[1:11][::-1]) + lines[11][: len(lines[11]) // 2]
            for name in ("local", "dask"):
                out = Path(tmp) / name
                out.mkdir()
                (out / "results.csv").write_text(partial)
            done = cli_sweep(sweep, Path(tmp) / "local", "--local", "2")
            self.assertIn("resuming: 10 of 24 runs", done.stderr)
            self.assertEqual((Path(tmp) / "local" / "results.csv").read_text(), full)
            pivot.sweep.run(sweep, workers=2, out=Path(tmp) / "dask")
            self.assertEqual((Path(tmp) / "dask" / "results.csv").read_text(), full)

    def test_rows_already_there_are_not_run_again(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = grid_24(tmp)
            out = Path(tmp) / "out"
            cli_sweep(sweep, out, "--local", "2", "--quiet")
            lines = (out / "results.csv").read_text().splitlines(keepends=True)
            # a row marked by hand survives the resume: it was not run again
            marked = lines[3].replace(rows(out / "results.csv")[2]["final_state_hash"], "marked")
            (out / "results.csv").write_text(lines[0] + marked)
            cli_sweep(sweep, out, "--local", "2", "--quiet")
            table = rows(out / "results.csv")
            self.assertEqual(len(table), 24)
            self.assertEqual(table[2]["final_state_hash"], "marked")

    def test_shards_joined_and_resumed_give_the_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = grid_24(tmp)
            cli_sweep(sweep, Path(tmp) / "reference", "--local", "2", "--quiet")
            shards = [Path(tmp) / "shards" / str(k) for k in range(5)]
            for k, folder in enumerate(shards[:4]):  # shard 4 of 5 "ran out of time"
                cli_sweep(sweep, folder, "--shard", f"{k}/5", "--local", "1", "--quiet")
                indices = [int(r["index"]) for r in rows(folder / "results.csv")]
                self.assertEqual(indices, list(range(k, 24, 5)))
            joined = shards[0].joinpath("results.csv").read_text().splitlines(keepends=True)[0]
            for folder in shards[:4]:
                joined += "".join((folder / "results.csv").read_text().splitlines(keepends=True)[1:])
            out = Path(tmp) / "out"
            out.mkdir()
            (out / "results.csv").write_text(joined)
            done = cli_sweep(sweep, out, "--local", "2")
            self.assertIn(f"resuming: {24 - len(range(4, 24, 5))} of 24 runs", done.stderr)
            self.assertEqual((out / "results.csv").read_text(),
                             (Path(tmp) / "reference" / "results.csv").read_text())

    def test_another_sweeps_table_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = grid_24(tmp)
            out = Path(tmp) / "out"
            out.mkdir()
            (out / "results.csv").write_text("index,/bodies/0/mass,status\n0,1,ok\n")
            done = cli_sweep(sweep, out, check=False)
            self.assertEqual(done.returncode, 2)
            self.assertIn("results.csv: line 1: its columns are not this sweep's", done.stderr)


class RandomMode(unittest.TestCase):
    def test_reproducible_and_in_bounds(self):
        with tempfile.TemporaryDirectory() as tmp:
            base_scene(tmp, "box_drop", 0.1)
            spec = {"scene": "base.json", "mode": "random", "samples": 60, "seed": 2026,
                    "parameters": {"/bodies/1/friction": {"from": 0.1, "to": 0.9},
                                   "/bodies/1/restitution": [0.0, 0.5],
                                   "/settings/dt": {"from": 0.001, "to": 0.003, "step": 0.001}}}
            sweep = write_json(Path(tmp) / "random.json", spec)
            listed = subprocess.run([pivot.cli_path(), "sweep", str(sweep), "--list"],
                                    capture_output=True, text=True, check=True).stdout
            again = subprocess.run([pivot.cli_path(), "sweep", str(sweep), "--list"],
                                   capture_output=True, text=True, check=True).stdout
            self.assertEqual(listed, again)
            loaded = pivot.sweep.load(sweep)
            table = list(csv.reader(listed.splitlines()))
            self.assertEqual(len(table), 61)
            for cells in table[1:]:
                # Python's expansion is the CLI's
                self.assertEqual(loaded.variant_cells(int(cells[0])), cells)
                self.assertTrue(0.1 <= float(cells[1]) <= 0.9)
                self.assertIn(cells[2], ("0.0", "0.5"))
                self.assertIn(cells[3], ("0.001", "0.002", "0.003"))
            self.assertEqual(len({c[1] for c in table[1:]}), 60)  # continuous: no repeats
            self.assertEqual({c[2] for c in table[1:]}, {"0.0", "0.5"})
            spec["seed"] = 2027
            other = write_json(Path(tmp) / "other.json", spec)
            self.assertNotEqual(pivot.sweep.load(other).variant(0), loaded.variant(0))


class Errors(unittest.TestCase):
    def test_validation_errors_carry_the_pointer(self):
        with tempfile.TemporaryDirectory() as tmp:
            base_scene(tmp, "box_drop", 0.1)
            cases = [({"/bodies/9/mass": [1]}, {}, "/parameters/~1bodies~19~1mass",
                      "the scene has no /bodies/9"),
                     ({"/bodies/1/mass": []}, {}, "/parameters/~1bodies~11~1mass",
                      "expected a non-empty list"),
                     ({"/bodies/1/mass": [1]}, {"mode": "lattice"}, "/mode",
                      "expected \"grid\" or \"random\"")]
            for parameters, extra, place, message in cases:
                with self.subTest(place=place):
                    sweep = write_json(Path(tmp) / "bad.json",
                                       {"scene": "base.json", "parameters": parameters, **extra})
                    with self.assertRaises(pivot.Error) as caught:
                        pivot.sweep.load(sweep)
                    self.assertEqual(caught.exception.place, place)
                    self.assertIn(message, str(caught.exception))
                    done = subprocess.run([sys.executable, "-m", "pivot.sweep", str(sweep),
                                           "--out", str(Path(tmp) / "out")],
                                          capture_output=True, text=True)
                    self.assertEqual(done.returncode, 2)
                    self.assertIn(f"{place}: {message}", done.stderr)


if __name__ == "__main__":
    try:
        import dask.distributed  # noqa: F401
        import pandas  # noqa: F401
    except ImportError as e:
        # tools/setup.sh installs python3-distributed and python3-pandas; CTest skips on 77
        print(f"skipped: {e} (Debian: python3-distributed, python3-pandas)")
        sys.exit(77)
    unittest.main(argv=sys.argv[:1] + sys.argv[1:], verbosity=2)
