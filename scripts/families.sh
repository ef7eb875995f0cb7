#!/usr/bin/env bash
# One model, four solver families (issue 13): blocked n=48 instances near the phase transition
# (m=1962, the ASP competition's density), exported with `encode --to dimacs|opb|lp|mzn` and
# solved by cadical (DIMACS), clasp (OPB), CBC (LP) and Gecode through MiniZinc. Every answer is
# decoded and verified by `queens-sat decode`; the verdicts must agree across families.
#
# usage: scripts/families.sh [SEEDS] [TIMEOUT_S] [QUEENS_SAT]   (defaults: 10 60 target/release/queens-sat)
# prints a markdown table: seconds per instance and family (TO = time limit), then the sums.
set -euo pipefail
seeds=${1:-10}
limit=${2:-60}
qs=${3:-target/release/queens-sat}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# run NAME ANSWER_FILE FILE_TO_DECODE CMD... : time CMD (answer to ANSWER_FILE), decode it,
# print "seconds verdict".
run() {
    local ans=$1 file=$2
    shift 2
    local t0 t1 rc
    t0=$(date +%s.%N)
    set +e
    timeout "$limit" "$@" >"$ans" 2>/dev/null
    rc=$?
    set -e
    t1=$(date +%s.%N)
    local secs
    secs=$(echo "$t1 - $t0" | bc)
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        echo "TO unknown"
        return
    fi
    set +e
    "$qs" decode --file "$file" --model "$ans" >/dev/null 2>"$ans.err"
    rc=$?
    set -e
    case $rc in
    10) printf '%.2f SAT\n' "$secs" ;;
    20) printf '%.2f UNSAT\n' "$secs" ;;
    *) printf '%.2f unknown(%s)\n' "$secs" "$(head -c 120 "$ans.err")" ;;
    esac
}

echo "| seed | verdict | cadical (DIMACS) | clasp (OPB) | CBC (LP) | Gecode (MiniZinc) |"
echo "|---|---|---|---|---|---|"
declare -A sum solved
for fam in cadical clasp cbc gecode; do
    sum[$fam]=0
    solved[$fam]=0
done
for seed in $(seq 1 "$seeds"); do
    inst=$dir/b$seed.txt
    "$qs" generate blocked -n 48 -m 1962 --min-free 1 --seed "$seed" -o "$inst"
    for f in dimacs opb lp mzn; do
        "$qs" encode --instance "$inst" --to $f -o "$dir/b$seed.$f" >/dev/null 2>"$dir/encode.err" ||
            { cat "$dir/encode.err" >&2; exit 1; }
    done
    declare -A r
    r[cadical]=$(run "$dir/ans.cadical" "$dir/b$seed.dimacs" cadical -q "$dir/b$seed.dimacs")
    r[clasp]=$(run "$dir/ans.clasp" "$dir/b$seed.opb" clasp "$dir/b$seed.opb")
    rm -f "$dir/cbc.sol"
    r[cbc]=$(run "$dir/cbc.log" "$dir/b$seed.lp" bash -c "cbc '$dir/b$seed.lp' solve solu '$dir/cbc.sol' >/dev/null && cat '$dir/cbc.sol'")
    r[gecode]=$(run "$dir/ans.gecode" "$dir/b$seed.mzn" minizinc --solver gecode "$dir/b$seed.mzn")
    verdict=unknown
    row=""
    for fam in cadical clasp cbc gecode; do
        read -r secs v <<<"${r[$fam]}"
        if [ "$v" = SAT ] || [ "$v" = UNSAT ]; then
            if [ "$verdict" != unknown ] && [ "$verdict" != "$v" ]; then
                echo "seed $seed: $fam says $v, another family said $verdict" >&2
                exit 1
            fi
            verdict=$v
            sum[$fam]=$(echo "${sum[$fam]} + $secs" | bc)
            solved[$fam]=$((solved[$fam] + 1))
        else
            [ "$secs" = TO ] || echo "seed $seed: $fam: ${r[$fam]}" >&2
            secs=TO
            sum[$fam]=$(echo "${sum[$fam]} + $limit" | bc)
        fi
        row="$row | $secs"
    done
    echo "| $seed | $verdict$row |"
done
echo "| solved / sum (TO = $limit s) | | ${solved[cadical]}/$seeds, ${sum[cadical]} | ${solved[clasp]}/$seeds, ${sum[clasp]} | ${solved[cbc]}/$seeds, ${sum[cbc]} | ${solved[gecode]}/$seeds, ${sum[gecode]} |"
