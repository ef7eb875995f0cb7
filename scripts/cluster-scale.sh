#!/bin/bash
# Scale benchmark of the cluster path (issue 12): split -> run-parallel.sh -> merge against a
# plain `count` on the same machine, checked against the published counts; prints a table.
# Usage: scripts/cluster-scale.sh [QUEENS_SAT]   (default: target/release/queens-sat)
# SCALE_18=1 adds queens n = 18; SCALE_19=1 adds queens n = 19 and amazons n = 19, 20 (hours
# on 2 cores). The expected counts are the published ones (src/count/reference.rs).
set -euo pipefail
Q="$(realpath "${1:-target/release/queens-sat}")"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
echo "| job | tasks | cube lines | count (s) | split (s) | parallel (s) | merge (s) | task s: min / median / max (est. max/min) | total / unique |"
echo "|---|---|---|---|---|---|---|---|---|"
row() {
  local name="$1" tasks="$2" want="$3"; shift 3
  local t0 t1 t2 t3 t4 out
  t0=$(now); "$Q" count "$@" --engine backtrack --jobs "$(nproc)" >/dev/null; t1=$(now)
  "$Q" split count "$@" -o "$W/$name" --tasks "$tasks" 2>/dev/null; t2=$(now)
  "$W/$name/run-parallel.sh" >/dev/null 2>&1; t3=$(now)
  out=$("$Q" merge "$W/$name" --format json || true); t4=$(now)
  local got cubes
  got=$(echo "$out" | sed -E 's/.*"total":([0-9]+),"unique":([0-9]+).*/\1 \/ \2/')
  cubes=$(grep -vc '^#' "$W/$name/cubes")
  [ "$got" = "$want" ] || { echo "MISMATCH $name: got $got, want $want"; exit 1; }
  local spread est
  spread=$(cat "$W/$name"/results/*.json | sed -E 's/.*"seconds":([0-9.e-]+).*/\1/' | sort -g |
    awk '{ a[NR] = $1 } END { printf "%.2f / %.2f / %.2f", a[1], a[int((NR + 1) / 2)], a[NR] }')
  est=$(awk -F'\t' '!/^#/ { if (min == "" || $3 < min) min = $3; if ($3 > max) max = $3 } END { printf "%.2f", max / min }' "$W/$name/tasks.tsv")
  echo "| $name | $tasks | $cubes | $(secs "$t0" "$t1") | $(secs "$t1" "$t2") | $(secs "$t2" "$t3") | $(secs "$t3" "$t4") | $spread ($est) | $got |"
}
row queens-15 16 "2279184 / 285053" -n 15
row queens-17 32 "95815104 / 11977939" -n 17
row amazons-18 32 "8924976 / 1115871" -n 18 --piece amazon
if [ "${SCALE_18:-0}" = 1 ]; then
  row queens-18 100 "666090624 / 83263591" -n 18
fi
if [ "${SCALE_19:-0}" = 1 ]; then
  row queens-19 400 "4968057848 / 621012754" -n 19
  row amazons-19 100 "64492432 / 8062150" -n 19 --piece amazon
  row amazons-20 400 "495864256 / 61984976" -n 20 --piece amazon
fi
