#!/usr/bin/env python3
"""Counts the items of rustdoc's all-items page (methods not counted), the measure of issue 64.

Usage: scripts/public-items.py [--by-module] [CARGO_FEATURE_ARGS...]
  scripts/public-items.py --no-default-features   # what a library user's build shows
  scripts/public-items.py                         # the default features (the program's)
Builds the docs into a temporary target directory of its own, so the main one is untouched.
"""
import collections
import re
import subprocess
import sys
import tempfile


def main() -> None:
    args = sys.argv[1:]
    by_module = "--by-module" in args
    args = [a for a in args if a != "--by-module"]
    with tempfile.TemporaryDirectory() as target:
        subprocess.run(
            ["cargo", "doc", "-p", "queens-sat", "--no-deps", "--target-dir", target, *args],
            check=True,
            stderr=subprocess.DEVNULL,
        )
        with open(f"{target}/doc/queens_sat/all.html", encoding="utf-8") as f:
            page = f.read()
    items = re.findall(r'<li><a href="([^"]+)">([^<]+)</a></li>', page)
    if by_module:
        modules = collections.defaultdict(list)
        for _, name in items:
            *path, last = name.split("::")
            modules["::".join(path) or "(root)"].append(last)
        for m in sorted(modules):
            print(f"{len(modules[m]):3} {m}: {' '.join(sorted(modules[m]))}")
    print(f"{len(items)} items ({' '.join(args) or 'default features'})")


if __name__ == "__main__":
    main()
