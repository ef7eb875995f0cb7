#!/usr/bin/env python3
"""Projects the core-seconds of a big count from a random sample of its cubes (issue 35 §3).

The job folder of `split count` holds C cube lines; the count's work is the sum of the cube
lines' work. This script draws cube lines uniformly at random (seeded), and while a drawn cube
is still too big to count here (the split's Knuth estimate of it, over --rate, above --leaf
seconds) it splits that cube again (`split count --instance`) and draws one of its sub-cubes
uniformly, multiplying the fan-out. The leaf is counted with `count --engine backtrack --jobs 1`
(the engine `work` runs per cube line), by its own timer; fan-out x seconds is an unbiased estimate of the drawn
cube's time, and C x their mean of the whole count's. The interval is the mean's normal
95 % interval and a bootstrap percentile interval (2,000 resamples); both are wide when a few
cubes hold most of the work, which is what the sample shows.

Rows (one per drawn cube) are appended to --out as they come, so a killed run resumes.

  scripts/project-count.py --piece amazon -n 27 --cubes 262144 --sample 40 --out a27.tsv
  scripts/project-count.py --piece amazon -n 20 --sample 40 --out a20.tsv   # to validate

QS: the queens-sat binary (default target/release/queens-sat).
"""
import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile

QS = os.environ.get("QS", "target/release/queens-sat")


def split(args, out, n=None, instance=None, cubes=None):
    """Runs `split count`; returns (estimated work, cube lines as cell lists, fixed lines)."""
    cmd = [QS, "split", "count", "--piece", args.piece, "--tasks", "1", "-o", out]
    cmd += ["-n", str(n)] if n is not None else ["--instance", instance]
    if cubes:
        cmd += ["--cubes", str(cubes)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"split failed: {' '.join(cmd)}: {r.stderr.strip()}")
    m = re.search(r"estimated work ([0-9.e+]+)", r.stdout + r.stderr)
    work = float(m.group(1)) if m else float("nan")
    lines, fixed = [], 0
    for line in open(os.path.join(out, "cubes")):
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split()
        if parts[0] == "fixed":
            fixed += 1
            continue
        lines.append([tuple(map(int, c.split(","))) for c in parts[1:]])
    return work, lines, fixed


def board(n, cells):
    rows = [["."] * n for _ in range(n)]
    for r, c in cells:
        rows[r][c] = "Q"
    return "\n".join("".join(r) for r in rows) + "\n"


def count_seconds(path):
    """The leaf's count time by its own timer (`count --format json`, microseconds; CPU time
    by the clock tick would be too coarse for small leaves), so run it on a quiet machine."""
    r = subprocess.run(
        [QS, "count", "--instance", path, "--piece", ARGS.piece, "--engine", "backtrack",
         "--jobs", "1", "--format", "json"],
        capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"count failed on {path}: {r.stderr.strip()}")
    return json.loads(r.stdout)["seconds"]


def resume(path, header, column):
    """Rows already in `path` (draw or task -> the value in `column`), after writing `header`
    when the file is new: a killed run goes on where it stopped."""
    done = {}
    if os.path.exists(path):
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if f[0] != header.split("\t")[0]:
                done[int(f[0])] = float(f[column])
    else:
        with open(path, "w") as f:
            f.write(header + "\n")
    return done


def summary(xs, scale, rng, what):
    """Prints the projection `scale` x mean(xs) with its intervals."""
    mean = statistics.fmean(xs)
    sd = statistics.stdev(xs) if len(xs) > 1 else float("nan")
    total = scale * mean
    half = 1.96 * scale * sd / len(xs) ** 0.5
    boot = sorted(scale * statistics.fmean(rng.choices(xs, k=len(xs))) for _ in range(2000))
    lo, hi = boot[50], boot[1949]
    h = 3600.0
    print(f"\nprojected: {total:.4g} core-s = {total / h:.4g} core-hours "
          f"(normal 95 %: {max(0, total - half) / h:.4g}-{(total + half) / h:.4g}; "
          f"bootstrap 95 %: {lo / h:.4g}-{hi / h:.4g}) from {what}")
    for cores in (2, 100, 1000):
        print(f"  on {cores} cores: {total / cores / h:.3g} h ({lo / cores / h:.3g}-{hi / cores / h:.3g})")
    return total


def sample_tasks(args, tmp):
    """Samples whole tasks of a `split count --tasks T` job, each run by `work` (CPU seconds);
    projects T x their mean, and the ratio estimate (the split's estimate of the whole job x
    the sampled tasks' seconds per estimated unit)."""
    job = os.path.join(tmp, "job")
    cmd = [QS, "split", "count", "-n", str(args.n), "--piece", args.piece, "--tasks",
           str(args.tasks), "-o", job]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"split failed: {r.stderr.strip()}")
    est = {}
    for line in open(os.path.join(job, "tasks.tsv")):
        if not line.startswith("#"):
            f = line.rstrip("\n").split("\t")
            est[int(f[0])] = float(f[2])
    T = len(est)
    rng = random.Random(args.seed)
    draws = rng.sample(range(T), min(args.sample, T))
    done = resume(args.out, "task\testimate_units\tcpu_s", 2)
    print(f"{args.piece} n={args.n}: {T} tasks, estimated work {sum(est.values()):.4g} units")
    for t in draws:
        if t in done:
            continue
        before = os.times()
        r = subprocess.run([QS, "work", job, "--task", str(t), "--jobs", "1"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"work --task {t} failed: {r.stderr.strip()}")
        after = os.times()
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        with open(args.out, "a") as f:
            f.write(f"{t}\t{est[t]:.6g}\t{cpu:.3f}\n")
        done[t] = cpu
        print(f"task {t}: estimate {est[t]:.4g}, {cpu:.2f} s", flush=True)
    xs = [done[t] for t in draws]
    summary(xs, T, rng, f"{len(xs)} tasks of {T}")
    rate = sum(est[t] for t in draws) / sum(xs)
    print(f"  ratio estimate: {sum(est.values()) / rate:.4g} core-s "
          f"({rate:.4g} estimated units per CPU second in the sample)")


def main():
    global ARGS
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", type=int, required=True)
    p.add_argument("--piece", default="queen")
    p.add_argument("--cubes", type=int, default=None, help="cube lines of the top split")
    p.add_argument("--sample", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--leaf", type=float, default=2.0, help="estimated seconds a leaf may take")
    p.add_argument("--rate", type=float, default=3.0e8, help="estimated work units per core-second")
    p.add_argument("--tasks", type=int, default=0,
                   help="sample whole tasks of a job of this many tasks (`work --task`), "
                        "for counts small enough to run a task here")
    p.add_argument("--out", required=True)
    ARGS = args = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="project-")
    if args.tasks:
        return sample_tasks(args, tmp)
    work, cubes, fixed = split(args, os.path.join(tmp, "top"), n=args.n, cubes=args.cubes)
    C = len(cubes)
    print(f"{args.piece} n={args.n}: {C} cube lines (+{fixed} fixed-point lines), "
          f"estimated work {work:.4g} units, {work / args.rate:.4g} core-s at {args.rate:.3g}/s")
    rng = random.Random(args.seed)
    draws = [rng.randrange(C) for _ in range(args.sample)]
    done = resume(args.out, "draw\tcube\tdepth\tfanout\testimate_s\tleaf_s", 4)
    for i, c in enumerate(draws):
        if i in done:
            continue
        cells = list(cubes[c])
        fanout, depth = 1, 0
        while True:
            path = os.path.join(tmp, f"d{i}-{depth}.txt")
            open(path, "w").write(board(args.n, cells))
            sub = os.path.join(tmp, f"d{i}-{depth}")
            w, lines, _ = split(args, sub, instance=path)
            if w / args.rate <= args.leaf or not lines:
                break
            j = rng.randrange(len(lines))
            fanout *= len(lines)
            cells = cells + [x for x in lines[j] if x not in cells]
            depth += 1
        secs = count_seconds(path)
        with open(args.out, "a") as f:
            f.write(f"{i}\t{c}\t{depth}\t{fanout}\t{fanout * secs:.6g}\t{secs:.6g}\n")
        done[i] = fanout * secs
        print(f"draw {i}: cube {c}, depth {depth}, fan-out {fanout}, leaf {secs:.3f} s "
              f"-> {fanout * secs:.4g} s", flush=True)
    xs = [done[i] for i in range(args.sample) if i in done]
    total = summary(xs, C, rng, f"{len(xs)} cubes of {C}")
    h = 3600.0
    print(f"  the split's estimate over the rate: {work / args.rate / h:.4g} core-hours")


if __name__ == "__main__":
    main()
