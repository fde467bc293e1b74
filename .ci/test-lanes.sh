#!/usr/bin/env bash
# Runs the tests of an already built and installed tree (`mvn -B install -DskipTests`) in lanes side by side, each a
# Maven process of its own that runs tests only (surefire:test / failsafe goals: nothing is compiled or packaged
# again), and prints each lane's result and time. On 2 cores one `mvn verify` leaves much of the time idle: a module's
# tests wait on checkpoints, brokers and starting JVMs, and a module's tests cannot start before the modules it depends
# on have run theirs; the lanes do not wait for each other.
#   job        the job module's *Test and *ITCase           (JOB_FORKS JVMs, default 3)
#   cluster    the job module's *IT: standalone clusters    (CLUSTER_FORKS JVMs, default 2)
#   modules    every other module's tests, module by module (MODULE_FORKS JVMs, default 2)
#   readme     the README's run-marked blocks (.ci/readme-blocks.sh; its classpaths resolved before the lanes start; each
#              block may take README_BLOCK_TIMEOUT, default 600 s here: beside the other lanes a block takes 2-4x its time
#              alone)
#   .ci/test-lanes.sh [lane ...]      (default: all four; exit status 1 when any lane failed)
# Each lane writes target/ci-lanes/<lane>.log; a passing lane prints its test counts, a failing one its whole log.
set -uo pipefail
cd "$(dirname "$0")/.."
LOGS=target/ci-lanes
mkdir -p "$LOGS"
MVN="${MVN:-mvn}"
# CPU, not waiting, limits lanes side by side on 2 cores: every JVM of the lanes runs C1 only with the serial GC (the
# test JVMs get them from the poms' flowsql.test.jvm; Maven itself from MAVEN_OPTS; the JVMs the deploy/ scripts start
# for cluster tests and README blocks from FLOWSQL_JVM_OPTS).
JVM_FLAGS="-XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=128m -XX:+UseSerialGC"
export MAVEN_OPTS="${MAVEN_OPTS:-$JVM_FLAGS}"
export FLOWSQL_JVM_OPTS="${FLOWSQL_JVM_OPTS-$JVM_FLAGS}"
lanes=("$@")
(( ${#lanes[@]} )) || lanes=(job cluster modules readme)

lane_command() {
  case "$1" in
    job)     echo "$MVN -B -pl job surefire:test -Dflowsql.test.forks=${JOB_FORKS:-3}" ;;
    cluster) echo "$MVN -B -pl job failsafe:integration-test failsafe:verify -Dflowsql.it.forks=${CLUSTER_FORKS:-2}" ;;
    modules) echo "$MVN -B -fae -pl testsupport,simulator,config,udfs,devstack,console,benchmarks surefire:test -Dflowsql.test.forks=${MODULE_FORKS:-2}" ;;
    readme)  echo "README_BLOCK_TIMEOUT=${README_BLOCK_TIMEOUT:-600} .ci/readme-blocks.sh --prepared" ;;
    *) echo "unknown lane '$1' (job, cluster, modules, readme)" >&2; return 1 ;;
  esac
}

declare -A pid started
for lane in "${lanes[@]}"; do
  command="$(lane_command "$lane")" || exit 2
  echo "[lanes] $lane: $command"
  started[$lane]=$SECONDS
  bash -c "$command" > "$LOGS/$lane.log" 2>&1 < /dev/null &
  pid[$lane]=$!
done

status=0
remaining=("${lanes[@]}")
while (( ${#remaining[@]} )); do
  waiting=()
  for lane in "${remaining[@]}"; do waiting+=("${pid[$lane]}"); done
  wait -n "${waiting[@]}" 2>/dev/null || sleep 1
  still=()
  for lane in "${remaining[@]}"; do
    if kill -0 "${pid[$lane]}" 2>/dev/null; then still+=("$lane"); continue; fi
    wait "${pid[$lane]}"; rc=$?
    took=$(( SECONDS - started[$lane] ))
    if [[ $rc == 0 ]]; then
      echo "[lanes] $lane passed in $((took / 60)) min $((took % 60)) s"
      grep -E '^\[INFO\] Tests run: [0-9]+, Failures|^\[readme\] .*(passed|serves|stopped)' "$LOGS/$lane.log" | tail -8 | sed 's/^/    /'
    else
      status=1
      echo "[lanes] $lane FAILED (exit $rc) after $((took / 60)) min $((took % 60)) s; its log ($LOGS/$lane.log):"
      cat "$LOGS/$lane.log"
      echo "[lanes] end of $lane's log"
    fi
  done
  remaining=("${still[@]}")
done
exit $status
