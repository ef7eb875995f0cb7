#!/usr/bin/env bash
# Runs every fuzz target for SECS seconds (default 600) from the checked-in seeds and prints
# libFuzzer's final statistics. cargo-fuzz needs nightly features: RUSTC_BOOTSTRAP=1 enables
# them on the stable toolchain. Crashes land in fuzz/artifacts/<target>/.
set -u
cd "$(dirname "$0")"
secs=${1:-600}
for t in board param diags header output answers; do
  mkdir -p corpus/$t
  cp -n seeds/$t/* corpus/$t/ 2>/dev/null
  RUSTC_BOOTSTRAP=1 cargo fuzz run "$t" corpus/$t -- -max_total_time="$secs" -max_len=4096 \
    > "/tmp/fuzz-$t.log" 2>&1
  echo "$t exit=$? $(grep -E '^Done|stat::number_of_executed_units' /tmp/fuzz-$t.log | tail -2 | tr '\n' ' ')"
done
