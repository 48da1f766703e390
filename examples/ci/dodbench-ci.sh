#!/usr/bin/env bash
# The steps of examples/ci/dodbench.yml, one subcommand each, run from a checkout's root: the
# workflow is a list of calls of this script, and docs/ci-matrix.md runs the same calls
# locally (cli/tests/integration/documented_commands.rs runs that page as copied).
#
#   shard K N   run the K-th of N shards of the quick matrix (DODBENCH_SHARD=K/N cargo bench)
#               and of the passes the baseline holds (simulated cache counts, allocator calls,
#               latency: --shard K/N); writes shard-K.json. With DODBENCH_TIMES_BRANCH and
#               DODBENCH_TIMES_COMMIT set, the cells are dealt by the cell times of that
#               commit's line in the history on that branch, when it has one
#   merge       put every shard-*.json into target/dodbench/results.json (dodbench merge, which
#               checks the shards make the whole bench and the whole of each pass), then add
#               the working-set sweep's smaller sizes, which are not split
#   gate        compare against reports/baseline/ (exit 1 on a regression of a deterministic
#               count); writes compare.md, the pull-request comment
#   comment PR  post compare.md on pull request PR (the GitHub CLI, GH_TOKEN)
#   history     append the run to history.jsonl; with DODBENCH_HISTORY_BRANCH set, read the
#               history from that branch first and push it back after (a CI job on main)
#   report      the HTML report with the history's trends, in target/dodbench/report/
#
# DODBENCH (default target/release/dodbench): the binary `cargo bench` built.
set -euo pipefail
DODBENCH="${DODBENCH:-target/release/dodbench}"

case "${1:-}" in
  shard)
    k="${2:?shard K N}"
    n="${3:?shard K N}"
    # The cache pass needs valgrind.
    command -v valgrind >/dev/null || { sudo apt-get update -qq && sudo apt-get install -y -qq valgrind; }
    # One line of an append-only history, the same for every job of the matrix, so every job
    # deals the cells alike; without it they are dealt by the rounds budget.
    times=()
    if [ -n "${DODBENCH_TIMES_BRANCH:-}" ] && [ -n "${DODBENCH_TIMES_COMMIT:-}" ] \
      && git fetch -q origin "$DODBENCH_TIMES_BRANCH" 2>/dev/null; then
      git show FETCH_HEAD:history.jsonl | grep -F "\"commit\":\"$DODBENCH_TIMES_COMMIT\"" \
        | grep -F '"cell_ms"' | tail -1 >shard-times.jsonl || true
      if [ -s shard-times.jsonl ]; then times=(DODBENCH_SHARD_TIMES=shard-times.jsonl); fi
    fi
    env "${times[@]}" DODBENCH_SHARD="$k/$n" DODBENCH_QUICK=1 DODBENCH_FRESH=1 cargo bench
    "$DODBENCH" cache --quick --shard "$k/$n"
    "$DODBENCH" memory --quick --shard "$k/$n"
    "$DODBENCH" latency --quick --shard "$k/$n"
    cp target/dodbench/results.json "shard-$k.json"
    ;;
  merge)
    # An artifact keeps no file modes.
    chmod +x "$DODBENCH"
    mkdir -p target/dodbench
    "$DODBENCH" merge shard-*.json -o target/dodbench/results.json
    "$DODBENCH" sweep --quick --n 1024 --n 16384
    ;;
  gate)
    "$DODBENCH" compare reports/baseline/baseline.json target/dodbench/results.json --markdown \
      >compare.md || status=$?
    cat compare.md
    exit "${status:-0}"
    ;;
  comment)
    gh pr comment "${2:?comment PR}" --body-file compare.md
    ;;
  history)
    branch="${DODBENCH_HISTORY_BRANCH:-}"
    parent=()
    if [ -n "$branch" ] && git fetch -q origin "$branch" 2>/dev/null; then
      git show FETCH_HEAD:history.jsonl >history.jsonl
      parent=(-p FETCH_HEAD)
    fi
    "$DODBENCH" history append history.jsonl --results target/dodbench/results.json
    if [ -n "$branch" ]; then
      # One commit on the branch holding history.jsonl alone, on top of its last one.
      blob=$(git hash-object -w history.jsonl)
      tree=$(printf '100644 blob %s\thistory.jsonl\n' "$blob" | git mktree)
      commit=$(git -c user.name=dodbench -c user.email=dodbench@localhost \
        commit-tree "$tree" "${parent[@]}" -m "dodbench history: $(git rev-parse --short HEAD)")
      git push -q origin "$commit:refs/heads/$branch"
    fi
    ;;
  report)
    "$DODBENCH" report --history history.jsonl
    ;;
  *)
    echo "usage: $0 shard K N | merge | gate | comment PR | history | report" >&2
    exit 2
    ;;
esac
