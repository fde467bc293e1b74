#!/usr/bin/env bash
# Scores MMSQL's published output files (e.g. outputs/one-shot and outputs/multi-agent of a clone of
# mcxiaoxiao/MMSQL, branch paper) the way the authors' accs_eval.py scores them (--semantics mmsql-accs), one line per
# file; each file's reports go to <report folder>/<file name>/. Files are read from where the user keeps them.
# Usage: deploy/mmsql-published.sh <file or folder>... [--out <report folder>]   (docs/EVALUATION.md, "mmsql-accs")
set -uo pipefail
out=eval-mmsql-published
inputs=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    *) inputs+=("$1"); shift ;;
  esac
done
[[ ${#inputs[@]} -gt 0 ]] || { echo "usage: $0 <file or folder>... [--out <report folder>]" >&2; exit 2; }
files=()
for i in "${inputs[@]}"; do
  if [[ -d "$i" ]]; then files+=("$i"/*.json); else files+=("$i"); fi
done
mkdir -p "$out"
status=0
for f in "${files[@]}"; do
  name=$(basename "$f" .json)
  line=$("$(dirname "$0")/eval.sh" score --benchmark mmsql-test --semantics mmsql-accs --history gold --predictions "$f" \
         --out "$out/$name" 2> "$out/$name.err" | grep '\[mmsql-accs\]')
  if [[ -n "$line" ]]; then
    echo "$name: ${line#*\] }"
    rm -f "$out/$name.err"
  else
    echo "$name: not scored: $(grep -m1 'error' "$out/$name.err" || tail -1 "$out/$name.err")"
    status=2
  fi
done
exit $status
