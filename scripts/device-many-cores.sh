#!/usr/bin/env bash
# Device check (issue 55): the default count engine and the split search on a 16-core Xeon.
B=./target/release/queens-sat
echo "cores $(nproc)"; grep -m1 "model name" /proc/cpuinfo
echo "isa: $(grep -o 'avx512[a-z]*\|bmi2\|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
TIMEFORMAT="wall %R s"
run() { echo "== $*"; time ( "$@" 2>&1 | tail -4 ); }
for n in 16 17; do run $B count -n $n --jobs 1 --format json; done
for n in 16 17 18 19; do run $B count -n $n --jobs 16 --format json; done
$B generate diagonals -n 30 --min-free 1 --seed 9105 -o /tmp/d30.txt
run timeout 200 $B solve --instance /tmp/d30.txt --diags 31 --jobs 16 --timeout 150
