#!/usr/bin/env bash
# Runs the README's shell blocks marked <!-- readme-test: run --> in order, as written, in a temporary copy of this
# checkout (its tracked files as they are in the work tree, plus the modules' built classes so nothing is rebuilt),
# with the project's simulated LLM (LLM_BASE_URL and friends are unset: the blocks that name a real model are not
# marked run). What is not run: a line whose command is `.ci/run` (that is CI itself); every block without the run
# marker (ReadmeCommandsTest checks those without running them). Each block has a time limit
# (README_BLOCK_TIMEOUT, 300 s); the quickstart sends 1 of its Spider questions, not 5 (README_QUICKSTART_COUNT);
# the first block that fails or overruns fails the script.
# The quickstart's broker listens on 127.0.0.1:9092 as the README says, so run this where nothing else uses that
# port (CI runs it after the tests).
#   .ci/readme-blocks.sh [--list]     (--list prints the blocks that would run, and runs nothing)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LIMIT="${README_BLOCK_TIMEOUT:-300}"
unset LLM_BASE_URL LLM_MODEL LLM_API_KEY
# the quickstart's own Spider questions: 1 instead of 5 (README_QUICKSTART_COUNT), to keep CI short
export QUICKSTART_COUNT="${README_QUICKSTART_COUNT:-1}"

# Prints each run-marked block as: a line "@@ <line of its fence>", then its lines.
blocks() {
  awk '/<!-- readme-test: run -->/ { want = NR + 1; next }
       NR == want && /^```bash/ { inside = 1; print "@@ " NR; next }
       inside && /^```/ { inside = 0; next }
       inside { print }' "$ROOT/README.md"
}

if [[ "${1:-}" == --list ]]; then blocks; exit 0; fi

COPY="$(mktemp -d "${TMPDIR:-/tmp}/flowsql-readme.XXXXXX")"
cleanup() {
  # whatever a failed block left running in the copy (its job, simulator, broker) is stopped before the copy goes
  for pid_file in "$COPY"/work/*.pid; do
    [[ -s "$pid_file" ]] && kill "$(cat "$pid_file")" 2>/dev/null || true
  done
  sleep 2
  for pid_file in "$COPY"/work/*.pid; do
    [[ -s "$pid_file" ]] && kill -9 "$(cat "$pid_file")" 2>/dev/null || true
  done
  rm -rf "$COPY"
}
trap cleanup EXIT

(cd "$ROOT" && git ls-files -z | tar --null -T - -cf -) | (cd "$COPY" && tar -xf -)
for classes in "$ROOT"/*/target/classes; do
  module="$(basename "$(dirname "$(dirname "$classes")")")"
  mkdir -p "$COPY/$module/target" && cp -a "$classes" "$COPY/$module/target/"
done
export FLOWSQL_SHARED_DATA="${FLOWSQL_SHARED_DATA:-$(cd "$ROOT/../shared/data" && pwd)}"

n=0
while IFS= read -r -d $'\x1e' block; do
  [[ -z "$block" ]] && continue
  line="${block%%$'\n'*}"; line="${line#@@ }"
  body="${block#*$'\n'}"
  n=$((n + 1))
  # `.ci/run` is CI itself: not run from here
  printf '%s\n' "$body" | sed -E 's|^\.ci/run( .*)?$|: # .ci/run: not run here (it is CI itself)|' > "$COPY/.readme-block-$n.sh"
  echo "[readme] block $n (README.md:$line):" >&2
  sed 's/^/[readme]   /' "$COPY/.readme-block-$n.sh" >&2
  start=$SECONDS
  if ! (cd "$COPY" && timeout -k 20 "$LIMIT" bash -e ".readme-block-$n.sh"); then
    echo "[readme] block $n (README.md:$line) FAILED after $((SECONDS - start)) s" >&2
    exit 1
  fi
  echo "[readme] block $n (README.md:$line) passed in $((SECONDS - start)) s" >&2
done < <(blocks | awk 'NR > 1 && /^@@ / { printf "\x1e" } { print } END { printf "\x1e" }')
if [[ $n == 0 ]]; then echo "[readme] no block marked <!-- readme-test: run --> in README.md" >&2; exit 1; fi
echo "[readme] $n README blocks ran as written and passed" >&2
