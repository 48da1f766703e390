#!/usr/bin/env bash
# Makes the committed reference run, docs/reference/results.json, and refreshes every generated
# block of README.md and docs/ from it: the default `cargo bench`, the four measurement passes at
# their quick sizes and the cache pass over the cells where ours is behind, the file trimmed (scripts/trim-reference-run.py); the same again right after
# it (docs/reference/results-again.json, what the pages' A/A figures compare it with, so both
# judge the claims on the same passes); then the blocks written by the docs test. Run it from a quiet
# machine on a committed tree: the files record the commit, the machine and each step's seconds
# (the README's reference-run block shows them).
set -euo pipefail
cd "$(dirname "$0")/.."
DODBENCH="target/release/dodbench"

# Both runs record the commit as it is now: the first run's file is written into the tree
# before the second starts, which would otherwise make the second a run of a changed tree.
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "reference-run.sh: commit first; the runs record the commit they measure" >&2
    exit 1
fi
export DODBENCH_COMMIT="$(git rev-parse HEAD)"

run() {
    DODBENCH_FRESH=1 cargo bench
    "$DODBENCH" cache --quick
    "$DODBENCH" cache --behind
    "$DODBENCH" memory --quick
    "$DODBENCH" latency --quick
    "$DODBENCH" sweep --quick
    python3 scripts/trim-reference-run.py target/dodbench/results.json "$1"
}

run docs/reference/results.json
run docs/reference/results-again.json
"$DODBENCH" claims docs/reference/results.json | tail -1
DODBENCH_BLESS=1 cargo test -p dodbench --test integration docs_blocks
