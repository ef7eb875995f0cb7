#!/bin/bash
# Prints the compression-level table of docs/benchmarks.md (best of 3 per row).
# Compression level table: queens-sat encode -n 100 --amo pairwise -o FILE.cnf.EXT --level L
Q="${QUEENS_SAT:-$(dirname "$0")/../target/release/queens-sat}"
$Q encode -n 100 --amo pairwise -o "${TMPDIR:-/tmp}"/qs-levels.cnf 2>/dev/null
plain=$(stat -c %s "${TMPDIR:-/tmp}"/qs-levels.cnf)
echo "| codec | level | MB | ratio | seconds | MB/s of text |"
echo "|---|---|---|---|---|---|"
for spec in xz:0 xz:1 xz:2 xz:3 xz:6 gz:1 gz:6 gz:9 zst:1 zst:3 zst:9 zst:19; do
  c=${spec%%:*}; l=${spec##*:}
  best=999
  for r in 1 2 3; do
    s=$( { /usr/bin/time -f "%e" $Q encode -n 100 --amo pairwise -o "${TMPDIR:-/tmp}"/qs-levels.cnf.$c --level $l 2>&1 >/dev/null; } | tail -1)
    best=$(python3 -c "print(min($best,$s))")
  done
  size=$(stat -c %s "${TMPDIR:-/tmp}"/qs-levels.cnf.$c)
  python3 -c "print(f'| $c | $l | {$size/1e6:.2f} | {$plain/$size:.1f} | $best | {$plain/1e6/$best:.0f} |')"
done
for l in 1 6; do
  best=999
  for r in 1 2 3; do
    s=$( { /usr/bin/time -f "%e" xz -T2 -$l -c "${TMPDIR:-/tmp}"/qs-levels.cnf > "${TMPDIR:-/tmp}"/qs-levels.xz; } 2>&1 | tail -1)
    best=$(python3 -c "print(min($best,$s))")
  done
  size=$(stat -c %s "${TMPDIR:-/tmp}"/qs-levels.xz)
  python3 -c "print(f'| xz -T2 (CLI, on the written file) | $l | {$size/1e6:.2f} | {$plain/$size:.1f} | $best | {$plain/1e6/$best:.0f} |')"
done
