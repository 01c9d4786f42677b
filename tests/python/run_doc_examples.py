"""Runs every ```python block of a Markdown page as a script, in order: each block is saved as a
file and run by this interpreter in a process of its own (`python3 block.py`, as a user who
saves the example would), from the repository's root (the examples use its scenes/). A block
that fails, or runs past its time limit (e.g. a Dask example without `if __name__ ==
"__main__":` respawning its workers), fails the page.

Usage: run_doc_examples.py PAGE.md REPOSITORY_ROOT [SECONDS_PER_BLOCK]"""

import re
import subprocess
import sys
import tempfile
from pathlib import Path


def main() -> None:
    page, root = Path(sys.argv[1]), Path(sys.argv[2])
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 300.0
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(), re.S)
    if not blocks:
        sys.exit(f"{page}: no python blocks")
    with tempfile.TemporaryDirectory() as tmp:
        for k, code in enumerate(blocks, 1):
            script = Path(tmp) / f"{page.stem}_block_{k}.py"
            script.write_text(code)
            print(f"--- {page.name} block {k}", flush=True)
            try:
                done = subprocess.run([sys.executable, str(script)], cwd=root, timeout=limit)
            except subprocess.TimeoutExpired:
                sys.exit(f"{page.name} block {k}: still running after {limit:g} s")
            if done.returncode != 0:
                sys.exit(f"{page.name} block {k}: exit code {done.returncode}")
    print(f"{len(blocks)} blocks ran")


if __name__ == "__main__":
    main()
