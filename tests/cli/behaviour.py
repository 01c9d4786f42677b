#!/usr/bin/env python3
"""End-to-end tests of what `pivot` does for a user (docs/cli.md, docs/scene-format.md).

usage: behaviour.py TEST PIVOT SCENES_DIR WORK_DIR [BUILD_DIR]

TEST is one of the functions named test_* below, without the prefix. Each runs the built
`pivot` and judges its output against values the test computes itself (closed forms, the
scene files, another output file of the same run). Exit 0 on success, 1 with a message on the
first failed check, 77 (CTest's skip) with a message when something the test needs is absent.
"""
import json
import math
import os
import pty
import select
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

from cli_harness import Failed, check, fresh, pivot, run

PIVOT = SCENES = WORK = BUILD = None  # set by cli_harness.run


def write_scene(folder, name, scene):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(scene, f)
    return path


def read_csv(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    header = lines[0].split(",")
    return header, [line.split(",") for line in lines[1:]]


def summary(run_dir):
    with open(os.path.join(run_dir, "summary.json"), encoding="utf-8") as f:
        return json.load(f)


# ---- shipped scenes by name ----

def test_name_lookup():
    out, _ = pivot("scenes")
    listed = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 2 and words[-1].endswith(".json"):
            listed[words[0]] = words[-1]
    shipped = sorted(f[:-5] for f in os.listdir(SCENES) if f.endswith(".json"))
    check(sorted(listed) == shipped, f"pivot scenes lists {sorted(listed)}, the folder has {shipped}")
    for name, path in listed.items():
        check(os.path.samefile(path, os.path.join(SCENES, name + ".json")),
              f"pivot scenes: {name} is listed at {path}")
    with open(os.path.join(SCENES, "box_drop.json"), encoding="utf-8") as f:
        description = json.load(f)["description"]
    check(description in out, "pivot scenes does not show box_drop's description")

    # from a folder that holds no scene, by name, with and without .json
    elsewhere = fresh("name_lookup")
    for arg in ("box_drop", "box_drop.json"):
        out_dir = os.path.join(elsewhere, "out-" + arg)
        pivot("run", arg, "--duration", "0.01", "--out", out_dir, "--quiet", cwd=elsewhere)
        check(os.path.samefile(summary(out_dir)["scene_file"], os.path.join(SCENES, "box_drop.json")),
              f"pivot run {arg} ran {summary(out_dir)['scene_file']}")
    out, _ = pivot("check", "pendulum", cwd=elsewhere)
    check(json.loads(out)["name"] == "pendulum", "pivot check pendulum did not check pendulum")
    _, err = pivot("run", "no_such_scene", cwd=elsewhere, code=2)
    check(err.startswith("pivot: error: no_such_scene: cannot open the file, and no shipped scene")
          and err.count("\n") == 1, f"unknown name: {err!r}")
    # a path is a path: no lookup for a name with a folder in it
    _, err = pivot("run", "sub/box_drop", cwd=elsewhere, code=2)
    check("sub/box_drop: cannot open the file" in err, f"a path with a folder: {err!r}")


def test_scenes_listing():
    """`pivot scenes` reads each file's header (name, description, settings), not its bodies:
    a scene whose mesh file is missing is still listed with its name and duration, and a header
    error is still named. The files sit where an installed pivot looks (BIN/../share/pivot/
    scenes), beside a copy of the binary."""
    prefix = fresh("scenes_listing")
    os.makedirs(os.path.join(prefix, "bin"))
    binary = os.path.join(prefix, "bin", "pivot")
    with open(PIVOT, "rb") as src, open(binary, "wb") as dst:
        dst.write(src.read())
    os.chmod(binary, 0o755)
    scenes = os.path.join(prefix, "share", "pivot", "scenes")
    os.makedirs(scenes)
    write_scene(scenes, "heavy.json", {
        "pivot_scene": 1, "name": "a mesh scene", "description": "a body with a mesh shape",
        "settings": {"duration": 2.5},
        "bodies": [{"name": "m", "shape": {"type": "sdf", "mesh": "not_there.obj"}}]})
    write_scene(scenes, "future.json", {"pivot_scene": 99, "name": "from the future"})
    r = subprocess.run([binary, "scenes"], capture_output=True, text=True)
    check(r.returncode == 0, f"pivot scenes failed: {r.stderr}")
    lines = r.stdout.splitlines()
    heavy = [l for l in lines if l.startswith("heavy ")]
    check(len(heavy) == 1 and '"a mesh scene", 2.5 s,' in heavy[0],
          f"the mesh scene is not listed by its header: {heavy}")
    check(any("a body with a mesh shape" in l for l in lines), "its description is not shown")
    future = [l for l in lines if l.startswith("future ")]
    check(len(future) == 1 and "(invalid:" in future[0] and "version 99" in future[0],
          f"a header error is not named: {future}")


def test_install():
    if not BUILD:
        raise Failed("the build folder is needed")
    prefix = fresh("install")
    r = subprocess.run(["cmake", "--install", BUILD, "--prefix", prefix], capture_output=True,
                       text=True)
    check(r.returncode == 0, f"cmake --install failed: {r.stderr}")
    share = os.path.join(prefix, "share", "pivot", "scenes")
    installed = os.path.join(prefix, "bin", "pivot")
    check(os.path.isfile(os.path.join(share, "schema", "pivot-scene-1.schema.json")),
          "the schema is not installed at share/pivot/scenes/schema/")
    stray = [f for f in os.listdir(share)
             if not (f.endswith(".json") or f in ("meshes", "mocap", "robots", "schema", "sweeps",
                                                  "trajectories"))]
    check(not stray, f"installed beside the scenes: {stray}")
    # the example sweeps (docs/sweeps.md) are installed and find their scenes there
    example = os.path.join(share, "sweeps", "box_drop_grid.json")
    r = subprocess.run([os.path.join(prefix, "bin", "pivot"), "sweep", example, "--list"],
                       capture_output=True, text=True)
    check(r.returncode == 0 and len(r.stdout.splitlines()) == 25,
          f"the installed example sweep: {r.stderr}")
    shipped = sorted(f for f in os.listdir(SCENES) if f.endswith(".json"))
    check(sorted(f for f in os.listdir(share) if f.endswith(".json")) == shipped,
          "not every shipped scene is installed")
    r = subprocess.run([installed, "scenes"], capture_output=True, text=True)
    check(r.returncode == 0 and os.path.realpath(share) in r.stdout,
          f"the installed pivot does not list the installed scenes: {r.stdout[:300]}")
    # the installed pivot runs an installed scene (one with a mesh: the bowl) by name
    elsewhere = fresh("install-run")
    out_dir = os.path.join(elsewhere, "out")
    r = subprocess.run([installed, "run", "marble_in_bowl", "--duration", "0.02", "--out",
                        out_dir, "--quiet"], capture_output=True, text=True, cwd=elsewhere)
    check(r.returncode == 0, f"installed pivot run marble_in_bowl: {r.stderr}")
    check(os.path.samefile(summary(out_dir)["scene_file"], os.path.join(share, "marble_in_bowl.json")),
          f"ran {summary(out_dir)['scene_file']}, not the installed scene")
    # and one that reads a trajectory file (scenes/trajectories, relative to the scene)
    out_dir = os.path.join(elsewhere, "out-manipulandum")
    r = subprocess.run([installed, "run", "manipulandum_push", "--duration", "0.02", "--out",
                        out_dir, "--quiet"], capture_output=True, text=True, cwd=elsewhere)
    check(r.returncode == 0, f"installed pivot run manipulandum_push: {r.stderr}")
    # and the one whose meshes are STL, PLY and binary glTF files (scenes/meshes)
    out_dir = os.path.join(elsewhere, "out-mesh-bin")
    r = subprocess.run([installed, "run", "mesh_bin", "--duration", "0.02", "--out", out_dir,
                        "--quiet"], capture_output=True, text=True, cwd=elsewhere)
    check(r.returncode == 0, f"installed pivot run mesh_bin: {r.stderr}")


# ---- --set ----

def test_set():
    scene = os.path.join(SCENES, "pendulum.json")
    out, _ = pivot("check", scene, "--set", "/settings/output_rate_hz=1000", "--set",
                   "/bodies/0/mass=2.5", "--set", "/name=\"edited pendulum\"")
    resolved = json.loads(out)
    check(resolved["settings"]["output_rate_hz"] == 1000, "check --set: output_rate_hz not 1000")
    check(resolved["bodies"][0]["mass"] == 2.5, "check --set: mass not 2.5")
    check(resolved["name"] == "edited pendulum", "check --set: name not edited")

    # run: 1000 frames per second for 20 ms of 1 ms steps: frames at t = 0, 1, ..., 20 ms
    run_dir = os.path.join(fresh("set"), "run")
    pivot("run", scene, "--set", "/settings/output_rate_hz=1000", "--duration", "0.02", "--out",
          run_dir, "--quiet")
    _, rows = read_csv(os.path.join(run_dir, "trajectory.csv"))
    check(len(rows) == 21, f"run --set output_rate_hz=1000: {len(rows)} frames, expected 21")
    # the same edit without --set: the run as the file says has 100 frames per second
    pivot("run", scene, "--duration", "0.02", "--out", run_dir + "-plain", "--quiet")
    _, rows = read_csv(os.path.join(run_dir + "-plain", "trajectory.csv"))
    check(len(rows) == 3, f"run without --set: {len(rows)} frames, expected 3 (0, 10, 20 ms)")

    for args, expected in (
            (["--set", "/bodies/3/mass=1"], "/bodies has no element 3 (it has 1)"),
            (["--set", "/bodies/0/mass=-1"], "/bodies/0/mass: expected a positive number"),
            (["--set", "/settings/colour=1"], "/settings/colour: unknown key"),
            (["--set", "mass=1"], "--set mass=1: expected /json/pointer=value")):
        _, err = pivot("run", scene, *args, "--out", run_dir + "-bad", code=2)
        check(err.startswith("pivot: error: ") and expected in err and err.count("\n") == 1,
              f"run {' '.join(args)}: {err!r}, expected one line with {expected!r}")
        if "pointer=value" not in expected:
            check("pendulum.json" in err, f"run {' '.join(args)}: the file is not named: {err!r}")


# ---- "$schema" ----

def test_schema_key():
    folder = fresh("schema")
    base = {"pivot_scene": 1, "bodies": [{"name": "b", "mass": 1.0}]}
    good = write_scene(folder, "good.json", {"$schema": "pivot-scene-1.schema.json", **base})
    out, _ = pivot("check", good)
    check("$schema" not in json.loads(out), "the resolved scene carries $schema")
    bad = write_scene(folder, "typo.json", {"$schemas": "x", **base})
    _, err = pivot("check", bad, code=2)
    check("typo.json: /$schemas: unknown key" in err, f"another $ key: {err!r}")
    bad = write_scene(folder, "number.json", {"$schema": 1, **base})
    _, err = pivot("check", bad, code=2)
    check("number.json: /$schema: expected a string" in err, f"$schema not a string: {err!r}")
    nested = write_scene(folder, "nested.json",
                         {"pivot_scene": 1, "bodies": [{"$schema": "x", "name": "b", "mass": 1}]})
    _, err = pivot("check", nested, code=2)
    check("nested.json: /bodies/0/$schema: unknown key" in err, f"$schema in a body: {err!r}")


# ---- orientation keys ----

def half(deg):
    return math.radians(deg) / 2


def quat_mul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw)


def test_orientation():
    folder = fresh("orientation")
    scene = {"pivot_scene": 1, "settings": {"gravity": [0, 0, 0]}, "bodies": [
        {"name": "axis_angle", "mass": 1, "axis_angle_deg": {"axis": [1, 2, 2], "angle": 70}},
        {"name": "zyx", "mass": 1, "euler_deg": {"intrinsic": "zyx", "angles": [30, 20, 10]}},
        {"name": "xyz", "mass": 1, "euler_deg": {"extrinsic": "xyz", "angles": [10, 20, 30]}},
        {"name": "zxz", "mass": 1, "euler_deg": {"intrinsic": "zxz", "angles": [90, 90, 0]}},
        {"name": "child", "mass": 1, "shape": {"type": "compound", "children": [
            {"shape": {"type": "sphere", "radius": 0.1}, "position": [0.1, 0, 0],
             "axis_angle_deg": {"axis": [0, 0, 1], "angle": 90}}]}}]}
    out, _ = pivot("check", write_scene(folder, "orientations.json", scene))
    bodies = {b["name"]: b for b in json.loads(out)["bodies"]}
    # closed forms: q = (cos a/2, sin a/2 n) for an axis and an angle; the aerospace z-y-x
    # (yaw psi, pitch theta, roll phi) quaternion, written out; zxz (90, 90, 0) by hand
    n = (1 / 3, 2 / 3, 2 / 3)
    expected = {"axis_angle": (math.cos(half(70)), *(math.sin(half(70)) * c for c in n))}
    cr, sr = math.cos(half(10)), math.sin(half(10))
    cp, sp = math.cos(half(20)), math.sin(half(20))
    cy, sy = math.cos(half(30)), math.sin(half(30))
    ypr = (cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
           cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy)
    expected["zyx"] = ypr
    expected["xyz"] = ypr  # extrinsic x, y, z is intrinsic z, y, x with the angles reversed
    # q_z(90) q_x(90) = (1/2)(1, 1, 1, 1): a = sqrt(1/2), (a, 0, 0, a)(a, a, 0, 0)
    expected["zxz"] = (0.5, 0.5, 0.5, 0.5)
    for name, q in expected.items():
        got = bodies[name]["quat_wxyz"]
        check(all(abs(g - e) < 1e-15 for g, e in zip(got, q)),
              f"{name}: pivot check made {got}, the closed form is {list(q)}")
    child = bodies["child"]["shape"]["children"][0]["quat_wxyz"]
    check(all(abs(g - e) < 1e-15 for g, e in zip(child, (math.sqrt(0.5), 0, 0, math.sqrt(0.5)))),
          f"compound child: {child}")
    # the same rotation the other way round, as a sanity check of quat_mul and the sign convention
    check(all(abs(a - b) < 1e-15 for a, b in zip(
        quat_mul((math.sqrt(0.5), 0, 0, math.sqrt(0.5)), (math.sqrt(0.5), math.sqrt(0.5), 0, 0)),
        expected["zxz"])), "the test's own quaternion product disagrees with its closed form")

    for body, expected_error in (
            ({"quat_wxyz": [1, 0, 0, 0], "euler_deg": {"intrinsic": "zyx", "angles": [0, 0, 0]}},
             "/bodies/0: give one orientation, not 2"),
            ({"euler_deg": {"angles": [0, 0, 90]}},
             "/bodies/0/euler_deg: expected the convention"),
            ({"euler_deg": {"intrinsic": "zzx", "angles": [0, 0, 90]}},
             "/bodies/0/euler_deg/intrinsic: expected an axis order"),
            ({"euler_deg": {"extrinsic": "xyz", "angles": [0, 90]}},
             "/bodies/0/euler_deg/angles: expected an array of 3 numbers"),
            ({"axis_angle_deg": {"axis": [0, 0, 0], "angle": 90}},
             "/bodies/0/axis_angle_deg/axis: expected a non-zero direction"),
            ({"axis_angle_deg": {"axis": [0, 0, 1], "angle_deg": 90}},
             "/bodies/0/axis_angle_deg/angle_deg: unknown key")):
        path = write_scene(folder, "bad.json",
                           {"pivot_scene": 1, "bodies": [{"name": "b", "mass": 1, **body}]})
        _, err = pivot("check", path, code=2)
        check(f"bad.json: {expected_error}" in err and err.count("\n") == 1,
              f"{body}: {err!r}, expected {expected_error!r}")


# ---- exact times ----

def test_exact_times():
    folder = fresh("times")
    scene = os.path.join(SCENES, "pendulum.json")
    with open(scene, encoding="utf-8") as f:
        settings = json.load(f).get("settings", {})
    check(settings.get("dt", 0.001) == 0.001, "pendulum.json's dt is no longer 1 ms")
    run_dir = os.path.join(folder, "ms")
    pivot("run", scene, "--duration", "1.25", "--set", "/settings/output_rate_hz=100", "--out",
          run_dir, "--quiet")
    # metrics: one row per step, t = k / 1000, the double nearest the decimal (Python's k / 1000
    # is the correctly rounded quotient, so it is that double)
    _, rows = read_csv(os.path.join(run_dir, "metrics.csv"))
    check(len(rows) == 1250, f"{len(rows)} steps, expected 1250")
    for k, row in enumerate(rows, start=1):
        check(float(row[0]) == k / 1000, f"metrics.csv step {k}: t = {row[0]}, expected {k / 1000!r}")
    _, rows = read_csv(os.path.join(run_dir, "trajectory.csv"))
    times = [float(r[0]) for r in rows]
    check(times == [j / 100 for j in range(126)],
          f"trajectory.csv times {times[:3]} ... {times[-3:]}, expected j / 100 for j = 0..125")
    check(rows[-1][0] == "1.25", f"the last frame is written {rows[-1][0]}, not 1.25")
    s = summary(run_dir)
    check(s["simulated_time_s"] == 1.25, f"simulated_time_s = {s['simulated_time_s']!r}")
    # a step that is not a power of ten: 3 ms
    run_dir = os.path.join(folder, "3ms")
    pivot("run", scene, "--duration", "0.3", "--dt", "0.003", "--out", run_dir, "--quiet")
    _, rows = read_csv(os.path.join(run_dir, "metrics.csv"))
    check(len(rows) == 100, f"{len(rows)} steps of 3 ms, expected 100")
    for k, row in enumerate(rows, start=1):
        check(float(row[0]) == 3 * k / 1000, f"3 ms step {k}: t = {row[0]}, expected {3 * k / 1000!r}")
    check(summary(run_dir)["simulated_time_s"] == 0.3, "3 ms: simulated_time_s is not 0.3")


# ---- the end-of-run lines ----

def test_hybrid_summary():
    folder = fresh("hybrid")
    run_dir = os.path.join(folder, "marble")
    out, _ = pivot("run", "marble_in_bowl", "--duration", "0.5", "--out", run_dir)
    lines = [l for l in out.splitlines() if l.strip().startswith("hybrid ")]
    check(len(lines) == 1, f"expected one hybrid line, got: {out}")
    words = lines[0].replace(",", " ").replace(";", " ").split()
    # hybrid entries N exits M reduced pairs P at the end at most Q T s of D s in reduced mode
    entries, exits = int(words[2]), int(words[4])
    final_pairs, most = int(words[7]), int(words[13])
    reduced_time = float(words[14])
    header, rows = read_csv(os.path.join(run_dir, "metrics.csv"))
    pairs = [int(r[header.index("reduced_pairs")]) for r in rows]
    s = summary(run_dir)
    check(most >= 1, "the marble never ran in reduced mode")
    check(final_pairs == pairs[-1], f"reduced pairs at the end {final_pairs}, metrics {pairs[-1]}")
    check(most == max(pairs), f"at most {most}, metrics.csv {max(pairs)}")
    check(abs(reduced_time - sum(1 for p in pairs if p > 0) * s["dt"]) < 1e-9,
          f"time in reduced mode {reduced_time}, metrics.csv has "
          f"{sum(1 for p in pairs if p > 0)} steps of {s['dt']} s")
    rises = sum(max(0, b - a) for a, b in zip([0] + pairs, pairs))
    falls = sum(max(0, a - b) for a, b in zip([0] + pairs, pairs))
    check(entries == s["hybrid"]["entries"] and entries >= rises,
          f"entries {entries}: summary.json {s['hybrid']['entries']}, metrics.csv rises {rises}")
    check(exits == s["hybrid"]["exits"] and exits >= falls,
          f"exits {exits}: summary.json {s['hybrid']['exits']}, metrics.csv falls {falls}")
    check(s["hybrid"]["reduced_time_s"] == reduced_time, "summary.json reduced_time_s differs")
    check("joint error  no joints" in out, f"no joints: {out}")

    out, _ = pivot("run", "pendulum", "--duration", "0.01", "--out", os.path.join(folder, "p"))
    check(not [l for l in out.splitlines() if l.strip().startswith("hybrid")],
          f"a scene without the hybrid mode shows a hybrid line: {out}")
    check("joint error  max " in out, f"a scene with a joint: {out}")


def test_progress():
    """the progress line, on a terminal: with an ETA for a run over a second, none for a short one"""
    def stderr_on_a_terminal(args, stop_at=None):
        """pivot's stderr on a pty; with stop_at, the run is stopped once that text appeared
        (its exit code is then not checked)"""
        controller, terminal = pty.openpty()
        p = subprocess.Popen([PIVOT, *args], stdout=subprocess.DEVNULL, stderr=terminal)
        os.close(terminal)
        start, seen, stopped = time.monotonic(), b"", False
        while True:
            ready, _, _ = select.select([controller], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(controller, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                seen += chunk
                if stop_at is not None and stop_at.encode() in seen and not stopped:
                    p.kill()
                    stopped = True
            elif p.poll() is not None:
                break
        p.wait()
        os.close(controller)
        check(stopped or p.returncode == 0,
              f"pivot {' '.join(args)}: exit code {p.returncode}: {seen!r}")
        return seen.decode(errors="replace"), time.monotonic() - start

    folder = fresh("progress")
    text, wall = stderr_on_a_terminal(["run", "pendulum", "--duration", "0.01", "--out",
                                       os.path.join(folder, "short")])
    check("ETA" not in text, f"a run of {wall:.2f} s showed a progress line: {text!r}")
    # ten stacked boxes, 80 s of 5 ms steps on one thread: about 3 s of wall time on a release
    # build, minutes under the sanitizers; stopped as soon as its progress line shows an ETA
    text, wall = stderr_on_a_terminal(["run", "box_stack_10", "--duration", "80", "--threads", "1",
                                       "--out", os.path.join(folder, "long")], stop_at="ETA")
    if "ETA" not in text and wall < 1.5:
        print(f"skipped: the long run took only {wall:.2f} s")
        sys.exit(77)
    check("ETA" in text and "%" in text and "steps/s" in text,
          f"a run of {wall:.1f} s showed no progress line with an ETA: {text[:300]!r}")


# ---- pivot plot ----

def test_plot():
    folder = fresh("plot")
    run_dir = os.path.join(folder, "run")
    pivot("run", "chain_6_links", "--duration", "0.1", "--out", run_dir, "--quiet")
    out, _ = pivot("plot", run_dir)
    # the plots go into their own folder, not among the run's files
    plots = os.path.join(run_dir, "plots")
    check(all(os.path.dirname(os.path.abspath(l)) == os.path.abspath(plots) for l in out.split()),
          f"pivot plot wrote outside {plots}: {out.split()[:3]}")
    check(not any(n.endswith(".svg") for n in os.listdir(run_dir)),
          f"pivot plot left SVG files in the run folder: {sorted(os.listdir(run_dir))}")
    header, rows = read_csv(os.path.join(run_dir, "metrics.csv"))
    metrics = [c for c in header if c not in ("t", "status")]
    _, frames = read_csv(os.path.join(run_dir, "trajectory.csv"))
    bodies = sorted({f[1] for f in frames})
    written = sorted(os.path.basename(l) for l in out.split())
    expected = sorted([f"metric-{m}.svg" for m in metrics] + [f"body-{b}.svg" for b in bodies])
    check(written == expected, f"pivot plot wrote {written}, expected {expected}")
    ns = {"svg": "http://www.w3.org/2000/svg"}
    for name in expected:
        root = ET.parse(os.path.join(plots, name)).getroot()
        lines = root.findall("svg:polyline", ns)
        want = 1 if name.startswith("metric-") else 3  # x, y, z
        check(len(lines) == want, f"{name}: {len(lines)} curves, expected {want}")
        points = len(lines[0].get("points").split())
        rows_expected = len(rows) if name.startswith("metric-") else len(frames) // len(bodies)
        check(points == rows_expected, f"{name}: {points} points, expected {rows_expected}")
    # the first body's x in the plot, mapped back through the axes, is trajectory.csv's x
    body = bodies[0]
    root = ET.parse(os.path.join(plots, f"body-{body}.svg")).getroot()
    labels = [t.text for t in root.findall("svg:g/svg:text", ns)]
    check(labels[:3] == ["x (m)", "y (m)", "z (m)"], f"legend {labels}")
    xs = [float(f[2]) for f in frames if f[1] == body]
    ys = [float(p.split(",")[1]) for p in root.findall("svg:polyline", ns)[0].get("points").split()]
    lo, hi = min(xs), max(xs)
    if hi > lo:  # pixel y is affine in x, decreasing: its extremes are at the same frames
        check(ys.index(max(ys)) == xs.index(lo) and ys.index(min(ys)) == xs.index(hi),
              f"body-{body}.svg: the curve's extremes are not at trajectory.csv's")

    other = os.path.join(folder, "chosen")
    out, _ = pivot("plot", run_dir, "--metrics", "total_energy,max_joint_error", "--bodies",
                   bodies[-1], "--fields", "vx,vz", "--out", other)
    check(sorted(os.listdir(other)) == sorted(["metric-total_energy.svg",
                                               "metric-max_joint_error.svg",
                                               f"body-{bodies[-1]}.svg"]),
          f"--metrics/--bodies/--out wrote {sorted(os.listdir(other))}")
    for args, expected in ((["--metrics", "colour"], "--metrics colour: metrics.csv has no such column"),
                           (["--bodies", "nobody"], "--bodies nobody: trajectory.csv has no dynamic body"),
                           (["--fields", "speed"], "--fields speed: unknown trajectory field")):
        _, err = pivot("plot", run_dir, *args, code=2)
        check(err.startswith("pivot: error: " + expected) and err.count("\n") == 1,
              f"plot {' '.join(args)}: {err!r}")
    _, err = pivot("plot", folder, code=2)
    check("not a run folder" in err, f"plot of a folder without a run: {err!r}")


# ---- a suite of one's own, and its report ----

def test_own_suite():
    import re
    folder = fresh("own_suite")
    suite = os.path.join(folder, "suite")
    os.makedirs(os.path.join(suite, "cases"))
    case = {"scene": "box_drop.json", "description": "a case of my own",
            "checks": [{"name": "falls", "measure": {"kind": "min", "body": "box", "field": "z"},
                        "at_most": 0.5, "source": "it starts higher and comes to rest on the floor"}]}
    with open(os.path.join(suite, "cases", "mine.json"), "w", encoding="utf-8") as f:
        json.dump(case, f)
    report = os.path.join(folder, "elsewhere", "deeper", "report.md")
    out, _ = pivot("regress", "--suite", suite, "--filter", "^case:mine$", "--report", report,
                   "--out", os.path.join(folder, "runs"))
    with open(report, encoding="utf-8") as f:
        text = f.read()
    check("## Figures" not in text, "a report without figures has a Figures heading")
    links = dict(re.findall(r"\[([^\]]+)\]\(([^)]+)\)", text))
    check("docs/regression.md" in links, f"no link to docs/regression.md: {links}")
    for name, target in links.items():
        resolved = os.path.normpath(os.path.join(os.path.dirname(report), target))
        check(os.path.exists(resolved), f"the report's link {name} -> {target} leads nowhere")
    cases_links = [t for n, t in links.items() if n.endswith("cases/")]
    check(len(cases_links) == 1 and os.path.samefile(
        os.path.join(os.path.dirname(report), cases_links[0]), os.path.join(suite, "cases")),
        f"the report does not point at the suite's own cases folder: {links}")

    # the case asks for a figure: the report draws it
    case["figure"] = {"title": "my box", "y_label": "z (m)", "caption": "the box falls",
                      "series": [{"label": "z", "body": "box", "field": "z"},
                                 {"label": "contacts / 10", "metric": "contacts", "scale": 0.1}]}
    with open(os.path.join(suite, "cases", "mine.json"), "w", encoding="utf-8") as f:
        json.dump(case, f)
    pivot("regress", "--suite", suite, "--filter", "^case:mine$", "--report", report, "--out",
          os.path.join(folder, "runs"))
    with open(report, encoding="utf-8") as f:
        text = f.read()
    figure = os.path.join(os.path.dirname(report), "report-case-mine.svg")
    check("## Figures" in text and "(report-case-mine.svg)" in text and os.path.isfile(figure),
          "the case's figure is not in the report")
    ns = {"svg": "http://www.w3.org/2000/svg"}
    curves = ET.parse(figure).getroot().findall("svg:polyline", ns)
    check(len(curves) == 2, f"the case's figure has {len(curves)} curves, expected 2")

    # a golden the suite does not have: the line says how to record one
    out, _ = pivot("regress", "--suite", suite, "--filter", "^golden:box_drop$", "--out",
                   os.path.join(folder, "runs"), code=1)
    check("FAIL  golden:box_drop  golden file: expected a golden, measured none (record one: "
          "pivot regress --record-goldens --filter '^golden:box_drop$')" in out,
          f"missing golden: {out}")


if __name__ == "__main__":
    sys.exit(run(globals()))
