"""What the end-to-end CLI test scripts (behaviour.py, hardening.py) share: the failure and skip
exceptions, running the built `pivot` with an expected exit code, fresh work folders, and the
command line `SCRIPT TEST PIVOT SCENES_DIR WORK_DIR [BUILD_DIR]` that picks one test_* function.
"""
import os
import shutil
import subprocess
import sys

_config = {"PIVOT": None, "WORK": None}


class Failed(Exception):
    pass


class Skipped(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


def pivot(*args, cwd=None, code=0, timeout=120):
    """runs pivot; checks the exit code; returns (stdout, stderr)"""
    r = subprocess.run([_config["PIVOT"], *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, timeout=timeout)
    check(r.returncode == code,
          f"pivot {' '.join(map(str, args))[:300]}: exit code {r.returncode}, expected {code}\n"
          f"stdout: {r.stdout[:4000]}\nstderr: {r.stderr[:4000]}")
    return r.stdout, r.stderr


def fresh(name):
    path = os.path.join(_config["WORK"], name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def run(script_globals):
    """runs test_<TEST> of the calling script; sets its PIVOT, SCENES, WORK and BUILD globals
    from the command line. Exit 0 on success, 1 with a message on the first failed check, 77
    (CTest's skip) when something the test needs is not available on this machine"""
    name, pivot_exe, scenes, work, *rest = sys.argv[1:]
    _config.update(PIVOT=pivot_exe, WORK=work)
    script_globals.update(PIVOT=pivot_exe, SCENES=scenes, WORK=work,
                          BUILD=rest[0] if rest else None)
    os.makedirs(work, exist_ok=True)
    try:
        script_globals["test_" + name]()
    except Skipped as e:
        print(f"skipped: {e}")
        return 77
    except Failed as e:
        print(f"FAILED: {e}")
        return 1
    print(f"ok: {name}")
    return 0
