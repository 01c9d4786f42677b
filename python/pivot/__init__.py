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
import sys
import tempfile
from pathlib import Path


def _check_environment() -> None:
    """Says, before the native module is loaded, what a mismatch of interpreter or NumPy is, in
    place of the extension's bare "initialization failed"."""
    try:
        from . import _build_info
    except ImportError:  # a package assembled without CMake's file: nothing to compare
        return
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    if here != _build_info.PYTHON_VERSION:
        raise ImportError(
            f"pivot's native module was built for Python {_build_info.PYTHON_VERSION} "
            f"({_build_info.PYTHON_EXECUTABLE}), and this is Python {here} ({sys.executable}): "
            "install pivot for this interpreter (`python -m pip install --no-build-isolation .` "
            "in the source tree, docs/python.md) or run the one it was built for")
    try:
        import numpy  # noqa: F401  (the native module's arrays are NumPy's)
    except ImportError as e:
        raise ImportError(
            f"pivot needs NumPy, which this interpreter ({sys.executable}) cannot import ({e}): "
            "install it (`python -m pip install numpy`, or Debian's python3-numpy), or make the "
            "virtual environment with --system-site-packages") from e


_check_environment()

from ._pivot import (  # noqa: E402,F401  (re-exported)
    WORLD,
    Actuator,
    Error,
    Sensor,
    Shape,
    World,
    WorldSettings,
    __version__,
    lcp,
    shapes,
)
from ._pivot import Batch as _Batch  # noqa: E402
from ._pivot import load_scene as _load_scene  # noqa: E402
from .control import Env  # noqa: E402,F401  (re-exported)
from ._pivot import run_scene as _run_scene  # noqa: E402


def scene_folders() -> list[Path]:
    """The folders where shipped scenes are looked for by name, in order: $PIVOT_SCENES_DIR, the
    scenes installed with this package (pip), PREFIX/share/pivot/scenes (cmake --install), the
    source tree this package was built from."""
    folders = []
    if os.environ.get("PIVOT_SCENES_DIR"):
        folders.append(Path(os.environ["PIVOT_SCENES_DIR"]))
    package = Path(__file__).resolve().parent
    folders.append(package / "scenes")
    folders.append(package.parents[3] / "share" / "pivot" / "scenes")
    try:
        from . import _build_info
        folders.append(Path(_build_info.SOURCE_SCENES_DIR))
    except ImportError:
        pass
    return folders


def _scene_argument(scene):
    """A dict, an existing path, or a path with a folder is used as it is; a bare name is a
    shipped scene (`box_drop` or `box_drop.json`), as `pivot run NAME` takes it."""
    if isinstance(scene, dict) or not isinstance(scene, (str, os.PathLike)):
        return scene
    given = Path(os.fspath(scene))
    if given.exists() or str(given.parent) != "." or not str(given):
        return scene
    for folder in scene_folders():
        for candidate in (folder / given, folder / (str(given) + ".json")):
            if candidate.is_file():
                return str(candidate)
    raise Error(f"{given}: cannot open the file, and no shipped scene is named \"{given.stem}\" "
                f"(looked in {', '.join(str(f) for f in scene_folders())})")


def load_scene(scene) -> World:
    """A World built from a scene: a file's path, a shipped scene's name (`"box_drop"`), or a
    dict of its JSON. Raises pivot.Error naming the file and the JSON pointer."""
    return _load_scene(_scene_argument(scene))


def run_scene(scene, duration: float | None = None, frames: bool = False):
    """Runs a scene (a path, a shipped scene's name or a dict) in this process without the GIL;
    returns (world, summary), or (world, summary, frames) with frames=True, as the native
    run_scene does (docs/python.md)."""
    return _run_scene(_scene_argument(scene), duration, frames)



class Batch(_Batch):
    """n independent copies of a scene's World (a path, a shipped scene's name or a dict),
    stepped together on a thread pool without the GIL: step(actions, steps=1) takes an (n, k)
    array of actuator targets and returns the (n, m) observations (docs/python.md "Batches of
    worlds")."""

    def __init__(self, scene, n: int, threads: int = 0) -> None:
        super().__init__(_scene_argument(scene), n, threads)


__all__ = ["WORLD", "Actuator", "Batch", "Env", "Error", "Sensor", "Shape", "World",
           "WorldSettings", "__version__", "cli_path", "lcp", "load_scene", "run", "run_scene",
           "scene_folders", "shapes"]


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
    """Runs a scene (a file's path, a shipped scene's name or a dict of its JSON) and returns its
    summary.

    Without `out` the run is in this process, without the GIL, through the library's
    Simulation, and the summary has summary.json's keys (docs/cli.md; "outputs" is empty). With
    `out` the `pivot run` command writes the run folder (trajectory.csv, metrics.csv,
    summary.json) and its summary.json is returned: the same keys and values either way but the
    wall times and "outputs". Bad input raises pivot.Error with the CLI's message.
    """
    scene = _scene_argument(scene)
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
