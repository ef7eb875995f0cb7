#!/usr/bin/env python3
"""A/B of the default strategy's symmetry handling (issue 28): each instance solved with it
(`sym`: --break-symmetry cubes, on every instance kind) and without (`none`: --break-symmetry
none), back to back, the order alternating per instance. Rows appended to OUT (resumable).

  LIMIT=30 OUT=ab.tsv symmetry-ab.py FAMILY INSTANCE...
QS: the queens-sat binary (default target/release/queens-sat)."""
import json, os, subprocess, sys, time
B = os.environ.get("QS", "target/release/queens-sat")
OUT = os.environ.get("OUT", "ab.tsv")
LIMIT = float(os.environ.get("LIMIT", "60"))
done = set()
if os.path.exists(OUT):
    for l in open(OUT):
        p = l.rstrip("\n").split("\t"); done.add((p[0], p[1], p[2]))
else:
    open(OUT, "w").write("family\tinstance\tconfig\tstatus\tseconds\tsolver\n")
def run(family, inst, cfg):
    if (family, inst, cfg) in done: return
    args = [B, "solve", "--instance", inst, "--timeout", str(LIMIT), "--format", "json"]
    args += ["--break-symmetry", "cubes" if cfg == "sym" else "none"]
    t = time.time()
    r = subprocess.run(args, capture_output=True, text=True)
    s = time.time() - t
    try:
        j = json.loads(r.stdout); st, solver = j["status"], j.get("solver", "")
    except Exception:
        st, solver = "ERROR", r.stderr.strip()[:100]
    with open(OUT, "a") as f:
        f.write(f"{family}\t{inst}\t{cfg}\t{st}\t{s:.3f}\t{solver}\n")
    print(family, os.path.basename(inst), cfg, st, f"{s:.2f}", flush=True)
family = sys.argv[1]
for i, inst in enumerate(sys.argv[2:]):
    for cfg in (("sym", "none") if i % 2 == 0 else ("none", "sym")):
        run(family, inst, cfg)
