"""Pivot: full-coordinate LCP rigid-body dynamics, from Python (docs/python.md).

    import pivot
    world = pivot.World(pivot.WorldSettings(time_step=1e-3))
    bob = world.add_body(name="bob", mass=1.0, position=(0.3, 0.0, -1.0))
    world.add_ball_joint(bob, pivot.WORLD, anchor=(0, 0, 0))
    world.step(2000)
    world.positions        # (n, 3) NumPy array

The native part is pivot._pivot; this file adds pivot.run, which runs a scene in this
process, or through the `pivot` command when a run folder is wanted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ._pivot import (  # noqa: F401  (re-exported)
    WORLD,
    Error,
    Shape,
    World,
    WorldSettings,
    __version__,
    lcp,
    load_scene,
    run_scene,
    shapes,
)

__all__ = ["WORLD", "Error", "Shape", "World", "WorldSettings", "__version__", "cli_path", "lcp",
           "load_scene", "run", "run_scene", "shapes"]


def cli_path() -> str:
    """The `pivot` command that pivot.run(out=...) calls: $PIVOT_CLI, else the one beside this
    package in a build tree (BUILD/bin/pivot), else `pivot` on PATH."""
    if os.environ.get("PIVOT_CLI"):
        return os.environ["PIVOT_CLI"]
    beside = Path(__file__).resolve().parent.parent.parent / "bin" / "pivot"
    if beside.is_file():
        return str(beside)
    found = shutil.which("pivot")
    if found is None:
        raise Error("pivot.run(out=...): the pivot command was not found "
                    "(set PIVOT_CLI, or put it on PATH)")
    return found


def run(scene, duration: float | None = None, out: str | os.PathLike | None = None) -> dict:
    """Runs a scene (a file's path or a dict of its JSON) and returns its summary.

    Without `out` the run is in this process, without the GIL, and the summary has the keys of
    run_scene's. With `out` the `pivot run` command writes the run folder (trajectory.csv,
    metrics.csv, summary.json; docs/cli.md) and its summary.json is returned: the same
    final_state_hash either way. Bad input raises pivot.Error with the CLI's message.
    """
    if out is None:
        return run_scene(scene, duration)[1]
    temporary = None
    if isinstance(scene, dict):
        # relative mesh paths of a dict are resolved against the current folder, as in-process
        handle, temporary = tempfile.mkstemp(prefix=".pivot-scene-", suffix=".json", dir=".")
        with os.fdopen(handle, "w") as f:
            json.dump(scene, f)
        scene = temporary
    try:
        command = [cli_path(), "run", os.fspath(scene), "--out", os.fspath(out), "--quiet"]
        if duration is not None:
            command += ["--duration", repr(float(duration))]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            message = done.stderr.strip().removeprefix("pivot: error: ").removeprefix("pivot: ")
            raise Error(message or f"pivot run failed with exit code {done.returncode}")
        with open(Path(out) / "summary.json") as f:
            return json.load(f)
    finally:
        if temporary is not None:
            os.unlink(temporary)
