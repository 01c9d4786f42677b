#!/usr/bin/env python3
"""Small scenes whose steps used to explode (docs/limits.md "Work per step"): bounded-time runs
of each family, near-linear scaling between two sizes in one run, a signal acting within a
bound, and the failure reported instead of hours of work or all memory.

usage: bounded_work.py TEST PIVOT SCENES_DIR WORK_DIR

The bounds are generous (about 10x the times measured after the fix): the machine is shared.
"""
import json
import os
import signal
import subprocess
import sys
import time

from cli_harness import Failed, check, fresh, pivot, run

PIVOT = SCENES = WORK = None  # set by cli_harness.run


def write_scene(folder, name, doc):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


def boxes_at_one_pose(n, duration=0.005):
    bodies = [{"name": "ground", "fixed": True,
               "shape": {"type": "plane", "normal": [0, 0, 1], "offset": 0}}]
    bodies += [{"name": f"b{i}", "shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]},
                "position": [0, 0, 0.1], "mass": 1} for i in range(n)]
    return {"pivot_scene": 1, "settings": {"dt": 0.005, "duration": duration}, "bodies": bodies}


def spheres_in_a_row(n):
    bodies = [{"name": f"s{i}", "shape": {"type": "sphere", "radius": 0.1},
               "position": [0.5 * i, 0, 0], "mass": 1} for i in range(n)]
    return {"pivot_scene": 1, "settings": {"dt": 0.005, "duration": 0.005, "gravity": [0, 0, 0]},
            "bodies": bodies}


def repeated_fixed_joints(n, duration=0.01):
    bodies = [{"name": "a", "shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]},
               "position": [0, 0, 1], "mass": 1},
              {"name": "b", "shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]},
               "position": [0.3, 0, 1], "mass": 1}]
    joints = [{"type": "fixed", "name": f"j{i}", "body_a": "a", "body_b": "b"} for i in range(n)]
    return {"pivot_scene": 1, "settings": {"dt": 0.005, "duration": duration}, "bodies": bodies,
            "joints": joints}


def timed_run(folder, name, doc, bound):
    path = write_scene(folder, name + ".json", doc)
    start = time.monotonic()
    _, err = pivot("run", path, "--threads", "1", "--quiet", "--out",
                   os.path.join(folder, name), timeout=max(120, 3 * bound))
    seconds = time.monotonic() - start
    check(seconds < bound, f"{name}: {seconds:.2f} s, bound {bound} s")
    with open(os.path.join(folder, name, "summary.json"), encoding="utf-8") as f:
        return seconds, err, json.load(f)


def test_boxes_at_one_pose():
    """51 boxes at one pose: 100 s a step (post-stabilization) and 101: std::bad_alloc. Now
    the island is reported as degenerate, not solved, in a fraction of a second"""
    folder = fresh("boxes_at_one_pose")
    small, err, summary = timed_run(folder, "boxes_51", boxes_at_one_pose(51), 10)
    check("placed into each other" in err, f"no warning naming the degenerate island: {err[:2000]}")
    check(summary["warning_counts"].get("island_lcp_failed", 0) >= 1,
          f"warning_counts: {summary['warning_counts']}")
    large, _, _ = timed_run(folder, "boxes_101", boxes_at_one_pose(101), 20)
    # 4x the boxes' contacts (n^2): the work is linear in the contacts, so under 4x (+ startup)
    check(large < 6 * small + 0.5, f"51 boxes {small:.2f} s, 101 boxes {large:.2f} s")


def test_spheres_in_a_row():
    """5 000 / 10 000 separated spheres: 1.7 / 6.2 s a step (quadratic broad phase)"""
    folder = fresh("spheres_in_a_row")
    small, _, _ = timed_run(folder, "spheres_5000", spheres_in_a_row(5000), 10)
    large, _, _ = timed_run(folder, "spheres_10000", spheres_in_a_row(10000), 20)
    check(large < 3 * small, f"5 000 spheres {small:.2f} s, 10 000 {large:.2f} s")


def test_repeated_fixed_joints():
    """100 / 200 / 400 fixed joints between the same two boxes: 2.4 / 11 / 106 s for two steps"""
    folder = fresh("repeated_fixed_joints")
    small, err, summary = timed_run(folder, "joints_200", repeated_fixed_joints(200), 5)
    check('joint "j1"' in err and "left out" in err, f"no redundant-joint warning: {err[:2000]}")
    check(summary["warning_counts"].get("redundant_joint", 0) >= 1,
          f"warning_counts: {summary['warning_counts']}")
    large, _, _ = timed_run(folder, "joints_400", repeated_fixed_joints(400), 5)
    check(large < 3 * small + 0.5, f"200 joints {small:.2f} s, 400 joints {large:.2f} s")


def test_interrupt_repeated_joints():
    """SIGINT took 26 s to act on the 400-joint scene (one dense factorization); now within a
    bound of a few seconds (the steps are milliseconds)"""
    folder = fresh("interrupt_joints")
    path = write_scene(folder, "joints.json", repeated_fixed_joints(400, duration=1000.0))
    proc = subprocess.Popen([PIVOT, "run", path, "--threads", "1", "--quiet", "--out",
                             os.path.join(folder, "run")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    check(proc.poll() is None, "the long run ended before the signal")
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise Failed("the run did not stop within 30 s of the signal")
    waited = time.monotonic() - sent
    check(proc.returncode == 130, f"exit code {proc.returncode}, expected 130")
    check(waited < 5.0, f"the run took {waited:.2f} s to stop after SIGINT")


if __name__ == "__main__":
    sys.exit(run(globals()))
