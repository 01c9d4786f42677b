#!/usr/bin/env python3
"""End-to-end tests of `pivot run --checkpoint-every T` and `pivot run --resume DIR`
(docs/cli.md "Checkpoints").

usage: checkpoints.py TEST PIVOT SCENES_DIR WORK_DIR

A run cut short (a shorter --duration, SIGINT, or SIGKILL: a crash) and resumed must leave
trajectory.csv, contacts.csv and joints.csv byte for byte, metrics.csv apart from its wall-time
column solve_time_s, and summary.json apart from its wall-time fields, equal to those of the
same run never interrupted (and run without checkpoints), final_state_hash included. A bad,
truncated or foreign checkpoint is refused with exit 2, a `pivot: error:` line naming the file,
and the folder left as it was.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

from cli_harness import Failed, check, fresh, pivot, run

PIVOT = SCENES = WORK = None  # set by cli_harness.run

WALL_TIME_KEYS = {"wall_time_s", "steps_per_second", "realtime_factor", "solve_time_s"}
SAME_BYTES = ["trajectory.csv", "contacts.csv", "joints.csv", "shapes.json"]


def scene_file(name):
    return os.path.join(SCENES, name)


def without_wall_time(value):
    if isinstance(value, dict):
        return {k: without_wall_time(v) for k, v in value.items() if k not in WALL_TIME_KEYS}
    if isinstance(value, list):
        return [without_wall_time(v) for v in value]
    return value


def metrics_without_solve_time(path):
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split(",") for line in f]
    column = rows[0].index("solve_time_s")
    return [r[:column] + r[column + 1:] for r in rows]


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def check_same_run(straight, resumed):
    extra = ["sensors.csv"] if os.path.isfile(os.path.join(straight, "sensors.csv")) else []
    for name in SAME_BYTES + extra:
        check(read(os.path.join(straight, name), "rb") == read(os.path.join(resumed, name), "rb"),
              f"{name} of the resumed run differs from the straight run's")
    check(metrics_without_solve_time(os.path.join(straight, "metrics.csv")) ==
          metrics_without_solve_time(os.path.join(resumed, "metrics.csv")),
          "metrics.csv of the resumed run differs from the straight run's")
    a = json.loads(read(os.path.join(straight, "summary.json")))
    b = json.loads(read(os.path.join(resumed, "summary.json")))
    check(a["final_state_hash"] == b["final_state_hash"],
          f"final hash {b['final_state_hash']}, the straight run's {a['final_state_hash']}")
    check(without_wall_time(a) == without_wall_time(b),
          "summary.json of the resumed run differs from the straight run's (apart from wall "
          f"times):\n{json.dumps(without_wall_time(a))}\n{json.dumps(without_wall_time(b))}")


def test_resume_after_a_shorter_run():
    """rolling_sphere_hybrid (its pair in reduced mode at every checkpoint), box_stack_10, a chain
    of ball joints (joints.csv's anchors are those of the run's start, not the checkpoint's) and
    a scene with sensors of several periods (sensors.csv too), checkpointed every 0.1 s, cut at
    0.37 s, resumed to the scene's duration"""
    folder = fresh("shorter")
    sensors = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sensors",
                           "sensors_scene.json")
    for scene, duration in [("rolling_sphere_hybrid.json", "1.0"), ("box_stack_10.json", "1.0"),
                            ("chain_6_links.json", "1.0"), (sensors, "0.5")]:
        straight = os.path.join(folder, os.path.basename(scene) + "-straight")
        cut = os.path.join(folder, os.path.basename(scene) + "-cut")
        pivot("run", scene_file(scene), "--out", straight, "--quiet", "--duration", duration)
        pivot("run", scene_file(scene), "--out", cut, "--quiet", "--duration", "0.37",
              "--checkpoint-every", "0.1")
        check(os.path.isfile(os.path.join(cut, "checkpoint.pivot")), "no checkpoint.pivot")
        pivot("run", "--resume", cut, "--quiet", "--duration", duration)
        check_same_run(straight, cut)
        print(f"{os.path.basename(scene)}: resumed at 0.3 s equals the straight run")


def stopped_run(sig):
    """a long checkpointed run of rolling_sphere_hybrid stopped by `sig` soon after its first
    checkpoint, resumed, against the run never stopped"""
    folder = fresh(f"signal_{sig}")
    straight = os.path.join(folder, "straight")
    out = os.path.join(folder, "run")
    # 60 s of simulated time: about 3 s of wall time on an idle machine; the signal comes once
    # the first checkpoints are written
    args = [scene_file("rolling_sphere_hybrid.json"), "--duration", "60", "--threads", "1",
            "--quiet"]
    pivot("run", *args, "--out", straight, timeout=300)
    proc = subprocess.Popen([PIVOT, "run", *args, "--out", out, "--checkpoint-every", "0.25"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not os.path.isfile(os.path.join(out, "checkpoint.pivot")) and proc.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.3)
    check(proc.poll() is None, "the long run ended before the signal")
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    expected = 130 if sig != signal.SIGKILL else -signal.SIGKILL
    check(proc.returncode == expected, f"exit code {proc.returncode}, expected {expected}: {err}")
    check(os.path.isfile(os.path.join(out, "checkpoint.pivot")), "no checkpoint.pivot")
    check(not any(n.startswith(".checkpoint") for n in os.listdir(out)) or sig == signal.SIGKILL,
          f"a partial checkpoint left: {os.listdir(out)}")
    pivot("run", "--resume", out, "--quiet", timeout=300)
    check_same_run(straight, out)
    check(not any(n.startswith(".checkpoint") for n in os.listdir(out)),
          f"a partial checkpoint left after the resumed run: {os.listdir(out)}")


def test_resume_after_sigint():
    stopped_run(signal.SIGINT)


def test_resume_after_a_crash():
    stopped_run(signal.SIGKILL)


def snapshot(folder):
    return {n: read(os.path.join(folder, n), "rb") for n in sorted(os.listdir(folder))}


def test_bad_checkpoints_are_refused():
    folder = fresh("bad")
    good = os.path.join(folder, "good")
    pivot("run", scene_file("rolling_sphere_hybrid.json"), "--out", good, "--quiet",
          "--duration", "0.3", "--checkpoint-every", "0.1")
    other = os.path.join(folder, "other")
    pivot("run", scene_file("box_stack_10.json"), "--out", other, "--quiet",
          "--duration", "0.4", "--checkpoint-every", "0.1")
    blob = read(os.path.join(good, "checkpoint.pivot"), "rb")
    flipped = bytearray(blob)
    flipped[len(blob) // 2] ^= 1
    cases = [
        ("truncated", {"checkpoint.pivot": blob[: len(blob) // 2]}, "checksum"),
        ("garbage", {"checkpoint.pivot": b"hello"}, "not a Pivot run checkpoint"),
        ("flipped", {"checkpoint.pivot": bytes(flipped)}, "checksum"),
        ("foreign", {"checkpoint.pivot": read(os.path.join(other, "checkpoint.pivot"), "rb")},
         "cannot continue the run"),
        ("short file", {"trajectory.csv": read(os.path.join(good, "trajectory.csv"), "rb")[:50]},
         "trajectory.csv"),
        ("no checkpoint", {"checkpoint.pivot": None}, "checkpoint.pivot"),
    ]
    for name, changes, words in cases:
        case = os.path.join(folder, name.replace(" ", "_"))
        shutil.copytree(good, case)
        for file, content in changes.items():
            if content is None:
                os.remove(os.path.join(case, file))
            else:
                with open(os.path.join(case, file), "wb") as f:
                    f.write(content)
        before = snapshot(case)
        _, err = pivot("run", "--resume", case, "--quiet", code=2)
        lines = err.strip().splitlines()
        check(len(lines) == 1 and lines[0].startswith("pivot: error: "),
              f"{name}: not one `pivot: error:` line: {err}")
        check(words in lines[0], f"{name}: the error does not say {words!r}: {err}")
        check(case in lines[0], f"{name}: the error does not name the folder's file: {err}")
        check(snapshot(case) == before, f"{name}: the folder changed")
        print(f"{name}: {lines[0]}")
    # a scene file edited since the checkpoint
    scene = os.path.join(folder, "sphere.json")
    shutil.copy(scene_file("rolling_sphere_hybrid.json"), scene)
    edited = os.path.join(folder, "edited")
    pivot("run", scene, "--out", edited, "--quiet", "--duration", "0.2", "--checkpoint-every", "0.1")
    with open(scene, "a", encoding="utf-8") as f:
        f.write("\n")
    before = snapshot(edited)
    _, err = pivot("run", "--resume", edited, "--quiet", code=2)
    check("changed since" in err and "checkpoint.pivot" in err, f"edited scene: {err}")
    check(snapshot(edited) == before, "edited scene: the folder changed")
    # options a checkpoint fixes are refused with --resume
    _, err = pivot("run", "--resume", good, "--dt", "0.01", code=2)
    check("--dt" in err, f"--dt with --resume: {err}")


if __name__ == "__main__":
    sys.exit(run(globals()))
