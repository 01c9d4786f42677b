"""The force files of `pivot run` (docs/cli.md "contacts.csv", "joints.csv"), end to end.

- A 1 kg box resting on a plane (scenes/box_rest.json): in every frame after the first, the
  normal impulses of its contacts sum to the weight's impulse over one step, m g h (statics),
  with normals +z from the ground to the box and no friction impulse.
- The 6-link chain (scenes/chain_6_links.json): one joints.csv row per joint and frame in scene
  order, no impulse before the first step, the anchors on A and B together (the joint error
  is below 1e-6 m), and the pin's linear impulse on link 1 pointing up (it holds the chain).
- A planar joint whose normal is tilted: its axis columns (ux, uy, uz) are the normal, unit,
  turned with body A (the puck, which turns only about it: the normal as the scene gives it).
- --no-forces writes neither file, removes them from a folder that had them, lists what it
  wrote in summary.json, and gives the same final-state hash; so does --html when pivot has the
  viewer (recording outputs must not change the simulation).

usage: check_forces.py PIVOT SCENES_DIR OUT_DIR
"""
import csv
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

pivot, scenes, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
shutil.rmtree(out, ignore_errors=True)
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def run(folder, *args):
    r = subprocess.run([pivot, "run", *map(str, args), "--out", str(out / folder), "--quiet"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"pivot run {args} exited with {r.returncode}: {r.stderr}")
    return json.loads((out / folder / "summary.json").read_text())


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# the box at rest
summary = run("box", scenes / "box_rest.json", "--duration", 0.1)
h, m, g = summary["dt"], 1.0, 9.81
contacts = rows(out / "box" / "contacts.csv")
by_frame = {}
for c in contacts:
    by_frame.setdefault(float(c["t"]), []).append(c)
check(len(by_frame) == 5, f"contacts in the 5 frames after t = 0 at 50 Hz (got {len(by_frame)})")
for t, cs in sorted(by_frame.items()):
    total = sum(float(c["normal_impulse"]) for c in cs)
    check(abs(total - m * g * h) <= 1e-6 * m * g * h,
          f"t = {t}: the {len(cs)} normal impulses sum to m g h = {m * g * h:.6g} N s (got {total:.9g})")
    check(all(c["body_a"] == "box" and c["body_b"] == "ground" for c in cs), f"t = {t}: box on ground")
    check(all(abs(float(c["nz"]) - 1) < 1e-12 for c in cs), f"t = {t}: normals +z")
    friction = max(math.hypot(float(c["fx"]), float(c["fy"]), float(c["fz"])) for c in cs)
    check(friction < 1e-9, f"t = {t}: no friction impulse at rest (largest {friction:.3g} N s)")
check(summary["outputs"] == ["trajectory.csv", "metrics.csv", "summary.json", "shapes.json",
                             "contacts.csv", "joints.csv"], f"summary.json outputs: {summary['outputs']}")

# the same run without the force files, into the same folder
quiet = run("box", scenes / "box_rest.json", "--duration", 0.1, "--no-forces")
check(not (out / "box" / "contacts.csv").exists() and not (out / "box" / "joints.csv").exists(),
      "--no-forces removes contacts.csv and joints.csv of the earlier run")
check(quiet["final_state_hash"] == summary["final_state_hash"],
      f"--no-forces: the same final-state hash ({quiet['final_state_hash']})")
check("contacts.csv" not in quiet["outputs"], "--no-forces: summary.json outputs without them")

# the chain
summary = run("chain", scenes / "chain_6_links.json", "--duration", 0.05)
joints = rows(out / "chain" / "joints.csv")
frames = sorted({float(j["t"]) for j in joints})
trajectory_frames = sorted({float(r["t"]) for r in rows(out / "chain" / "trajectory.csv")})
check(frames == trajectory_frames, f"joints.csv has the frames of trajectory.csv ({len(frames)})")
check(len(joints) == 6 * len(frames), f"6 joint rows per frame ({len(joints)} rows)")
names = [j["joint"] for j in joints[:6]]
check(all(j["joint"] == names[k % 6] for k, j in enumerate(joints)), f"joints in scene order {names}")
impulse_cols = ["fx", "fy", "fz", "tx", "ty", "tz"]
check(all(float(j[c]) == 0 for j in joints if float(j["t"]) == 0 for c in impulse_cols),
      "no impulse at t = 0")
gap = max(math.dist([float(j[k]) for k in ("ax", "ay", "az")], [float(j[k]) for k in ("bx", "by", "bz")])
          for j in joints)
check(gap < 1e-6, f"anchors on A and B together (largest distance {gap:.3g} m)")
pin = [j for j in joints if j["joint"] == names[0] and float(j["t"]) > 0]
check(all(float(j["fz"]) > 0 for j in pin), "the pin's impulse on link 1 points up")

# a puck on a planar joint to the world, normal (0, 1, 1)/√2, written by this test
out.mkdir(parents=True, exist_ok=True)
planar_scene = out / "planar_joint.json"
planar_scene.write_text(json.dumps({
    "pivot_scene": 1, "name": "planar joint",
    "settings": {"dt": 0.01, "duration": 0.05},
    "bodies": [{"name": "puck", "mass": 1, "position": [0, 0, 1],
                "shape": {"type": "sphere", "radius": 0.1}}],
    "joints": [{"name": "slide", "type": "planar", "body_a": "puck", "body_b": "world",
                "anchor": [0, 0, 1], "normal": [0, 1, 1]}]}))
run("planar", planar_scene)
planar = rows(out / "planar" / "joints.csv")
normal = [0, 1 / math.sqrt(2), 1 / math.sqrt(2)]
check(len(planar) > 1 and all(
    math.dist([float(j[k]) for k in ("ux", "uy", "uz")], normal) < 1e-12 for j in planar),
    f"planar joint: ux, uy, uz is its unit normal in every frame (first {planar[0]['ux']}, "
    f"{planar[0]['uy']}, {planar[0]['uz']})")

for flag in ["--html"]:
    r = subprocess.run([pivot, "run", scenes / "chain_6_links.json", "--duration", "0.05", flag,
                        "--out", out / "chain-html", "--quiet"], capture_output=True, text=True)
    if r.returncode == 2 and "replays are unavailable" in r.stderr:
        print(f"ok    {flag}: pivot has no viewer here ({r.stderr.strip()})")
        continue
    other = json.loads((out / "chain-html" / "summary.json").read_text())
    check(r.returncode == 0 and other["final_state_hash"] == summary["final_state_hash"],
          f"{flag}: the same final-state hash ({other['final_state_hash']})")
    check((out / "chain-html" / "replay.html").exists(), f"{flag}: replay.html written")

sys.exit(1 if failures else 0)
