#!/usr/bin/env python3
"""Every relative link of README.md and docs/**/*.md resolves in a clone (a link with an
#anchor to a page: one of that page's headings), every docs page that a tracked source
file, script or doc cites (docs/<page>.md) exists, and a section it cites by name
(docs/<page>.md "Section") is one of that page's headings or bold paragraph lead-ins.

usage: check_links.py REPOSITORY_ROOT"""

import re
import subprocess
import sys
from pathlib import Path


def anchors(page: Path) -> set:
    """GitHub's heading anchors: lower case, punctuation but - and _ dropped, spaces to -."""
    found = set()
    in_code = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip().lower()
        text = re.sub(r"[^\w\- ]", "", text)
        found.add(text.replace(" ", "-"))
    return found


def titles(page: Path) -> list:
    """A page's headings and the bold lead-ins of its paragraphs (**Threads.**), lower case."""
    text = page.read_text(encoding="utf-8")
    found = [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]
    found += re.findall(r"\*\*([^*]+)\*\*", text)
    return [re.sub(r"\s+", " ", t).lower() for t in found]


def main() -> int:
    root = Path(sys.argv[1]).resolve()
    listed = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True)
    if listed.returncode == 0:
        tracked = listed.stdout.split()
    else:  # not a git checkout (an unpacked archive): the files outside build and npm folders
        tracked = [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()
                   and not {"build", "node_modules", ".git"} & set(p.relative_to(root).parts)]
    problems = []
    pages = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    link = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
    for page in pages:
        text = page.read_text(encoding="utf-8")
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in link.findall(text):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            path, _, anchor = target.partition("#")
            resolved = (page.parent / path).resolve()
            if not resolved.exists():
                problems.append(f"{page.relative_to(root)}: link to {target}: no such file")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                problems.append(f"{page.relative_to(root)}: link to {target}: no such heading")
    cited = re.compile(r"docs/([\w\-/]+\.md)(#[\w\-]+)?")
    # a figure or data file under docs/ (not a web address's docs/ folder)
    cited_file = re.compile(r"(?<![\w/.:-])docs/([\w\-/]+\.(?:png|svg|jpg|gif|csv|html|py))\b")
    section_cited = re.compile(r"docs/([\w\-/]+\.md)\)?,? \(?\"([^\"]{3,80})\"")
    for name in tracked:
        if not re.search(r"\.(cpp|hpp|py|pyi|js|mjs|cmake|sh|md|txt|json)$|^\.ci/", name):
            continue
        if name.startswith("docs/regression/") or name.startswith("tests/fuzz/corpus"):
            continue
        text = (root / name).read_text(encoding="utf-8", errors="replace")
        for other in set(cited_file.findall(text)):
            if not (root / "docs" / other).exists():
                problems.append(f"{name}: cites docs/{other}: no such file")
        for doc, anchor in set(cited.findall(text)):
            page = root / "docs" / doc
            if not page.exists():
                problems.append(f"{name}: cites docs/{doc}: no such file")
        # a section cited by name, docs/<page>.md "Section":
        # the start of one of that page's headings or bold lead-ins, across comment lines
        flat = re.sub(r"\n\s*(///?|#)?\s*", " ", text)
        for doc, section in set(section_cited.findall(flat)):
            page = root / "docs" / doc
            wanted = re.sub(r"\s+", " ", section).strip().lower()
            if page.exists() and not any(t.startswith(wanted) or wanted in t
                                         for t in titles(page)):
                problems.append(f"{name}: cites docs/{doc} \"{section}\": no such section")
    for p in problems:
        print(p)
    print(f"{len(pages)} pages, {len(tracked)} files checked: {len(problems)} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
