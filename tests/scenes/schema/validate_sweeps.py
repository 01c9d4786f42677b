"""The JSON Schema of sweep files (scenes/schema/pivot-sweep-1.schema.json) against pivot's
own reader: the shipped example sweeps validate, and bad sweep files that pivot rejects are
rejected by the schema too. Exit 77 (skipped) without python3-jsonschema.

    python3 validate_sweeps.py SCHEMA PIVOT GOOD_SWEEP... -- BAD_SWEEP..."""

import json
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed: skipped")
    sys.exit(77)

schema_path, pivot, *files = sys.argv[1:]
split = files.index("--")
good, bad = files[:split], files[split + 1:]
schema = json.load(open(schema_path))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failures = 0
for path in good:
    errors = list(validator.iter_errors(json.load(open(path))))
    listed = subprocess.run([pivot, "sweep", path, "--list"], capture_output=True, text=True)
    if errors or listed.returncode != 0:
        failures += 1
        print(f"FAIL {path}: schema {[e.message for e in errors]}, pivot: {listed.stderr.strip()}")
    else:
        print(f"ok   {path}")
for path in bad:
    listed = subprocess.run([pivot, "sweep", path, "--list"], capture_output=True, text=True)
    valid = validator.is_valid(json.load(open(path)))
    # a bad pointer is beyond a schema: only pivot, which reads the base scene, can reject it
    if listed.returncode != 2 or (valid and "the scene has no" not in listed.stderr):
        failures += 1
        print(f"FAIL {path}: schema valid {valid}, pivot exit {listed.returncode}")
    else:
        print(f"ok   {path} (rejected{' by pivot only' if valid else ''})")
sys.exit(1 if failures else 0)
