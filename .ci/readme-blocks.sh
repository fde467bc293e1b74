#!/usr/bin/env bash
# Runs the README's shell blocks marked <!-- readme-test: run --> or <!-- readme-test: serve --> in order, as written,
# in a temporary copy of this checkout (its tracked files as they are in the work tree, plus the modules' built classes
# so nothing is rebuilt), with the project's simulated LLM (LLM_BASE_URL and friends are unset).
# A serve block runs until stopped (the console): it is started in the background, the first http://127.0.0.1:PORT/
# address it names must answer (curl) within the block time limit, the next block runs while it is up, then it is
# stopped as Ctrl-C stops it (SIGTERM to its foreground command, stop_serving) and must exit within 180 s.
# A block that names a real model at http://127.0.0.1:8000/v1 (the Flink SQL path) gets the simulated LLM there (oracle
# on Spider dev) while it runs, so port 8000 must be free too.
# Knobs that keep CI short (the commands stay as written): the quickstart sends 1 of its Spider questions, not 5
# (README_QUICKSTART_COUNT -> QUICKSTART_COUNT); every `deploy/eval.sh score|run` takes the first 5 questions
# (README_EVAL_LIMIT -> FLOWSQL_EVAL_LIMIT, which deploy/eval.sh reads); every `deploy/bench.sh` runs on tiny inputs
# (FLOWSQL_BENCH_SMALL=1: a few questions, one preset, short phases, a one-minute soak with one fault; each benchmark
# prints a "small inputs (FLOWSQL_BENCH_SMALL): ..." line first). Each command of a block is logged with the second of
# the block it started at ("[readme] +12s deploy/bench.sh tokens"). What is not run: a line whose command is
# `.ci/run` (that is CI itself); the blocks marked check (ReadmeCommandsTest checks those without running them).
# Each block has a time limit (README_BLOCK_TIMEOUT, 300 s); the first block that fails or overruns fails the script
# with its README line.
# The quickstart's broker listens on 127.0.0.1:9092 and the console on 127.0.0.1:8088 as the README says, so run this
# where nothing else uses those ports (CI runs it beside mvn verify, whose tests take free ports only).
#   .ci/readme-blocks.sh [--list | --prepare | --prepared]
#     --list prints the blocks that would run, and runs nothing; --prepare only resolves the classpaths and packages the
#     job's shaded jar (Maven runs in this checkout: before tests start beside it); --prepared uses what --prepare made.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LIMIT="${README_BLOCK_TIMEOUT:-300}"
unset LLM_BASE_URL LLM_MODEL LLM_API_KEY
# the quickstart's own Spider questions: 1 instead of 5 (README_QUICKSTART_COUNT), to keep CI short
export QUICKSTART_COUNT="${README_QUICKSTART_COUNT:-1}"
# every evaluation's first 5 questions (README_EVAL_LIMIT)
export FLOWSQL_EVAL_LIMIT="${README_EVAL_LIMIT:-5}"
# every benchmark on tiny inputs (deploy/bench.sh's subcommands read it)
export FLOWSQL_BENCH_SMALL=1
# Every JVM the blocks start (the CLI, brokers, the job, evaluations, the console) runs with README_JVM_OPTS through the
# JDK's own JDK_JAVA_OPTIONS (default: C1 only and the serial GC, the test JVMs' flags): each of these JVMs lives seconds
# to a minute, where C2's and G1's background threads cost more CPU than they win back (a CLI call: 1.6 s of CPU instead
# of 2.8 s). README_JVM_OPTS= (empty) runs them on the JDK's defaults, as a user's shell does.
README_JVM_OPTS="${README_JVM_OPTS--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"
if [[ -n "$README_JVM_OPTS" ]]; then export JDK_JAVA_OPTIONS="$README_JVM_OPTS"; fi

# Prints each run- or serve-marked block as: a line "@@ <line of its fence>" (" serve" after it for a serve block),
# then its lines.
blocks() {
  awk '/^<!-- readme-test: (run|serve) -->$/ { want = NR + 1; kind = ($0 ~ /serve/) ? " serve" : ""; next }
       NR == want && /^```bash/ { inside = 1; print "@@ " NR kind; next }
       inside && /^```/ { inside = 0; next }
       inside { print }' "$ROOT/README.md"
}

if [[ "${1:-}" == --list ]]; then blocks; exit 0; fi
# The classpaths of the modules the blocks run (deploy/lib.sh caches each in work/<module>.classpath, as a user's second
# run finds them): resolved here, where the classes are built, and pointed at the copy below. Resolving them in the copy
# would recompile every module three times (its compiler keeps no state there): minutes.
resolve_classpaths() {
  echo "[readme] resolving the classpaths of job, console and benchmarks ..." >&2
  (cd "$ROOT" && env -u JDK_JAVA_OPTIONS ${MVN:-mvn} -q -B test-compile dependency:build-classpath -pl job,console,benchmarks -am \
    -Dmdep.outputFile=target/readme-blocks.classpath) || return 1
  # the job's shaded jar, which deploy/bench.sh idle-cluster submits to a standalone cluster (and .ci/run's cluster
  # tests); the compiler finds the classes above up to date (useIncrementalCompilation=false)
  echo "[readme] packaging the job's shaded jar ..." >&2
  (cd "$ROOT" && env -u JDK_JAVA_OPTIONS ${MVN:-mvn} -q -B package -DskipTests -Dmaven.compiler.useIncrementalCompilation=false -pl job -am)
}
case "${1:-}" in
  --prepare) resolve_classpaths; exit $? ;;
  --prepared) for module in job console benchmarks; do
                [[ -s "$ROOT/$module/target/readme-blocks.classpath" ]] \
                  || { echo "[readme] --prepared, but $module/target/readme-blocks.classpath is missing: run --prepare" >&2; exit 1; }
              done ;;
  "") resolve_classpaths || exit 1 ;;
  *) echo "usage: .ci/readme-blocks.sh [--list | --prepare | --prepared]" >&2; exit 2 ;;
esac

# The copy sits where a clone sits: beside shared/data (the README's ../shared/data)
BASE="$(mktemp -d "${TMPDIR:-/tmp}/flowsql-readme.XXXXXX")"
COPY="$BASE/flowsql"
export FLOWSQL_SHARED_DATA="${FLOWSQL_SHARED_DATA:-$(cd "$ROOT/../shared/data" && pwd)}"
mkdir -p "$COPY" "$BASE/shared" && ln -s "$FLOWSQL_SHARED_DATA" "$BASE/shared/data"
SERVING=""   # the process group of the serve block that is up
SERVING_LINE=""
# Stops the serve block as Ctrl-C would; it must exit within 180 s (its job commits, then stops). Ctrl-C reaches the
# block's foreground command (deploy/console.sh), whose clean-up stops what it started in order, while the processes
# scripts start in the background ignore it (bash does that to asynchronous commands). This script runs without job
# control, so SIGINT is ignored in all of them: the block's foreground command gets SIGTERM instead, and only it.
# (SIGTERM to the whole group also stopped the quickstart's broker at once, and the console's clean-up then waited
# 60 s for it to report the job's position on the questions topic.)
stop_serving() {
  [[ -z "$SERVING" ]] && return 0
  local pgid="$SERVING" line="$SERVING_LINE" start=$SECONDS
  SERVING=""
  pkill -TERM -P "$pgid" 2>/dev/null || kill -TERM -- "-$pgid" 2>/dev/null || true
  for _ in $(seq 1 180); do
    kill -0 -- "-$pgid" 2>/dev/null || { echo "[readme] serve block (README.md:$line) stopped in $((SECONDS - start)) s" >&2; return 0; }
    sleep 1
  done
  kill -KILL -- "-$pgid" 2>/dev/null || true
  echo "[readme] serve block (README.md:$line) did not stop within 180 s of SIGTERM" >&2
  return 1
}
MODEL_PID=""   # the simulated LLM standing in for the real model a block names
# True while MODEL_PID still names the model this script started (deploy/lib.sh child_alive: once it has ended, its
# number may name another process, e.g. a thread of a test's JVM beside)
model_alive() {
  (source "$COPY/deploy/lib.sh" && child_alive "$MODEL_PID" $$)
}
stop_model() {
  [[ -z "$MODEL_PID" ]] && return 0
  if model_alive; then kill "$MODEL_PID" 2>/dev/null || true; fi
  wait "$MODEL_PID" 2>/dev/null || true
  MODEL_PID=""
}
# Starts the simulated LLM on 127.0.0.1:8000, where a block expects a real model.
start_model() {
  local cp
  cp="$(cd "$COPY" && source deploy/lib.sh && project_classpath)" || return 1   # the job's, as the quickstart
  java -Xmx256m -cp "$cp" io.flowsql.simulator.cli.SimulatorMain --port 8000 --oracle "$FLOWSQL_SHARED_DATA/spider/dev.json" \
    > "$COPY/.readme-model.out" 2> "$COPY/.readme-model.log" < /dev/null &
  MODEL_PID=$!
  for _ in $(seq 1 150); do
    grep -q '^http' "$COPY/.readme-model.out" 2>/dev/null && return 0
    model_alive || break
    sleep 0.2
  done
  echo "[readme] the simulated LLM did not start on 127.0.0.1:8000:" >&2; tail -5 "$COPY/.readme-model.log" >&2
  return 1
}
cleanup() {
  stop_serving || true
  stop_model
  # whatever a failed block left running in the copy (its job, simulator, broker) is stopped before the copy goes:
  # only the processes its PID files were written for (deploy/lib.sh pid_alive; a stale file's number may by now be
  # a thread of a test's JVM beside, and kill on it would end that JVM)
  local pid_file
  for pid_file in "$COPY"/work/*.pid "$COPY"/work/*/pids/*.pid; do
    [[ -s "$pid_file" ]] && (source "$COPY/deploy/lib.sh" && stop_pid_file "$pid_file" 5) || true
  done
  rm -rf "$BASE"
}
trap cleanup EXIT

(cd "$ROOT" && git ls-files -z | tar --null -T - -cf -) | (cd "$COPY" && tar -xf -)
for classes in "$ROOT"/*/target/classes; do
  module="$(basename "$(dirname "$(dirname "$classes")")")"
  mkdir -p "$COPY/$module/target" && cp -a "$classes" "$COPY/$module/target/"
done
# the job's shaded jar, which a standalone cluster runs (deploy/bench.sh idle-cluster)
cp -a "$ROOT"/job/target/flowsql-job-*.jar "$COPY/job/target/" 2>/dev/null || true
mkdir -p "$COPY/work"
for module in job console benchmarks; do
  sed "s|$ROOT/|$COPY/|g" "$ROOT/$module/target/readme-blocks.classpath" > "$COPY/work/$module.classpath"
done
# From here on nothing is read from the checkout: a build may run in it beside the blocks (.ci/run)
echo "[readme] the copy is ready in $COPY" >&2

n=0
after_serve=0
while IFS= read -r -d $'\x1e' block; do
  [[ -z "$block" ]] && continue
  head="${block%%$'\n'*}"; head="${head#@@ }"
  line="${head%% *}"; kind=run; [[ "$head" == *" serve" ]] && kind=serve
  body="${block#*$'\n'}"
  n=$((n + 1))
  # `.ci/run` is CI itself: not run from here
  printf '%s\n' "$body" | sed -E 's|^\.ci/run( .*)?$|: # .ci/run: not run here (it is CI itself)|' > "$COPY/.readme-block-$n.sh"
  echo "[readme] block $n (README.md:$line, $kind):" >&2
  sed 's/^/[readme]   /' "$COPY/.readme-block-$n.sh" >&2
  # each command logged with the block's second it starts at (bash takes no PS4 from the environment when root)
  sed -i "1i PS4='[readme] +\${SECONDS}s '; set -x" "$COPY/.readme-block-$n.sh"
  start=$SECONDS
  if [[ $kind == serve ]]; then
    stop_serving || exit 1
    url="$(grep -oE 'http://127\.0\.0\.1:[0-9]+/' "$COPY/.readme-block-$n.sh" | head -1)"
    [[ -n "$url" ]] || { echo "[readme] serve block (README.md:$line) names no http://127.0.0.1:PORT/ address to probe" >&2; exit 1; }
    set -m   # its own process group, to stop all it started
    (cd "$COPY" && exec bash -e ".readme-block-$n.sh") > "$COPY/.readme-block-$n.log" 2>&1 < /dev/null &
    SERVING=$!; SERVING_LINE=$line
    set +m
    until curl -fsS -o /dev/null --max-time 5 "$url" 2>/dev/null; do
      if ! kill -0 "$SERVING" 2>/dev/null || (( SECONDS - start > LIMIT )); then
        tail -30 "$COPY/.readme-block-$n.log" >&2
        echo "[readme] block $n (README.md:$line) FAILED: $url did not answer (after $((SECONDS - start)) s)" >&2
        exit 1
      fi
      sleep 2
    done
    echo "[readme] block $n (README.md:$line) serves $url after $((SECONDS - start)) s; the next block runs beside it" >&2
    after_serve=1
    continue
  fi
  if grep -q 'http://127\.0\.0\.1:8000/v1' "$COPY/.readme-block-$n.sh"; then
    start_model || exit 1
    echo "[readme] the simulated LLM stands in for the model at http://127.0.0.1:8000/v1" >&2
  fi
  if ! (cd "$COPY" && timeout -k 20 "$LIMIT" bash -e ".readme-block-$n.sh"); then
    echo "[readme] block $n (README.md:$line) FAILED after $((SECONDS - start)) s" >&2
    exit 1
  fi
  stop_model
  echo "[readme] block $n (README.md:$line) passed in $((SECONDS - start)) s" >&2
  if [[ $after_serve == 1 ]]; then
    after_serve=0
    stop_serving || exit 1
  fi
done < <(blocks | awk 'NR > 1 && /^@@ / { printf "\x1e" } { print } END { printf "\x1e" }')
stop_serving || exit 1
if [[ $n == 0 ]]; then echo "[readme] no block marked <!-- readme-test: run --> in README.md" >&2; exit 1; fi
echo "[readme] $n README blocks ran as written and passed" >&2
