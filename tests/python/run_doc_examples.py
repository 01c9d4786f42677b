"""Runs every ```python block of a Markdown page, in order, from the repository's root (the
examples use its scenes/), each in a fresh namespace; fails on the first exception."""

import os
import re
import sys
from pathlib import Path

def main() -> None:
    page, root = Path(sys.argv[1]), Path(sys.argv[2])
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(), re.S)
    if not blocks:
        sys.exit(f"{page}: no python blocks")
    os.chdir(root)
    for k, code in enumerate(blocks, 1):
        print(f"--- {page.name} block {k}", flush=True)
        exec(compile(code, f"{page.name}[block {k}]", "exec"), {"__name__": "__doc_example__"})
    print(f"{len(blocks)} blocks ran")


# guarded: the processes of a Dask LocalCluster (docs/sweeps.md) import this file again
if __name__ == "__main__":
    main()
