"""The pivot Python module where users have Python (docs/python.md "Getting it"):

  venv_install   `pip install --no-build-isolation .` into a virtual environment made with
                 --system-site-packages installs a package that imports, finds the shipped scenes
                 by name and runs one to the CLI's hash, from another folder, without PYTHONPATH.
                 With PIVOT_CMAKE_BUILD_DIR set (CTest sets it to this build) pip packages that
                 build's module; without it pip configures and compiles the library for the
                 interpreter (several minutes: `cmake --workflow --preset rebuild` runs that).
  no_numpy       an interpreter without NumPy gets an ImportError that names NumPy and itself.
  wrong_python   a module built for another Python version says which, and which this is.

Usage: test_install.py CASE SOURCE_DIR BUILD_PYTHON_DIR PIVOT_CLI"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path


def fail(message: str) -> None:
    print("FAILED:", message)
    sys.exit(1)


def run(command, **kwargs):
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)
    return done.returncode, done.stdout + done.stderr


def make_venv(folder: Path, system_site_packages: bool) -> Path:
    venv.EnvBuilder(system_site_packages=system_site_packages, with_pip=system_site_packages,
                    clear=True).create(folder)
    return folder / "bin" / "python"


def clean_environment() -> dict:
    env = dict(os.environ)
    for key in ("PYTHONPATH", "PIVOT_SCENES_DIR"):
        env.pop(key, None)
    return env


def venv_install(source: Path, build_python: Path, cli: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        python = make_venv(Path(tmp) / "venv", system_site_packages=True)
        env = clean_environment()
        if os.environ.get("PIVOT_CMAKE_BUILD_DIR"):
            env["PIVOT_CMAKE_BUILD_DIR"] = os.environ["PIVOT_CMAKE_BUILD_DIR"]
        rc, out = run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                       "--quiet", source], env=env, cwd=tmp)
        if rc != 0:
            fail(f"pip install failed ({rc}):\n{out[-4000:]}")
        reference_dir = Path(tmp) / "cli"
        rc, out = run([cli, "run", source / "scenes" / "box_drop.json", "--out", reference_dir,
                       "--duration", "0.2", "--quiet"])
        if rc != 0:
            fail(f"pivot run failed: {out}")
        reference = json.loads((reference_dir / "summary.json").read_text())["final_state_hash"]
        script = ("import pivot, sys; print(pivot.__file__); "
                  "print(pivot.run('box_drop', duration=0.2)['final_state_hash']); "
                  "print(pivot.load_scene('rolling_sphere').body_count)")
        rc, out = run([python, "-c", script], env=env, cwd=tmp)
        if rc != 0:
            fail(f"the installed package failed:\n{out}")
        lines = out.split()
        if not lines[0].startswith(str(Path(tmp) / "venv")):
            fail(f"pivot was imported from {lines[0]}, not from the virtual environment")
        if lines[1] != reference:
            fail(f"box_drop from the venv ended on {lines[1]}, the CLI on {reference}")
        print(f"installed into a venv: {lines[0]}; box_drop {lines[1]} as the CLI")


def no_numpy(source: Path, build_python: Path, cli: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        python = make_venv(Path(tmp) / "bare", system_site_packages=False)
        rc, _ = run([python, "-c", "import numpy"])
        if rc == 0:
            print("skipped: a bare virtual environment imports NumPy here")
            sys.exit(77)
        env = clean_environment()
        env["PYTHONPATH"] = str(build_python)
        rc, out = run([python, "-c", "import pivot"], env=env)
        if rc == 0:
            fail("import pivot succeeded without NumPy")
        if "needs NumPy" not in out or str(python) not in out:
            fail(f"the error names neither NumPy nor the interpreter:\n{out}")
        print("without NumPy:", out.strip().splitlines()[-1])


def wrong_python(source: Path, build_python: Path, cli: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        package = Path(tmp) / "pivot"
        shutil.copytree(build_python / "pivot", package)
        info = package / "_build_info.py"
        text = info.read_text()
        built = f'PYTHON_VERSION = "{sys.version_info.major}.{sys.version_info.minor}"'
        if built not in text:
            fail(f"{info} does not record this interpreter's version:\n{text}")
        info.write_text(text.replace(built, 'PYTHON_VERSION = "3.99"'))
        env = clean_environment()
        env["PYTHONPATH"] = tmp
        rc, out = run([sys.executable, "-c", "import pivot"], env=env)
        here = f"{sys.version_info.major}.{sys.version_info.minor}"
        if rc == 0 or "built for Python 3.99" not in out or f"this is Python {here}" not in out:
            fail(f"a module built for another Python was not named:\n{out}")
        print("another Python:", out.strip().splitlines()[-1])


if __name__ == "__main__":
    case, source, build_python, cli = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
    {"venv_install": venv_install, "no_numpy": no_numpy, "wrong_python": wrong_python}[case](
        source, build_python, cli)
