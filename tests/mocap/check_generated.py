#!/usr/bin/env python3
"""The shipped BVH clips (scenes/mocap/*.bvh) are what tools/mocap/make_bvh.py writes: the
generator is run into a temporary folder and every file compared byte for byte.

    check_generated.py GENERATOR SHIPPED_DIR
"""
import filecmp
import os
import subprocess
import sys
import tempfile

generator, shipped = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([sys.executable, generator, tmp], check=True, stdout=subprocess.DEVNULL)
    written = sorted(os.listdir(tmp))
    kept = sorted(name for name in os.listdir(shipped) if name.endswith(".bvh"))
    if not written:
        sys.exit("the generator wrote no clip")
    if written != kept:
        sys.exit(f"the generator writes {written}, the shipped folder holds {kept}")
    bad = [name for name in written
           if not filecmp.cmp(os.path.join(tmp, name), os.path.join(shipped, name), shallow=False)]
if bad:
    sys.exit("differ from the generator's output: " + ", ".join(bad))
print("the shipped clips are the generator's output")
