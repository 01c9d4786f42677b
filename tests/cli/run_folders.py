#!/usr/bin/env python3
"""End-to-end tests of what `pivot run` leaves on disk and reads back (docs/cli.md).

usage: run_folders.py TEST PIVOT SCENES_DIR WORK_DIR

TEST is one of the functions named test_* below, without the prefix: every number a run folder
holds is read back by `pivot replay` and `pivot plot`, the extremes of double included; a step
after the simulation (the replay of --html) that fails leaves the simulated results in place.
Exit 0 on success, 1 with a message on the first failed check, 77 (CTest's skip) when something
the test needs is not available on this machine.
"""
import csv
import glob
import json
import os
import sys

from cli_harness import Failed, Skipped, check, fresh, pivot, run

PIVOT = SCENES = WORK = None  # set by cli_harness.run

# the extremes of a double as Python writes them (repr: the shortest text that reads back):
# subnormals (std::stod throws out_of_range on them), the smallest normal, ±max and −0
SUBNORMALS = ["5e-324", "-5e-324", "1.0309925e-317", "1e-323", "-3.636e-321", "1e-309"]
EXTREMES = SUBNORMALS + ["2.2250738585072014e-308", "1.7976931348623157e+308",
                         "-1.7976931348623157e+308", "-0.0", "1.7976931348623157e308"]


def rewrite_csv(path, columns, values):
    """puts `values` in turn into `columns` of every data row of the CSV file `path`"""
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    k = 0
    for row in rows[1:]:
        for c in columns:
            row[c] = values[k % len(values)]
            k += 1
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("".join(",".join(r) + "\n" for r in rows))


def viewer_available():
    _, err = pivot("replay", os.path.join(WORK, "no_such_run"), code=2)
    if "replays are unavailable" in err:
        raise Skipped("pivot was built without the replay viewer")


def seesaw_scene():
    """a plank on a hinge with two boxes dropped on it: its joint errors and quaternion
    components pass through subnormals (max_joint_error 1e-317, qx −3.6e-321)"""
    box = lambda h: {"type": "box", "half_extents": [h, h, h]}
    return {"pivot_scene": 1, "name": "seesaw",
            "settings": {"dt": 0.005, "duration": 3, "output_rate_hz": 100},
            "bodies": [
                {"name": "ground", "fixed": True,
                 "shape": {"type": "plane", "normal": [0, 0, 1], "offset": 0}},
                {"name": "plank", "shape": {"type": "box", "half_extents": [1.0, 0.15, 0.03]},
                 "mass": 4, "position": [0, 0, 0.5]},
                {"name": "left", "shape": box(0.1), "mass": 1, "position": [-0.8, 0, 1.0]},
                {"name": "right", "shape": box(0.1), "mass": 3, "position": [0.7, 0, 1.5]}],
            "joints": [{"type": "hinge", "name": "pivot", "body_a": "plank", "body_b": "world",
                        "anchor": [0, 0, 0.5], "axis": [0, 1, 0]}]}


def test_numbers_read_back():
    """every number a run writes is read back by replay and plot: the seesaw's own files
    (subnormals) and a run folder whose numeric fields are set to the extremes of double"""
    viewer_available()
    folder = fresh("numbers")
    scene = os.path.join(folder, "seesaw.json")
    with open(scene, "w", encoding="utf-8") as f:
        json.dump(seesaw_scene(), f)
    seesaw = os.path.join(folder, "seesaw")
    pivot("run", scene, "--html", "--out", seesaw, "--quiet", timeout=120)
    check(os.path.isfile(os.path.join(seesaw, "replay.html")), "the seesaw's --html wrote no replay")
    subnormal = 0
    for name in glob.glob(os.path.join(seesaw, "*.csv")):
        with open(name, encoding="utf-8") as f:
            for row in csv.reader(f):
                for cell in row:
                    try:
                        x = float(cell)
                    except ValueError:
                        continue
                    subnormal += x != 0.0 and abs(x) < 2.2250738585072014e-308
    print(f"the seesaw wrote {subnormal} subnormal numbers")
    pivot("plot", seesaw, "--out", os.path.join(folder, "seesaw_plots"))

    # the extremes in every numeric column the replay and the plots read
    run_dir = os.path.join(folder, "run")
    pivot("run", "pendulum", "--duration", "0.1", "--out", run_dir, "--quiet")
    rewrite_csv(os.path.join(run_dir, "metrics.csv"), [1, 2, 3, 7, 8, 9], EXTREMES)
    rewrite_csv(os.path.join(run_dir, "trajectory.csv"), [9, 10, 11, 12, 13, 14], EXTREMES)
    rewrite_csv(os.path.join(run_dir, "trajectory.csv"), [2, 3, 4, 6, 7, 8], SUBNORMALS)
    pivot("replay", run_dir, "--out", os.path.join(folder, "replay.html"), "--quiet")
    plots = os.path.join(folder, "plots")
    pivot("plot", run_dir, "--out", plots)
    for svg in glob.glob(os.path.join(plots, "*.svg")):
        with open(svg, encoding="utf-8") as f:
            text = f.read()
        check("nan" not in text and "inf" not in text, f"{svg} has a non-finite coordinate")
    # what is not a finite number is still refused, naming the file, line and column
    rewrite_csv(os.path.join(run_dir, "metrics.csv"), [8], ["1e999"])
    _, err = pivot("replay", run_dir, "--out", os.path.join(folder, "bad.html"), code=2)
    check("metrics.csv: line 2: column max_joint_error: expected a finite number" in err,
          f"1e999: {err}")


def test_failed_replay_keeps_the_run():
    """`pivot run --html` on a scene whose replay fails after the simulation (only fixed bodies:
    no frames to show): the run folder is committed without replay.html, the message names it
    (not a hidden partial folder), exit 1"""
    viewer_available()
    folder = fresh("failed_replay")
    scene = os.path.join(folder, "fixed.json")
    with open(scene, "w", encoding="utf-8") as f:
        json.dump({"pivot_scene": 1, "name": "only fixed", "settings": {"dt": 0.01, "duration": 0.05},
                   "bodies": [{"name": "ground", "fixed": True,
                               "shape": {"type": "plane", "normal": [0, 0, 1], "offset": 0}}]}, f)
    out = os.path.join(folder, "run")
    os.makedirs(out)
    with open(os.path.join(out, "replay.html"), "w", encoding="utf-8") as f:
        f.write("an earlier run's replay")
    _, err = pivot("run", scene, "--html", "--out", out, "--quiet", code=1)
    lines = [line for line in err.splitlines() if line.startswith("pivot: error:")]
    check(len(lines) == 1, f"expected one error line: {err}")
    check(f"the run is in {out} (without replay.html)" in lines[0] and ".partial" not in lines[0]
          and f"{out}/trajectory.csv: has no frames" in lines[0], f"the message: {lines[0]}")
    for name in ("trajectory.csv", "metrics.csv", "summary.json", "shapes.json"):
        check(os.path.isfile(os.path.join(out, name)), f"{name} is missing from the run folder")
    check(not os.path.exists(os.path.join(out, "replay.html")),
          "the earlier run's replay.html was left beside the new run")
    with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)
    check("replay.html" not in summary["outputs"], f"outputs: {summary['outputs']}")
    check(summary["steps"] == 5, f"steps {summary['steps']}, expected 0.05 s / 0.01 s = 5")
    left = [e for e in os.listdir(folder) if ".partial-" in e]
    check(not left, f"partial folders left: {left}")


def test_out_refuses_a_foreign_folder():
    """--out a folder that holds other files (as / or $HOME do): exit 2 naming the folder and
    a file, before anything is written; its own files of run-file names are untouched. An
    earlier run's folder, with pivot plot's SVGs in it, is still written over"""
    folder = fresh("foreign")
    home = os.path.join(folder, "home")
    os.makedirs(home)
    mine = {"notes.txt": "my notes\n", "metrics.csv": "my own metrics\n", "joints.csv": "x\n"}
    for name, text in mine.items():
        with open(os.path.join(home, name), "w", encoding="utf-8") as f:
            f.write(text)
    _, err = pivot("run", "box_drop", "--duration", "0.01", "--out", home, "--quiet", code=2)
    lines = [line for line in err.splitlines() if line.startswith("pivot: error:")]
    check(len(lines) == 1 and f"{home}: the folder holds \"notes.txt\"" in lines[0],
          f"the message: {err}")
    check(sorted(os.listdir(home)) == sorted(mine), f"the folder now holds {os.listdir(home)}")
    for name, text in mine.items():
        with open(os.path.join(home, name), encoding="utf-8") as f:
            check(f.read() == text, f"{name} was changed")
    check(not [e for e in os.listdir(folder) if ".partial-" in e], "a partial folder was left")
    # an earlier run with its plots: rerun over it
    run_dir = os.path.join(folder, "run")
    pivot("run", "box_drop", "--duration", "0.01", "--out", run_dir, "--quiet")
    pivot("plot", run_dir)
    pivot("run", "box_drop", "--duration", "0.02", "--out", run_dir, "--quiet")
    with open(os.path.join(run_dir, "summary.json"), encoding="utf-8") as f:
        check(json.load(f)["steps"] > 0, "the rerun wrote no summary")


if __name__ == "__main__":
    sys.exit(run(globals()))
