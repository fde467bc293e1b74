#!/usr/bin/env bash
# Lists the tests that failed or erred, from the surefire and failsafe reports of every module
# (*/target/{surefire,failsafe}-reports/TEST-*.xml): one line per test with the first line of its message. .ci/run
# prints this last, so the tail of CI's output names what failed even when the README blocks' log comes after Maven's.
# Prints nothing and exits 0 when no test failed; exits 1 when one did.
set -uo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
reports=(*/target/surefire-reports/TEST-*.xml */target/failsafe-reports/TEST-*.xml)
found=0
for f in "${reports[@]}"; do
  grep -qE '<(failure|error)[ >]' "$f" || continue
  found=1
  # a testcase's name and class, then the message of the failure or error inside it (attributes on one line in
  # surefire's reports; the message is cut at 300 characters)
  awk -v module="${f%%/*}" '
    /<testcase / {
      name = ""; cls = ""
      if (match($0, / name="[^"]*"/)) name = substr($0, RSTART + 7, RLENGTH - 8)
      if (match($0, / classname="[^"]*"/)) cls = substr($0, RSTART + 12, RLENGTH - 13)
    }
    /<(failure|error)[ >]/ {
      kind = ($0 ~ /<failure/) ? "FAILED" : "ERROR"
      msg = ""
      if (match($0, / message="[^"]*"/)) msg = substr($0, RSTART + 10, RLENGTH - 11)
      if (msg == "" && match($0, / type="[^"]*"/)) msg = substr($0, RSTART + 7, RLENGTH - 8)
      gsub(/&#10;|&#13;/, " ", msg); gsub(/&quot;/, "\"", msg); gsub(/&lt;/, "<", msg); gsub(/&gt;/, ">", msg)
      gsub(/&apos;/, "\047", msg); gsub(/&amp;/, "\\&", msg)
      if (length(msg) > 300) msg = substr(msg, 1, 300) "..."
      n = split(cls, parts, ".")
      printf "  %-6s %s %s.%s: %s\n", kind, module, parts[n], name, msg
    }' "$f"
done
exit $found
