#!/usr/bin/env bash
# Prints the slowest test classes (default 20) and the total test time, from the surefire and failsafe reports of
# every module (*/target/{surefire,failsafe}-reports/TEST-*.xml): where CI's minutes go.
set -uo pipefail
cd "$(dirname "$0")/.."
top="${1:-20}"
reports=$(ls */target/surefire-reports/TEST-*.xml */target/failsafe-reports/TEST-*.xml 2>/dev/null)
if [[ -z "$reports" ]]; then
  echo "no test reports under */target" >&2
  exit 0
fi
times=$(mktemp)
trap 'rm -f "$times"' EXIT
# one line per class: seconds module class (the testsuite element's time and name attributes)
for f in $reports; do
  suite=$(head -c 4000 "$f" | tr '\n' ' ' | grep -o '<testsuite [^>]*>' | head -1)
  name=$(grep -oE ' name="[^"]*"' <<<"$suite" | head -1 | cut -d'"' -f2)
  time=$(grep -oE ' time="[^"]*"' <<<"$suite" | head -1 | cut -d'"' -f2 | tr -d ,)
  echo "${time:-0} ${f%%/*} ${name##*.}"
done | sort -rn > "$times"
echo "slowest $top test classes (seconds, module, class):"
head -n "$top" "$times" | awk '{printf "  %8.1f  %-11s %s\n", $1, $2, $3}'
awk '{s += $1; n++} END {printf "all %d test classes: %.1f s (%.1f min) of test time\n", n, s, s / 60}' "$times"
awk '{s[$2] += $1} END {for (m in s) printf "  %-11s %8.1f s\n", m, s[m]}' "$times" | sort -k2 -rn
