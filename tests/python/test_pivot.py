"""Tests of the pivot Python module (docs/python.md), run by CTest with the built module on
PYTHONPATH and the built `pivot` command in PIVOT_CLI. Expected values come from outside the
binding: the CLI's own files, closed forms, and a brute-force LCP solver written here."""

import csv
import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

import numpy as np

import pivot

SCENES = Path(os.environ.get("PIVOT_SCENES_DIR", Path(__file__).resolve().parents[2] / "scenes"))


def cli_run(scene, out, duration):
    subprocess.run([pivot.cli_path(), "run", str(scene), "--out", str(out), "--quiet",
                    "--duration", repr(duration)], check=True, capture_output=True)
    with open(Path(out) / "summary.json") as f:
        return json.load(f)


def brute_force_lcps(M, q, tol=1e-9):
    """Every solution of w = M z + q, z, w >= 0, z.w = 0 on a complementary basis: for each
    set a of basic z, solve M_aa z_a = -q_a and keep the feasible ones."""
    n = len(q)
    found = []
    for mask in itertools.product([False, True], repeat=n):
        a = np.flatnonzero(mask)
        z = np.zeros(n)
        if a.size:
            try:
                z[a] = np.linalg.solve(M[np.ix_(a, a)], -q[a])
            except np.linalg.LinAlgError:
                continue
        w = M @ z + q
        if z.min() >= -tol and w.min() >= -tol:
            found.append(z)
    return found


class SceneRuns(unittest.TestCase):
    def test_same_hash_as_the_cli(self):
        # the hash the CLI writes is the reference; in-process and through run(out=) must match
        for name, duration in [("chain_6_links.json", 0.3), ("box_drop.json", 0.3),
                               ("rolling_sphere_hybrid.json", 0.2)]:
            with self.subTest(scene=name), tempfile.TemporaryDirectory() as tmp:
                reference = cli_run(SCENES / name, Path(tmp) / "cli", duration)
                in_process = pivot.run(str(SCENES / name), duration=duration)
                self.assertEqual(in_process["final_state_hash"], reference["final_state_hash"])
                self.assertEqual(in_process["steps"], reference["steps"])
                self.assertEqual(in_process["simulated_time_s"], reference["simulated_time_s"])
                through_cli = pivot.run(SCENES / name, duration=duration, out=Path(tmp) / "py")
                self.assertEqual(through_cli["final_state_hash"], reference["final_state_hash"])

    def test_one_summary_for_the_cli_a_sweep_and_python(self):
        # one run loop and one summary schema (docs/cli.md "summary.json"): the same scene run
        # by `pivot run`, in this process and as a one-variant `pivot sweep` gives the same keys
        # and values; only the wall times and the files written may differ
        wall = {"wall_time_s", "steps_per_second", "realtime_factor", "lcp.solve_time_s",
                "outputs"}

        def leaves(tree, prefix=""):
            if isinstance(tree, dict):
                out = {}
                for key, value in tree.items():
                    out.update(leaves(value, prefix + key + "."))
                return out
            return {prefix[:-1]: tree}

        for name, duration in [("chain_6_links.json", 0.3), ("rolling_sphere_hybrid.json", 0.3)]:
            with self.subTest(scene=name), tempfile.TemporaryDirectory() as tmp:
                scene = (SCENES / name).resolve()
                cli = leaves(cli_run(scene, Path(tmp) / "cli", duration))
                in_process = leaves(pivot.run(str(scene), duration=duration))
                self.assertEqual(sorted(in_process), sorted(cli))
                for key, value in cli.items():
                    if key not in wall:
                        self.assertEqual(in_process[key], value, key)
                self.assertEqual(in_process["outputs"], [])
                self.assertGreater(cli["lcp.solves"], 0)

                # the sweep keeps every total it offers, for a variant that is the scene itself
                kept = ["steps", "simulated_time_s", "energy.initial.kinetic",
                        "energy.initial.potential", "energy.initial.total",
                        "energy.final.kinetic", "energy.final.potential", "energy.final.total",
                        "max_joint_error", "max_penetration", "contacts_per_step", "lcp.solves",
                        "lcp.pivots", "lcp.failures", "lcp.fallbacks", "lcp.failed_steps",
                        "hybrid.entries", "hybrid.exits"]
                sweep = Path(tmp) / "sweep.json"
                sweep.write_text(json.dumps({
                    "scene": str(scene), "parameters": {"/settings/duration": [duration]},
                    "keep": {"summary": kept}}))
                subprocess.run([pivot.cli_path(), "sweep", str(sweep), "--out",
                                str(Path(tmp) / "sweep"), "--quiet", "--local", "1"],
                               check=True, capture_output=True)
                with open(Path(tmp) / "sweep" / "results.csv") as f:
                    (row,) = list(csv.DictReader(f))
                self.assertEqual(row["status"], "ok")
                self.assertEqual(row["final_state_hash"], cli["final_state_hash"])
                for key in kept:
                    self.assertEqual(json.loads(row["summary." + key]), cli[key], key)

    def test_shipped_scene_names(self):
        # a bare name is a shipped scene, as `pivot run box_drop` takes it: the same hash as the
        # file's path (the reference is the CLI's run of the file)
        with tempfile.TemporaryDirectory() as tmp:
            reference = cli_run(SCENES / "box_drop.json", Path(tmp) / "cli", 0.2)
        for name in ("box_drop", "box_drop.json"):
            with self.subTest(name=name):
                self.assertEqual(pivot.run(name, duration=0.2)["final_state_hash"],
                                 reference["final_state_hash"])
                world = pivot.load_scene(name)
                self.assertEqual(world.body_count, len(json.loads(
                    (SCENES / "box_drop.json").read_text())["bodies"]))
        with self.assertRaises(pivot.Error) as raised:
            pivot.load_scene("no_such_scene")
        self.assertIn('no shipped scene is named "no_such_scene"', str(raised.exception))

    def test_a_dict_scene_runs_as_its_file(self):
        text = (SCENES / "pendulum.json").read_text()
        from_dict = pivot.run(json.loads(text), duration=0.25)
        from_file = pivot.run(str(SCENES / "pendulum.json"), duration=0.25)
        self.assertEqual(from_dict["final_state_hash"], from_file["final_state_hash"])

    def test_arrays_match_the_cli_trajectory(self):
        # the final frame of trajectory.csv, written by the CLI's own writer
        with tempfile.TemporaryDirectory() as tmp:
            cli_run(SCENES / "chain_6_links.json", tmp, 0.2)
            rows = np.genfromtxt(Path(tmp) / "trajectory.csv", delimiter=",", names=True,
                                 dtype=None, encoding=None)
            world, summary = pivot.run_scene(str(SCENES / "chain_6_links.json"), 0.2)
            last = rows[rows["t"] == rows["t"].max()]
            self.assertEqual(len(last), world.body_count)
            for i, row in enumerate(last):
                np.testing.assert_array_equal(world.positions[i], [row["x"], row["y"], row["z"]])
                np.testing.assert_array_equal(world.quaternions_wxyz[i],
                                              [row["qw"], row["qx"], row["qy"], row["qz"]])
                np.testing.assert_array_equal(world.twists[i], [row["wx"], row["wy"], row["wz"],
                                                                row["vx"], row["vy"], row["vz"]])


    def test_the_summary_is_the_documented_one(self):
        # docs/cli.md "summary.json" names every key the run's summary has: each top-level key,
        # and each of "lcp" as lcp.NAME, in the first column of its table
        docs = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
        text = docs.read_text()
        table = text[text.index("### summary.json\n"):]
        table = table[:table.index("\n### ")]
        first_column = " ".join(line.split("|")[1] for line in table.splitlines()
                                if line.startswith("| `"))
        summary = pivot.run(str(SCENES / "box_drop.json"), duration=0.05)
        for key in summary:
            with self.subTest(key=key):
                self.assertTrue(f"`{key}`" in first_column or f"`{key}." in first_column)
        for key in summary["lcp"]:
            with self.subTest(key="lcp." + key):
                self.assertIn(f"`lcp.{key}`", first_column)

    def test_ctrl_c_stops_a_run_in_this_process(self):
        # the run polls Python's signals (RunHooks::stop): SIGINT during a 1000 s run raises
        # KeyboardInterrupt at once instead of waiting for the run's end (hours)
        code = ("import pivot; print('running', flush=True); "
                "pivot.run('box_stack_10', duration=1000.0)")
        child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        try:
            self.assertEqual(child.stdout.readline().strip(), "running")
            time.sleep(1.0)
            child.send_signal(signal.SIGINT)
            _, err = child.communicate(timeout=30)
        finally:
            child.kill()
        self.assertIn("KeyboardInterrupt", err)
        self.assertNotEqual(child.returncode, 0)

    def test_frames_are_the_cli_trajectory(self):
        # run_scene(frames=True) collects, through the run's sink, every frame the CLI writes
        # into trajectory.csv: the same times and numbers, frame by frame
        with tempfile.TemporaryDirectory() as tmp:
            cli_run(SCENES / "chain_6_links.json", tmp, 0.2)
            rows = np.genfromtxt(Path(tmp) / "trajectory.csv", delimiter=",", names=True,
                                 dtype=None, encoding=None)
        world, summary, frames = pivot.run_scene(str(SCENES / "chain_6_links.json"), 0.2,
                                                 frames=True)
        times = np.unique(rows["t"])
        # the scene's output_rate_hz frames a second over 0.2 s (every 4th step of 1 ms at
        # 250 Hz), and the initial one
        rate = json.loads((SCENES / "chain_6_links.json").read_text())["settings"]["output_rate_hz"]
        frame_count = round(rate * 0.2) + 1
        self.assertEqual(len(times), frame_count)
        np.testing.assert_array_equal(frames["t"], times)
        n = world.body_count
        self.assertEqual(frames["positions"].shape, (frame_count, n, 3))
        for f, t in enumerate(times):
            at = rows[rows["t"] == t]
            np.testing.assert_array_equal(frames["positions"][f],
                                          np.column_stack([at["x"], at["y"], at["z"]]))
            np.testing.assert_array_equal(frames["quaternions_wxyz"][f],
                                          np.column_stack([at["qw"], at["qx"], at["qy"],
                                                           at["qz"]]))
            np.testing.assert_array_equal(frames["twists"][f],
                                          np.column_stack([at["wx"], at["wy"], at["wz"],
                                                           at["vx"], at["vy"], at["vz"]]))
        np.testing.assert_array_equal(frames["positions"][-1], world.positions)
        self.assertEqual(summary["steps"], 200)

class WorldApi(unittest.TestCase):
    def test_free_fall_closed_form(self):
        # symplectic Euler: v_n = v0 + n h g, x_n = x0 + n h v0 + h² g n(n+1)/2
        h, n = 1e-3, 250
        g = np.array([0.0, 0.0, -9.81])
        w = pivot.World(pivot.WorldSettings(time_step=h))
        x0, v0 = np.array([0.1, -0.2, 3.0]), np.array([1.0, 0.5, 2.0])
        w.add_body(name="ball", mass=2.0, position=x0, velocity=v0)
        report = w.step(n)
        self.assertEqual(report["status"], "solved")
        self.assertAlmostEqual(w.time, n * h, places=12)
        np.testing.assert_allclose(w.positions[0], x0 + n * h * v0 + h * h * g * n * (n + 1) / 2,
                                   rtol=0, atol=1e-12)
        np.testing.assert_allclose(w.twists[0][3:], v0 + n * h * g, rtol=0, atol=1e-12)
        self.assertEqual(w.positions.shape, (1, 3))
        self.assertEqual(w.quaternions_wxyz.shape, (1, 4))

    def test_every_setting_of_the_stub_is_an_attribute(self):
        # the stub's WorldSettings block is written from the settings table
        # (engine/world_settings_table.hpp); each attribute reads its C++ default and keeps
        # what is set
        stub = (Path(__file__).resolve().parents[2] / "python/pivot/__init__.pyi").read_text()
        block = stub.split("# generated: the settings table")[1].split("# end of the generated")[0]
        names = {line.split(":")[0].strip(): line.split(":")[1].split("#")[0].strip()
                 for line in block.splitlines()[1:] if ":" in line}
        self.assertIn("threads", names)
        self.assertIn("hybrid_point_tolerance", names)
        s = pivot.WorldSettings()
        for name, kind in names.items():
            value = getattr(s, name)
            if kind == "float":
                setattr(s, name, value + 0.25)
                self.assertEqual(getattr(s, name), value + 0.25, name)
            elif kind == "bool":
                setattr(s, name, not value)
                self.assertEqual(getattr(s, name), not value, name)
        self.assertEqual(pivot.WorldSettings().hybrid_point_tolerance, 1e-3)
        self.assertEqual(pivot.WorldSettings(threads=2).threads, 2)
        self.assertEqual(pivot.WorldSettings().hybrid_mu_static, -1.0)  # null: the pair's mu
        with self.assertRaises(pivot.Error) as e:
            pivot.World(pivot.WorldSettings(hybrid_point_tolerance=0.0))
        self.assertIn("hybrid_point_tolerance must be finite and > 0", str(e.exception))

    def test_pendulum_joint_and_energy(self):
        # a point mass on a 1 m ball joint: the joint error stays at post-stabilization's level,
        # and its potential energy at the start is V = -m g·x = m |g| z0, z0 = -0.8 m
        w = pivot.World(pivot.WorldSettings(time_step=1e-3))
        bob = w.add_body(name="bob", mass=1.5, position=(0.6, 0.0, -0.8),
                         inertia_diag=(1e-4, 1e-4, 1e-4))
        w.add_ball_joint(bob, pivot.WORLD, anchor=(0, 0, 0))
        self.assertAlmostEqual(w.potential_energy(), 1.5 * 9.81 * -0.8, places=12)
        w.step(500)
        self.assertLess(w.max_joint_error(), 1e-9)
        self.assertAlmostEqual(np.linalg.norm(w.positions[0]), 1.0, places=8)
        self.assertEqual(w.joint_impulse(0).shape, (3,))

    def test_hinge_limit_and_slider_motor(self):
        # a bob on a 0.5 m arm hinged about world y, released horizontal with limits ±0.2 rad:
        # it swings down to the limit and stays there (angle from its position, atan2)
        w = pivot.World(pivot.WorldSettings(time_step=1e-3))
        bob = w.add_body(name="bob", mass=1.0, position=(0.5, 0.0, 0.0),
                         inertia_diag=(1e-4, 1e-4, 1e-4))
        w.add_hinge_joint(bob, pivot.WORLD, anchor=(0, 0, 0), axis=(0, 1, 0), limits=(-0.2, 0.2))
        w.step(1000)
        x, _, z = w.positions[0]
        self.assertLess(abs(np.arctan2(-z, x)), 0.2 + 1e-6)
        self.assertGreater(abs(np.arctan2(-z, x)), 0.19)
        # a slider along x without gravity, driven by a motor at ds/dt = 0.5 m/s, where s grows as
        # B (the world) moves along +x relative to A (the cart): the cart's x = -0.5 t
        s = pivot.World(pivot.WorldSettings(time_step=1e-3, gravity=(0, 0, 0)))
        cart = s.add_body(name="cart", mass=2.0)
        s.add_slider_joint(cart, pivot.WORLD, anchor=(0, 0, 0), axis=(1, 0, 0), motor=(0.5, 10.0))
        s.step(1000)
        self.assertAlmostEqual(s.positions[0][0], -0.5, places=9)

    def test_contacts_of_a_resting_box(self):
        # a 2 kg box resting on the ground: the normal impulses carry its weight, m g h per step
        h = 1e-3
        w = pivot.World(pivot.WorldSettings(time_step=h))
        w.add_body(name="ground", fixed=True, shape=pivot.shapes.plane((0, 0, 1), 0.0))
        w.add_body(name="box", mass=2.0, shape=pivot.shapes.box((0.1, 0.1, 0.1)),
                   position=(0, 0, 0.1))
        w.step(50)
        c = w.contacts()
        self.assertGreaterEqual(len(c["gap"]), 3)
        self.assertEqual(c["point_a"].shape, (len(c["gap"]), 3))
        self.assertAlmostEqual(c["normal_impulse"].sum(), 2.0 * 9.81 * h, places=9)

    def test_set_state_round_trip(self):
        w = pivot.World()
        b = w.add_body(name="b", mass=1.0)
        q = np.array([np.cos(0.3), 0.0, np.sin(0.3), 0.0])
        w.set_state(b, (1, 2, 3), q, (0.1, 0.2, 0.3, 4, 5, 6))
        np.testing.assert_array_equal(w.positions[0], [1, 2, 3])
        np.testing.assert_allclose(w.quaternions_wxyz[0], q, atol=1e-15)
        np.testing.assert_array_equal(w.twists[0], [0.1, 0.2, 0.3, 4, 5, 6])

    def test_apply_impulse_closed_form(self):
        # a unit sphere of 2 kg (I = 2/5 m r^2 = 0.8): J at r = (0, 0, 1) from the centre
        w = pivot.World()
        b = w.add_body(name="b", mass=2.0, shape=pivot.shapes.sphere(1.0))
        w.apply_impulse(b, (0.4, 0.0, 0.0), (0.0, 0.0, 1.0))
        np.testing.assert_allclose(w.twists[0][3:], [0.2, 0.0, 0.0], atol=1e-15)
        # dw = I^-1 (r x J) = (0, 0.4, 0) / 0.8
        np.testing.assert_allclose(w.twists[0][:3], [0.0, 0.5, 0.0], atol=1e-15)
        with self.assertRaises(pivot.Error):
            w.apply_impulse(b, (float("nan"), 0, 0), (0, 0, 0))


class Errors(unittest.TestCase):
    def test_bad_dict_scene_names_the_place(self):
        with self.assertRaises(pivot.Error) as e:
            pivot.load_scene({"pivot_scene": 1, "bodies": [{"name": "a", "mass": -1}]})
        self.assertEqual(e.exception.place, "/bodies/0/mass")
        self.assertEqual(e.exception.source, "<dict>")
        self.assertIn("/bodies/0/mass", str(e.exception))

    def test_a_recording_is_refused_in_process(self):
        # interactions (a recorded live run) are applied by `pivot run` only, never ignored
        scene = {"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1}],
                 "interactions": [{"step": 3, "type": "end"}]}
        with self.assertRaises(pivot.Error) as e:
            pivot.run_scene(scene)
        self.assertEqual(e.exception.place, "/interactions")

    def test_missing_file(self):
        with self.assertRaises(pivot.Error):
            pivot.load_scene("/nonexistent/scene.json")
        with self.assertRaises(pivot.Error):
            pivot.run("/nonexistent/scene.json", out=tempfile.mkdtemp())

    def test_bad_settings_and_bodies(self):
        with self.assertRaises(pivot.Error):
            pivot.WorldSettings(time_stpe=1e-3)
        with self.assertRaises(pivot.Error):
            pivot.WorldSettings(stabilization="sometimes")
        w = pivot.World()
        with self.assertRaises(pivot.Error) as e:
            w.add_body(name="heavy", mass=-1.0)
        self.assertIn('body "heavy"', str(e.exception))
        with self.assertRaises(pivot.Error):
            w.add_body(position=(0, float("nan"), 0))
        with self.assertRaises(pivot.Error):
            w.step(0)
        self.assertTrue(issubclass(pivot.Error, ValueError))


class Threads(unittest.TestCase):
    def test_one_world_from_two_threads_refuses_never_crashes(self):
        # world_threads.py: thread A steps in chunks of 20 (without the GIL) while thread B adds
        # bodies, steps and reads; a call meeting the other's raises RuntimeError. Without the
        # guard the child died (SIGSEGV/SIGABRT) or raised IndexError within the 1.5 s.
        child = subprocess.run([sys.executable, str(Path(__file__).with_name("world_threads.py"))],
                               capture_output=True, text=True, timeout=60)
        self.assertEqual(child.returncode, 0, f"the child died: {child.stderr[-2000:]}")
        c = json.loads(child.stdout.strip().splitlines()[-1])
        self.assertEqual(c["other_errors"], [])
        # the race happened: B met A's step (and was refused) many times
        self.assertGreater(c["b_refused"], 0)
        self.assertGreater(c["a_steps"], 0)
        # every call that returned took effect once, and none that raised did
        self.assertEqual(c["step_count"], c["a_steps"] + c["b_steps"])
        self.assertEqual(c["body_count"], c["start_bodies"] + c["b_adds"])
        self.assertTrue(c["finite"])

    def test_two_worlds_step_in_parallel(self):
        # the guard is per World: two Worlds in two threads never refuse each other
        import threading
        worlds = [pivot.World(pivot.WorldSettings(time_step=1e-3)) for _ in range(2)]
        for w in worlds:
            w.add_body(name="ball", mass=1.0, velocity=(1.0, 0.0, 0.0))
        errors = []

        def run(w):
            try:
                for _ in range(50):
                    w.step(10)
            except RuntimeError as e:
                errors.append(e)

        threads = [threading.Thread(target=run, args=(w,)) for w in worlds]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        for w in worlds:
            self.assertEqual(w.step_count, 500)
            # free flight at 1 m/s for 0.5 s
            self.assertAlmostEqual(w.positions[0][0], 0.5, places=12)


class Lcp(unittest.TestCase):
    def test_against_brute_force(self):
        rng = np.random.default_rng(7)
        for n in range(1, 8):
            for trial in range(20):
                A = rng.normal(size=(n, n))
                M = A @ A.T + 0.1 * np.eye(n)  # positive definite: exactly one solution
                q = rng.normal(size=n)
                r = pivot.lcp.solve(M, q)
                self.assertEqual(r["status"], "solved")
                (z,) = brute_force_lcps(M, q)
                np.testing.assert_allclose(r["z"], z, atol=1e-9)
                np.testing.assert_allclose(r["w"], M @ r["z"] + q, atol=1e-9)

    def test_no_solution_is_not_reported_solved(self):
        # M = [[0]], q = [-1]: w = -1 for every z, no solution
        r = pivot.lcp.solve(np.zeros((1, 1)), np.array([-1.0]))
        self.assertFalse(r["ok"])
        self.assertEqual(r["status"], "ray_termination")

    def test_bad_sizes(self):
        r = pivot.lcp.solve(np.eye(2), np.ones(3))
        self.assertEqual(r["status"], "invalid_input")


if __name__ == "__main__":
    print(f"pivot {pivot.__version__} from {pivot.__file__}", file=sys.stderr)
    unittest.main(verbosity=2)
