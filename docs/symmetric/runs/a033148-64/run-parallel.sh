#!/bin/bash
# queens-sat 0.1.0 count job 2b3eda7eb96b74c3ea4c61c9: runs its 256 tasks with GNU parallel.
# Local by default (one task per core). Arguments go to parallel, e.g.
#   ./run-parallel.sh --jobs 4
#   ./run-parallel.sh --sshlogin 8/node1,8/node2   (the folder and the binary must be at
#   the same paths on every host, e.g. a shared file system)
# Finished tasks are skipped, so running it again resumes. Then: queens-sat merge <folder>
set -euo pipefail
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
QS="${QUEENS_SAT:-/work/main/target/release/queens-sat}"
seq 0 255 | parallel --will-cite --joblog "$DIR/logs/parallel.log" "$@" "$QS" work "$DIR" --task {}
