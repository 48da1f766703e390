#!/usr/bin/env bash
# How long each page of a dodbench report takes to load in headless Chromium: the page is
# opened in a 1400x900 frame of a wrapper page that records the time from its own start to the
# frame's load event (HTML parsed, styles applied, the charts in view fetched; the charts below
# the fold load lazily and do not count). Prints one line per page, slowest last; informational
# (a time depends on the machine and its load), so it never fails on a slow page.
#
#   scripts/report-load-times.sh [REPORT_DIR]     # default target/dodbench/report
set -euo pipefail

if [[ ${1:-} == "-h" || ${1:-} == "--help" ]]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
dir=$(cd "${1:-target/dodbench/report}" && pwd)
chromium=${DODBENCH_CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
if [[ -z $chromium ]]; then
  echo "report-load-times.sh: no chromium on PATH (apt-get install chromium)" >&2
  exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/dodbench-load.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '%-28s %8s %10s\n' page "load ms" "size KB"
for page in "$dir"/*.html; do
  name=$(basename "$page")
  cat >"$work/wrapper.html" <<HTML
<html><head><script>const t0 = performance.now();</script></head><body>
<iframe src="file://$page" width="1400" height="900"
  onload="document.title = 'LOADMS=' + (performance.now() - t0).toFixed(0)"></iframe>
</body></html>
HTML
  ms=$(timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --allow-file-access-from-files --user-data-dir="$work/profile-$name" \
    --window-size=1400,900 --dump-dom "file://$work/wrapper.html" 2>/dev/null |
    grep -o 'LOADMS=[0-9]*' | head -1 | cut -d= -f2 || true)
  printf '%-28s %8s %10s\n' "$name" "${ms:-?}" "$(($(stat -c %s "$page") / 1024))"
done
