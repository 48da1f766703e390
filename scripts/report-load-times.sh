#!/usr/bin/env bash
# How long each page of a dodbench report takes to load in headless Chromium, in a 1400x900
# frame of a wrapper page that records the time from its own start to the frame's load event
# (HTML parsed, styles applied, the eager images fetched). Two columns:
#   first screen ms   as a desktop browser loads it: the charts are `loading="lazy"`, so only
#                     what is near the first screen is fetched before the load event (headless
#                     Chromium turns lazy loading off; the script turns it back on);
#   all charts ms     with lazy loading off, every chart of the page fetched and decoded: a
#                     reader who scrolls the whole page.
# Prints one line per page; informational (a time depends on the machine and its load), so it
# never fails on a slow page.
#
#   scripts/report-load-times.sh [--first-screen] [REPORT_DIR]
#                                   # default target/dodbench/report; --first-screen: that
#                                   # column only (what CI prints)
set -euo pipefail

if [[ ${1:-} == "-h" || ${1:-} == "--help" ]]; then
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
first_only=false
if [[ ${1:-} == "--first-screen" ]]; then
  first_only=true
  shift
fi
dir=$(cd "${1:-target/dodbench/report}" && pwd)
chromium=${DODBENCH_CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
if [[ -z $chromium ]]; then
  echo "report-load-times.sh: no chromium on PATH (apt-get install chromium)" >&2
  exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/dodbench-load.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Milliseconds to the load event of page $1 with extra Chromium flags $2..; `?` if none came.
load_ms() {
  local page=$1 name
  shift
  name=$(basename "$page")
  cat >"$work/wrapper.html" <<HTML
<html><head><script>const t0 = performance.now();</script></head><body>
<iframe src="file://$page" width="1400" height="900"
  onload="document.title = 'LOADMS=' + (performance.now() - t0).toFixed(0)"></iframe>
</body></html>
HTML
  rm -rf "$work/profile"
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --allow-file-access-from-files --user-data-dir="$work/profile" "$@" \
    --window-size=1400,900 --dump-dom "file://$work/wrapper.html" 2>/dev/null |
    grep -o 'LOADMS=[0-9]*' | head -1 | cut -d= -f2 || echo '?'
}

printf '%-28s %16s %14s %10s %8s\n' page "first screen ms" "all charts ms" "size KB" charts
for page in "$dir"/*.html; do
  first=$(load_ms "$page" --blink-settings=lazyLoadEnabled=true)
  all=-
  if ! $first_only; then all=$(load_ms "$page"); fi
  printf '%-28s %16s %14s %10s %8s\n' "$(basename "$page")" "$first" "$all" \
    "$(($(stat -c %s "$page") / 1024))" "$(grep -o '<img ' "$page" | wc -l)"
done
