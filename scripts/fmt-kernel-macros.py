#!/usr/bin/env python3
"""Formats the bodies of the search kernels' per-ISA macros as rustfmt would.

rustfmt never formats inside `macro_rules!`; tests/it/hygiene.rs
(`kernel_macro_bodies_are_formatted`) checks these bodies by the same transform, and this script
rewrites them so that the test passes. Each arm's body is taken out (its lines between `=> {`
and the arm's closing `};`), made Rust by same-width substitutions (`$(#[$x])?` becomes
`#[λλλλλx]`, every other `$` a `λ`), formatted by `rustfmt --edition 2024` at its own indent
(inside two `mod`s, so 8 spaces as in the macro), and put back with the substitutions undone.
Only whitespace and trailing commas change, so the compiled code stays the same.

Usage: python3 scripts/fmt-kernel-macros.py   (from the repository root)
"""
import re
import subprocess
import sys

# Keep in step with KERNEL_MACROS in tests/it/hygiene.rs.
MACROS = [
    ("src/solve/bitboard/kernel.rs", "searcher"),
    ("src/count/fast.rs", "kernel"),
    ("src/count/lanes.rs", "lanes_kernel"),
]
HEAD, TAIL = "mod m0 {\n    mod m1 {\n", "\n    }\n}\n"


def fmt(body):
    if "λ" in body:
        sys.exit("the body already holds a λ")
    b = re.sub(r"\$\(#\[\$(\w+)\]\)\?", lambda m: "#[λλλλλ" + m.group(1) + "]", body)
    if "$(" in b:
        sys.exit("a repetition other than $(#[$x])? in a macro body")
    src = HEAD + b.replace("$", "λ") + TAIL
    out = subprocess.run(["rustfmt", "--edition", "2024"], input=src, capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith(HEAD) and out.endswith(TAIL), "rustfmt moved the wrapper"
    out = out[len(HEAD):-len(TAIL)]
    return re.sub(r"#\[λλλλλ(\w+)\]", lambda m: "$(#[$" + m.group(1) + "])?", out).replace("λ", "$")


def main():
    for path, name in MACROS:
        text = open(path).read()
        lines = text.split("\n")
        start = next(i for i, l in enumerate(lines) if l.startswith(f"macro_rules! {name} {{"))
        out, i = lines[:start], start
        while True:
            line = lines[i]
            out.append(line)
            arm = line.startswith("    ") and not line.startswith("     ")
            if arm and line.rstrip().endswith("=> {"):
                j = next(j for j in range(i + 1, len(lines)) if lines[j] in ("    };", "    }"))
                out.extend(fmt("\n".join(lines[i + 1:j])).split("\n"))
                i = j
                continue
            if line == "}":
                break
            i += 1
        new = "\n".join(out + lines[i + 1:])
        if new != text:
            open(path, "w").write(new)
            print("formatted", path)


main()
