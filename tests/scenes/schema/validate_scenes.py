#!/usr/bin/env python3
"""Validates scenes against the JSON Schema of the scene format (scenes/schema/).

usage: validate_scenes.py SCHEMA PIVOT SCENE...

Each scene file is validated as it is, and so is what `pivot check` writes for it (the scene
with every default filled in: the writer's keys must be the schema's too). Exit 0 when all
validate, 1 when one does not (each failure printed with its JSON pointer), 77 (CTest's skip)
when Python's jsonschema package is missing (tools/setup.sh installs python3-jsonschema).
"""
import json
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("skipped: the Python package jsonschema is missing (apt-get install python3-jsonschema)")
    sys.exit(77)


def pointer(path):
    return "/" + "/".join(str(p) for p in path) if path else "(document)"


def main():
    schema_path, pivot, *scenes = sys.argv[1:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    failures = 0
    # controls: documents the loader rejects must be rejected by the schema too, or a green
    # run would mean nothing
    for bad in ({"pivot_scene": 1, "colour": "red"},
                {"pivot_scene": 1, "$schemas": "x.json"},
                {"pivot_scene": 1, "bodies": [{"name": "b", "mass": -1.0}]},
                {"pivot_scene": 1, "bodies": [{"name": "b", "shape": {"type": "teapot"}}]},
                {"pivot_scene": 1, "bodies": [{"name": "b", "mass": 1, "quat_wxyz": [1, 0, 0, 0],
                                               "axis_angle_deg": {"axis": [0, 0, 1],
                                                                  "angle": 90}}]},
                {"pivot_scene": 1, "bodies": [{"name": "b", "mass": 1,
                                               "euler_deg": {"angles": [0, 0, 90]}}]},
                # the magnitude limits of docs/limits.md (issue #24)
                {"pivot_scene": 1, "bodies": [{"name": "b", "mass": 1e308}]},
                {"pivot_scene": 1, "bodies": [{"name": "b", "mass": 1, "velocity": [1e200, 0, 0]}]},
                {"pivot_scene": 1, "bodies": [{"name": "b", "mass": 1, "position": [0, 0, 1e300]}]},
                {"pivot_scene": 1, "settings": {"hybrid_tolerance": 1e-300}},
                {"pivot_scene": 1, "settings": {"max_post_steps": 1000000000}}):
        if validator.is_valid(bad):
            print(f"control: the schema accepts {json.dumps(bad)}, which the loader rejects")
            failures += 1
    # and accepts what the loader accepts beyond the shipped scenes: "$schema", the orientation
    # keys
    good = {"$schema": "schema/pivot-scene-1.schema.json", "pivot_scene": 1,
            "bodies": [{"name": "a", "mass": 1, "axis_angle_deg": {"axis": [0, 0, 1], "angle": 90}},
                       {"name": "c", "shape": {"type": "capsule", "radius": 0.1, "half_length": 0}},
                       {"name": "b", "mass": 1,
                        "euler_deg": {"intrinsic": "zyx", "angles": [30, 20, 10]}}]}
    for e in validator.iter_errors(good):
        print(f"control: the schema rejects a valid scene: {pointer(list(e.absolute_path))}: "
              f"{e.message}")
        failures += 1
    for scene in scenes:
        with open(scene, encoding="utf-8") as f:
            as_written = json.load(f)
        checked = subprocess.run([pivot, "check", scene], capture_output=True, text=True)
        if checked.returncode != 0:
            print(f"{scene}: pivot check failed: {checked.stderr.strip()}")
            failures += 1
            continue
        filled = json.loads(checked.stdout)
        for label, document in (("file", as_written), ("pivot check output", filled)):
            errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
            for e in errors:
                print(f"{scene} ({label}): {pointer(list(e.absolute_path))}: {e.message}")
            failures += len(errors)
    print(f"{len(scenes)} scenes, {2 * len(scenes)} documents validated, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
