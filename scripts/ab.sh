#!/usr/bin/env bash
# A/B of two commits on this machine: builds both revisions in temporary git worktrees, runs
# the same quick benchmark matrix in alternating rounds (A B, B A, A B, ...) so drift of the
# machine cancels, and prints per benchmark the B/A ratio of ns/op with a 95% interval
# (`dodbench ab-report`, which does the statistics).
#
# What a developer runs before merging a performance change, e.g.
#   DODBENCH_SIZES=1000 scripts/ab.sh main HEAD 'id_table/churn/'
set -euo pipefail

usage_text() {
  cat <<'EOF'
usage: scripts/ab.sh [-r ROUNDS] [-k] REV_A REV_B [FILTER]

  REV_A, REV_B  any git revisions (commits, branches, tags)
  FILTER        criterion filter (regex on family/workload/design/n), e.g. 'id_table/churn/'
  -r ROUNDS     rounds per side (default 3; more rounds, narrower intervals)
  -k            keep the work directory (worktrees are always removed)

Environment: DODBENCH_QUICK (default 1), DODBENCH_SIZES, DODBENCH_SEED are passed to both
sides; AB_TARGET_DIR is the shared build cache (default target/ab/build of this checkout).
EOF
}
# A wrong call: the usage on stderr, exit 2. `-h` / `--help`: on stdout, exit 0.
usage() {
  usage_text >&2
  exit 2
}
if [[ ${1:-} == "--help" || ${1:-} == "-h" ]]; then
  usage_text
  exit 0
fi

rounds=3
keep=0
while getopts ":r:kh" opt; do
  case $opt in
    r) rounds=$OPTARG ;;
    k) keep=1 ;;
    h) usage_text; exit 0 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -ge 2 && $# -le 3 ]] || usage
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ab.sh: -r needs a positive integer, got '$rounds'" >&2; exit 2; }
rev_a=$1
rev_b=$2
filter=${3:-}

repo=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)
resolve() {
  git -C "$repo" rev-parse --verify --quiet "$1^{commit}" ||
    { echo "ab.sh: '$1' is not a commit in $repo" >&2; exit 2; }
}
sha_a=$(resolve "$rev_a")
sha_b=$(resolve "$rev_b")

# Builds are cached across invocations (only the worktree paths' crates rebuild); the worktrees,
# per-side outputs and results live in a fresh temporary directory.
build_dir=${AB_TARGET_DIR:-$repo/target/ab/build}
mkdir -p "$build_dir"
work=$(mktemp -d "${TMPDIR:-/tmp}/dodbench-ab.XXXXXX")
worktrees=()
cleanup() {
  local status=$?
  for wt in "${worktrees[@]}"; do
    git -C "$repo" worktree remove --force "$wt" >/dev/null 2>&1 || true
  done
  if [[ $keep == 1 ]]; then
    echo "ab.sh: kept $work" >&2
  else
    rm -rf "$work"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export DODBENCH_QUICK=${DODBENCH_QUICK:-1}
step() { printf '==> %s (%ss)\n' "$1" "$SECONDS" >&2; }

declare -A exe wt package pkg_dir as_bench
for side in a b; do
  if [[ $side == a ]]; then sha=$sha_a; else sha=$sha_b; fi
  step "side $side: worktree at ${sha:0:12}, building the benchmark"
  wt[$side]=$work/$side/src
  mkdir -p "$work/$side/out" "$work/results/$side"
  git -C "$repo" worktree add --detach --quiet "${wt[$side]}" "$sha"
  worktrees+=("${wt[$side]}")
  # Both sides share one build directory, and cargo names a workspace crate's artifacts the
  # same whatever the worktree's path: it rebuilds a crate only when a source it last read is
  # newer than the artifact. A fresh worktree's files are newer than everything built before,
  # so this side's crates are rebuilt from this side's sources; touching them makes that hold
  # whatever the clock or checkout did (an older tree's files would silently reuse the other
  # side's artifacts, seen on this machine with two worktrees and one target directory).
  find "${wt[$side]}" -name '*.rs' -exec touch {} +
  # Where the bench lives: `cli` (package dodbench) now; `bench-harness` before the CLI crate
  # took the driver, and called `id_tables` before the tag and allocator families joined it.
  bench=dodbench
  if [[ -f ${wt[$side]}/cli/benches/dodbench.rs ]]; then
    package[$side]=dodbench; pkg_dir[$side]=cli
  else
    package[$side]=bench-harness; pkg_dir[$side]=bench-harness
    [[ -f ${wt[$side]}/bench-harness/benches/dodbench.rs ]] || bench=id_tables
  fi
  if ! (cd "${wt[$side]}" && CARGO_TARGET_DIR=$build_dir cargo bench -p "${package[$side]}" \
      --bench "$bench" --no-run --message-format=json 2>"$work/$side/build.log") \
      >"$work/$side/build.json"; then
    tail -n 20 "$work/$side/build.log" >&2
    echo "ab.sh: side $side (${sha:0:12}) does not build" >&2
    exit 1
  fi
  exe[$side]=$(grep -o '"executable":"[^"]*'"$bench"'-[^"]*"' "$work/$side/build.json" | tail -n 1 | cut -d'"' -f4)
  # A tree whose bench target only starts the `dodbench` binary as the driver, with the variable
  # its `cli/src/bench/launcher.rs` names: the driver is that binary, so it is the one kept and
  # run, with the variable set.
  launcher=${wt[$side]}/cli/src/bench/launcher.rs
  if [[ -f $launcher ]]; then
    as_bench[$side]=$(grep -o '"DODBENCH_[A-Z_]*"' "$launcher" | tr -d '"')
    exe[$side]=$(grep -o '"executable":"[^"]*/dodbench"' "$work/$side/build.json" | tail -n 1 | cut -d'"' -f4)
  fi
  [[ -x ${exe[$side]} ]] || { echo "ab.sh: no benchmark executable for side $side" >&2; exit 1; }
  # Copy the binary: the other side's build (or another invocation) writes the same file name.
  cp "${exe[$side]}" "$work/$side/dodbench-bench"
  exe[$side]=$work/$side/dodbench-bench
done

run_side() {
  local side=$1 round=$2
  local out=$work/$side/out
  local log=$work/$side/round-$round.log
  rm -f "$out/dodbench/results.json" "${wt[$side]}/target/dodbench/results.json"
  step "round $round: side $side"
  # Criterion runs benchmarks from the package directory; CARGO_TARGET_DIR sends criterion's
  # and dodbench's output to this side's own directory.
  if ! (cd "${wt[$side]}/${pkg_dir[$side]}" && CARGO_TARGET_DIR=$out \
      env ${as_bench[$side]:+"${as_bench[$side]}=1"} "${exe[$side]}" --bench ${filter:+"$filter"}) \
      >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    echo "ab.sh: side $side failed in round $round (log: $log)" >&2
    exit 1
  fi
  local results=$out/dodbench/results.json
  [[ -s $results ]] || results=${wt[$side]}/target/dodbench/results.json
  [[ -s $results ]] || { echo "ab.sh: side $side wrote no results.json in round $round" >&2; exit 1; }
  cp "$results" "$work/results/$side/round-$(printf '%03d' "$round").json"
}

for ((i = 1; i <= rounds; i++)); do
  # A B, then B A: a linear drift within a pair of rounds cancels too.
  if ((i % 2)); then order=(a b); else order=(b a); fi
  for side in "${order[@]}"; do run_side "$side" "$i"; done
done

step "report"
cargo run --quiet --release --manifest-path "$repo/Cargo.toml" -p dodbench -- \
  ab-report "$work/results/a" "$work/results/b" \
  --label-a "$rev_a (${sha_a:0:12})" --label-b "$rev_b (${sha_b:0:12})"
