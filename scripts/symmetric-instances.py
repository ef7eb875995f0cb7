#!/usr/bin/env python3
"""Symmetric instance families for the default strategy's symmetry handling (issue 28;
docs/benchmarks.md, "Solving modulo the instance's symmetries").

  symmetric-instances.py blocked N M SEED GENS OUT    e.g. blocked 48 1962 1 r180 b.txt
  symmetric-instances.py diags N SEED GENS T OUT      e.g. diags 21 1 flip_v 22 d.txt

GENS: elements joined by '+'. QS: the queens-sat binary (default target/release/queens-sat).
blocked: `generate blocked` at n, m, then every cell takes the value of its orbit's
representative (first in row-major order) -> blocked set closed under the group, density kept.
diags: walk the generated excluded-diagonal list, adding each diagonal's orbit, until >= T."""
import subprocess, sys, os, re
B = os.environ.get("QS", "target/release/queens-sat")
def ap(g, r, c, n):
    """The image of cell (r, c) under element g (src/symmetry.rs conventions)."""
    m = n - 1
    return {"r90": (c, m - r), "r180": (m - r, m - c), "r270": (m - c, r), "flip_h": (m - r, c),
            "flip_v": (r, m - c), "flip_d": (c, r), "flip_a": (m - c, m - r)}[g]
def orbit(gens, cell, n):
    seen = {cell}; todo = [cell]
    while todo:
        r, c = todo.pop()
        for g in gens:
            x = ap(g, r, c, n)
            if x not in seen: seen.add(x); todo.append(x)
    return seen
def blocked(n, m, seed, gens, out):
    txt = subprocess.run([B, "generate", "blocked", "-n", str(n), "-m", str(m), "--min-free", "1",
                          "--seed", str(seed), "--format", "board"], capture_output=True, text=True, check=True).stdout
    rows = [l for l in txt.splitlines() if l and not l.startswith("#")]
    assert len(rows) == n
    newrows = []
    for r in range(n):
        line = ""
        for c in range(n):
            rep = min(orbit(gens, (r, c), n))
            line += rows[rep[0]][rep[1]]
        newrows.append(line)
    nb = sum(l.count("x") for l in newrows)
    with open(out, "w") as f:
        f.write(f"# blocked n={n} m={m} seed={seed} closed under {'+'.join(gens)}: {nb} blocked\n")
        f.write("\n".join(newrows) + "\n")
    return nb
def line_cells(kind, key, n):
    m = n - 1
    if kind == 0:  # diagonal: key = r + m - c
        return [(r, r + m - key) for r in range(n) if 0 <= r + m - key < n]
    return [(r, key - r) for r in range(n) if 0 <= key - r < n]
def line_of(cells, n):
    m = n - 1
    if len({r + m - c for r, c in cells}) == 1: return (cells[0][0] + m - cells[0][1], 0)
    if len({r + c for r, c in cells}) == 1: return (cells[0][0] + cells[0][1], 1)
    raise ValueError
def diags(n, seed, gens, target, out):
    src = os.path.join(os.path.dirname(os.path.abspath(out)), f"diagonals-n{n}-s{seed}.txt")
    if not os.path.exists(src):
        subprocess.run([B, "generate", "diagonals", "-n", str(n), "--min-free", "1", "--seed", str(seed), "-o", src], check=True)
    txt = open(src).read()
    body = txt[txt.index("diags"):]
    lst = [tuple(map(int, p)) for p in re.findall(r"\[(\d+),(\d+)\]", body)]
    chosen = []
    for key, kind in lst:
        if len(chosen) >= target: break
        orb = {(key, kind)}; todo = [(key, kind)]
        while todo:
            k, t = todo.pop()
            cells = line_cells(t, k, n)
            for g in gens:
                img = line_of([ap(g, r, c, n) for r, c in cells], n) if len(cells) > 1 else None
                if img is None:
                    (r, c), = cells; r2, c2 = ap(g, r, c, n)
                    # a corner: the one-cell line there (a diagonal at (0, m) and (m, 0))
                    img = (r2 + n - 1 - c2, 0) if r2 != c2 else (r2 + c2, 1)
                if img not in orb: orb.add(img); todo.append(img)
        for d in sorted(orb):
            if d not in chosen: chosen.append(d)
    with open(out, "w") as f:
        f.write(f"# excluded diagonals n={n} seed={seed} closed under {'+'.join(gens)}, target {target}\n")
        f.write(f"n = {n}\nnumdiags = {len(chosen)}\ndiags = [" + ",".join(f"[{k},{t}]" for k, t in chosen) + "]\n")
    return len(chosen)
if __name__ == "__main__":
    os.makedirs(os.path.dirname(os.path.abspath(sys.argv[-1])), exist_ok=True)
    kind = sys.argv[1]
    if kind == "blocked":
        n, m, seed, gens, out = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split("+"), sys.argv[6]
        print(blocked(n, m, seed, gens, out))
    else:
        n, seed, gens, target, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split("+"), int(sys.argv[5]), sys.argv[6]
        print(diags(n, seed, gens, target, out))
