#!/usr/bin/env python3
"""The docs and the library's sources describe the code as it is: no line of README.md,
docs/**/*.md or the library's sources (engine/, collision/, lcp/, constraints/, core/,
scenes/*.cpp|hpp) numbers a past work period or an issue ("session N", "issue #N", "(#N)",
"stop N"), and none cites a private notes/ file that a clone does not have (notes/kry.md);
a comment cites the paper's section or a docs/ page instead. Git keeps the history.

usage: check_no_history.py REPOSITORY_ROOT"""

import re
import sys
from pathlib import Path

HISTORY = [
    (re.compile(r"\bsessions? \d+", re.I), "numbers a work session"),
    (re.compile(r"\bissues? #?\d+", re.I), "numbers an issue"),
    (re.compile(r"\(#\d+\)|(?<![\w&])#\d+\b(?![\w-])"), "numbers an issue"),
    (re.compile(r"\bstops? \d+\b", re.I), "numbers a work stop"),
    (re.compile(r"(?<![\w/.])notes/[\w\-/]+(\.md)?"), "cites a private notes/ file"),
]

LIBRARY = ["engine", "collision", "lcp", "constraints", "core"]


def files(root: Path) -> list:
    found = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    for folder in LIBRARY:
        found += sorted(p for p in (root / folder).rglob("*")
                        if p.is_file() and p.suffix in {".cpp", ".hpp", ".md", ".txt"})
    found += sorted(p for p in (root / "scenes").glob("*") if p.suffix in {".cpp", ".hpp"})
    return found


def main() -> int:
    root = Path(sys.argv[1]).resolve()
    problems = []
    checked = files(root)
    for path in checked:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern, what in HISTORY:
                hit = pattern.search(line)
                if hit:
                    problems.append(f"{path.relative_to(root)}:{number}: {what}: "
                                    f"\"{hit.group(0)}\"")
    for p in problems:
        print(p)
    print(f"{len(checked)} files checked: {len(problems)} lines with history")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
