"""Builds pivot's native Python module with CMake for the interpreter that runs pip.

    python -m pip install --no-build-isolation .

configures a release build of the library and the module in build/pip-pyX.Y (Ninja, unity
batches, no tests or CLI) for `sys.executable`, builds the target pivot_python and puts the
module, the file that records what it was built for, and the shipped scenes (so that
pivot.load_scene("box_drop") works) into the package. With PIVOT_CMAKE_BUILD_DIR set, that
already configured build folder is used as it is (its interpreter must be this one): a build
tree's module is packaged without compiling the library again. Needs CMake, Ninja, a C++20
compiler, pybind11 and the library's packages (tools/setup.sh installs them on Debian).
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(r"project\(pivot VERSION ([0-9.]+)", text)
    if not found:
        sys.exit("setup.py: no `project(pivot VERSION ...)` in CMakeLists.txt")
    return found.group(1)


def run(command: list) -> None:
    print("setup.py:", " ".join(str(c) for c in command), flush=True)
    subprocess.run([str(c) for c in command], check=True)


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        for tool in ("cmake", "ninja"):
            if shutil.which(tool) is None:
                sys.exit(f"setup.py: {tool} was not found; install it (tools/setup.sh on Debian)")
        given = os.environ.get("PIVOT_CMAKE_BUILD_DIR")
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        build_dir = Path(given) if given else ROOT / "build" / f"pip-py{version}"
        if not given:
            run(["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja",
                 "-DCMAKE_BUILD_TYPE=Release", f"-DPython_EXECUTABLE={sys.executable}",
                 "-DPIVOT_PYTHON=ON", "-DPIVOT_BUILD_TESTS=OFF", "-DPIVOT_BUILD_TOOLS=OFF",
                 "-DPIVOT_UNITY_BUILD=ON"])
        run(["cmake", "--build", build_dir, "--target", "pivot_python"])
        package = build_dir / "python" / "pivot"
        natives = sorted(package.glob("_pivot*.so"))
        if not natives:
            sys.exit(f"setup.py: the build made no native module in {package}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(natives[0], target)
        shutil.copyfile(package / "_build_info.py", target.parent / "_build_info.py")
        # the shipped scenes and their meshes, motions and sweeps, without the scene-format code
        # (scenes/format/)
        scenes = target.parent / "scenes"
        shutil.rmtree(scenes, ignore_errors=True)
        shutil.copytree(ROOT / "scenes", scenes,
                        ignore=lambda folder, names:
                        ["format"] if Path(folder) == ROOT / "scenes" else [])


setup(version=project_version(), ext_modules=[CMakeExtension("pivot._pivot")],
      cmdclass={"build_ext": CMakeBuild})
