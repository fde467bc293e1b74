#!/usr/bin/env bash
# Prints the slowest test classes (default 20) and the total test time, from the surefire and failsafe reports of
# every module (*/target/{surefire,failsafe}-reports/TEST-*.xml): where CI's minutes go. Beside each, the CPU the class
# used (testsupport's ClassCpuListener: */target/test-cpu/<class>.txt): its test JVM's own, and that of the child
# processes it started and waited for (brokers in their own JVMs, mariadbd, llama-server, deploy/ scripts; a cluster
# daemon that a script left running is not counted); then the classes that used the most CPU.
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
# one line per class: seconds module class cpu children-cpu (the testsuite element's time and name attributes; the
# CPU figures from the listener's file, "-" when there is none)
for f in $reports; do
  suite=$(head -c 4000 "$f" | tr '\n' ' ' | grep -o '<testsuite [^>]*>' | head -1)
  name=$(grep -oE ' name="[^"]*"' <<<"$suite" | head -1 | cut -d'"' -f2)
  time=$(grep -oE ' time="[^"]*"' <<<"$suite" | head -1 | cut -d'"' -f2 | tr -d ,)
  module="${f%%/*}"
  cpu=- children=-
  if [[ -f "$module/target/test-cpu/$name.txt" ]]; then
    cpu=$(grep -oE 'cpu_s=[-0-9.]+' "$module/target/test-cpu/$name.txt" | head -1 | cut -d= -f2)
    children=$(grep -oE 'children_cpu_s=[-0-9.]+' "$module/target/test-cpu/$name.txt" | cut -d= -f2)
  fi
  echo "${time:-0} $module ${name##*.} ${cpu:--} ${children:--}"
done | sort -rn > "$times"
echo "slowest $top test classes (wall s, CPU s of the test JVM + of its reaped children, module, class):"
head -n "$top" "$times" | awk '{printf "  %8.1f  %7s + %-6s  %-11s %s\n", $1, $4, $5, $2, $3}'
echo "most CPU, $top test classes (CPU s of the test JVM + children, wall s, module, class):"
awk '$4 != "-" {printf "%.2f %s %s %s %s\n", $4 + ($5 > 0 ? $5 : 0), $4, $5, $1, $2 " " $3}' "$times" | sort -rn | head -n "$top" \
  | awk '{printf "  %7.1f  (%s + %s)  %8.1f  %-11s %s\n", $1, $2, $3, $4, $5, $6}'
awk '{s += $1; n++} END {printf "all %d test classes: %.1f s (%.1f min) of test time\n", n, s, s / 60}' "$times"
awk '$4 != "-" {c += $4; if ($5 > 0) k += $5; n++} END {if (n) printf "CPU of %d classes with figures: %.1f s in test JVMs + %.1f s in their reaped children (%.1f min)\n", n, c, k, (c + k) / 60}' "$times"
awk '{s[$2] += $1} END {for (m in s) printf "  %-11s %8.1f s\n", m, s[m]}' "$times" | sort -k2 -rn
