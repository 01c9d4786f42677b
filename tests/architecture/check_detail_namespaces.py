#!/usr/bin/env python3
"""Internal headers declare into a detail namespace (docs/architecture.md, "How the build keeps the graph").

Usage: check_detail_namespaces.py SOURCE_DIR PUBLIC
PUBLIC lists the installed headers as "folder:header,header|folder:...", as the build's
pivot_module() calls declare them (a module's folder is its name but for scenes, scenes/format).
Every other .hpp of a module folder is internal: what it
declares must be in a namespace with a `detail` part (pivot::detail, pivot::lcp::detail, ...).
It may reopen another namespace only to forward-declare types ("struct X;", "class X;") or to
define a nested class of a public type ("class World::Access ... { ... };"). Prints every
offence and exits 1 if there was one.
"""
import pathlib
import re
import sys

OPEN = re.compile(r"^namespace ([A-Za-z_][\w:]*) \{")
CLOSE = re.compile(r"^\}  // namespace")
FORWARD = re.compile(r"^(struct|class) \w+;")
NESTED_CLASS = re.compile(r"^(struct|class) \w+::\w+")


def is_detail(name):
    return "detail" in name.split("::")


def offences_of(path):
    """(line number, text, namespace) of each declaration outside a detail namespace"""
    found = []
    stack = []  # the named namespaces open at this line
    in_nested_class = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if in_nested_class:
            in_nested_class = not line.startswith("};")
            continue
        opened = OPEN.match(line)
        if opened:
            stack.append(opened.group(1))
            continue
        if CLOSE.match(line):
            if stack:
                stack.pop()
            continue
        text = line.strip()
        if not stack or not text or text.startswith(("//", "#", "/*", "*")):
            continue
        if any(is_detail(n) for n in stack):
            continue
        if FORWARD.match(line):
            continue
        if NESTED_CLASS.match(line):
            in_nested_class = not line.rstrip().endswith(";")
            continue
        if line.startswith(" ") or text in ("}", "};"):  # inside a declaration
            continue
        found.append((number, text, "::".join(stack)))
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root = pathlib.Path(sys.argv[1])
    public = {}
    for entry in sys.argv[2].split("|"):
        module, _, headers = entry.partition(":")
        public[module] = set(h for h in headers.split(",") if h)
    count = 0
    checked = 0
    for module, headers in sorted(public.items()):
        for path in sorted((root / module).rglob("*.hpp")):
            relative = path.relative_to(root / module).as_posix()
            if relative in headers:
                continue
            checked += 1
            for number, text, namespace in offences_of(path):
                print(f"{module}/{relative}:{number}: '{text}' is declared in namespace "
                      f"{namespace}; an internal header declares into a detail namespace")
                count += 1
    if count:
        print(f"{count} declaration(s) of internal headers outside a detail namespace")
        return 1
    print(f"{checked} internal headers checked: every declaration is in a detail namespace")
    return 0


if __name__ == "__main__":
    sys.exit(main())
