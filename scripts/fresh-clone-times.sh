#!/usr/bin/env bash
# Times what a newcomer runs on a fresh clone of the committed tree, one step after the other:
# the test build and the test run of `cargo test`, the optimized build of `cargo bench`, the
# first report (the quick `cargo bench`) and the CLI right after it. Writes
# docs/reference/fresh-clone-times.tsv (seconds, tab, step; the last line the total, the exit
# status and the commit), from which the README's fresh-clone block is generated. Run it on a
# quiet machine; the crates must already be downloaded (`cargo fetch`): the network is not timed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
OUT="$ROOT/docs/reference/fresh-clone-times.tsv"
# What a newcomer's shell has: cargo's defaults, the clone's own target directory.
unset CARGO_INCREMENTAL CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR RUSTFLAGS
CLONE="$(mktemp -d)"
trap 'rm -rf "$CLONE"' EXIT
git clone -q --no-hardlinks "$ROOT" "$CLONE/dodbench"
cd "$CLONE/dodbench"
COMMIT="$(git rev-parse --short HEAD)"

LINES=()
START=$SECONDS
timed() {
  local name=$1 begin=$SECONDS
  shift
  "$@"
  LINES+=("$((SECONDS - begin))	$name")
}
timed "test build (cargo test --no-run)" cargo test --no-run
begin=$SECONDS
cargo test 2>&1 | tee "$CLONE/test.log"
# `cargo test` ends every test binary's run with `test result: ok. N passed; M failed; K ignored`.
COUNTS="$(awk '/^test result:/ { p += $4; f += $6; i += $8 } END { printf "%d passed, %d failed, %d ignored", p, f, i }' "$CLONE/test.log")"
LINES+=("$((SECONDS - begin))	test run (cargo test: $COUNTS)")
timed "bench build (cargo bench --no-run)" cargo bench --no-run
timed "first report (DODBENCH_QUICK=1 cargo bench)" env DODBENCH_QUICK=1 cargo bench
timed "the CLI after the bench (cargo run --release -p dodbench -- --help)" \
  cargo run --release -p dodbench -- --help

{
  printf '%s\n' "${LINES[@]}"
  printf '%d\ttotal\t0\t%s\n' "$((SECONDS - START))" "$COMMIT"
} >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
cat "$OUT"
