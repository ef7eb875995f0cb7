#!/usr/bin/env bash
# Queens counting, one thread, side by side with NQueensFAF's CpuSolver (issue 35):
# alternating runs, each tool's own timer, the median per n printed as a Markdown table.
#
#   scripts/vs-nqueensfaf.sh NQUEENSFAF_CHECKOUT "16 17 18" RUNS
#
# NQueensFAF is built from its source with javac (its core and impl modules, without the GPU
# solver; its save/restore library, kryo, is replaced by empty classes, since the benchmark
# never saves). queens-sat runs `count --engine backtrack --jobs 1` from target/release.
set -euo pipefail
src=${1:?the NQueensFAF checkout (a work tree or a bare repository)}
ns=${2:-"16 17"}
runs=${3:-5}
qs=${QUEENS_SAT:-target/release/queens-sat}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$src/.git" ] || [ -f "$src/HEAD" ]; then
    for f in $(git -C "$src" ls-tree -r --name-only HEAD nqueensfaf-core/src/main nqueensfaf-impl/src/main | grep 'java$' | grep -v -e GpuSolver -e InfoUtil -e module-info); do
        mkdir -p "$work/src/$(dirname "$f")"
        git -C "$src" show "HEAD:$f" > "$work/src/$f"
    done
else
    echo "$src: not a git checkout" >&2
    exit 1
fi
mkdir -p "$work/stub/com/esotericsoftware/kryo/io" "$work/out"
cat > "$work/stub/com/esotericsoftware/kryo/Kryo.java" <<'J'
package com.esotericsoftware.kryo;
public class Kryo { public void register(Class<?> c) {} public void writeObject(com.esotericsoftware.kryo.io.Output o, Object x) { throw new UnsupportedOperationException(); } public <T> T readObject(com.esotericsoftware.kryo.io.Input i, Class<T> c) { throw new UnsupportedOperationException(); } }
J
cat > "$work/stub/com/esotericsoftware/kryo/io/Output.java" <<'J'
package com.esotericsoftware.kryo.io;
public class Output implements AutoCloseable { public Output(java.io.OutputStream s) {} public void close() {} public void flush() {} }
J
cat > "$work/stub/com/esotericsoftware/kryo/io/Input.java" <<'J'
package com.esotericsoftware.kryo.io;
public class Input implements AutoCloseable { public Input(java.io.InputStream s) {} public void close() {} }
J
cat > "$work/Run.java" <<'J'
import de.nqueensfaf.impl.CpuSolver;
public class Run {
    public static void main(String[] a) {
        CpuSolver s = new CpuSolver();
        s.setN(Integer.parseInt(a[0]));
        s.setThreadCount(1);
        s.start();
        System.out.println(s.getSolutions() + " " + s.getDuration() / 1000.0);
    }
}
J
javac -d "$work/out" $(find "$work/src" "$work/stub" -name '*.java') "$work/Run.java"
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "| queens | queens-sat, s | NQueensFAF, s | ratio | runs |"
echo "|---|---|---|---|---|"
for n in $ns; do
    : > "$work/q" ; : > "$work/f"
    for _ in $(seq "$runs"); do
        out=$("$qs" count -n "$n" --engine backtrack --jobs 1 --format json)
        echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])' >> "$work/q"
        total=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
        read -r sols secs < <(java -cp "$work/out" Run "$n")
        [ "$sols" = "$total" ] || { echo "n=$n: NQueensFAF $sols, queens-sat $total" >&2; exit 1; }
        echo "$secs" >> "$work/f"
    done
    q=$(median < "$work/q" | xargs printf "%.3f"); f=$(median < "$work/f" | xargs printf "%.3f")
    echo "| $n | $q | $f | $(python3 -c "print(f'{$q/$f:.2f}')") | $runs |"
done
