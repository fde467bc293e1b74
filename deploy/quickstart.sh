#!/usr/bin/env bash
# The main command: builds if needed, starts Kafka, the simulated LLM (unless LLM_BASE_URL is set) and the job
# on a local MiniCluster, sends a few Spider questions about one database plus any question given as an
# argument, prints each answer as it arrives, and stops everything it started.
#   deploy/quickstart.sh ["How many singers are there?" ...]
# Env: LLM_BASE_URL, LLM_API_KEY, LLM_MODEL (a real endpoint instead of the simulator); QUICKSTART_DB (concert_singer);
#      QUICKSTART_COUNT (5 Spider questions); QUICKSTART_TIMEOUT (150s); FLOWSQL_SHARED_DATA (../shared/data);
#      QUICKSTART_JOB_OPTS (more job options, e.g. "-D llm.context-tokens=1024 -D llm.structured-output=grammar");
#      QUICKSTART_STAY=1 keeps Kafka, the LLM and the job running after the answers until Ctrl-C (deploy/console.sh uses it).
# Exit code: 0 when every answer arrived, 4 when they arrived but some failed, non-zero otherwise.
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "$0")" && pwd)"
source "$DEPLOY_DIR/lib.sh"

DB="${QUICKSTART_DB:-concert_singer}"
COUNT="${QUICKSTART_COUNT:-5}"
TIMEOUT="${QUICKSTART_TIMEOUT:-150s}"
DEV_JSON="$SHARED_DATA/spider/dev.json"
JOB_PID_FILE="$WORK_DIR/quickstart-job.pid"
SIM_PID_FILE="$WORK_DIR/quickstart-simulator.pid"
STARTED_KAFKA=0
GROUP="$(sed -n 's/^kafka.group-id=//p' "$DEPLOY_DIR/quickstart.properties")"

cleanup() {
  local code=$?
  trap - EXIT INT TERM
  rm -f "$WORK_DIR/quickstart.serving"
  if [[ -n "${BOOTSTRAP:-}" && -n "${CP:-}" ]] && pid_alive "$JOB_PID_FILE"; then
    # the job commits its question offsets when a checkpoint completes; stopping it before that would leave the
    # questions it answered to the next run (which would then dead-letter them as duplicate_request_id)
    log "waiting for the job to commit its position on the questions topic (at most 20 s) ..."
    java -Xmx256m $LOG_CONFIG -cp "$CP" io.flowsql.job.cli.FlowSqlCli caught-up -b "$BOOTSTRAP" -g "$GROUP" --timeout 20s || true
  fi
  log "stopping what the quickstart started ..."
  stop_pid_file "$JOB_PID_FILE" 20
  stop_pid_file "$SIM_PID_FILE" 10
  if [[ $STARTED_KAFKA == 1 ]]; then "$DEPLOY_DIR/kafka-stop.sh" || true; fi
  exit $code
}
trap cleanup EXIT INT TERM

if [[ ! -d "$SHARED_DATA/spider/database/$DB" ]]; then
  log "no Spider database '$DB' under $SHARED_DATA/spider/database (set FLOWSQL_SHARED_DATA to the benchmark data folder)"
  exit 1
fi

ensure_built
CP="$(project_classpath)" || exit 1

if ! pid_alive "$WORK_DIR/kafka.pid"; then
  "$DEPLOY_DIR/kafka-start.sh"
  STARTED_KAFKA=1
fi
BOOTSTRAP="$(cat "$WORK_DIR/kafka.ready")"

if [[ -n "${LLM_BASE_URL:-}" ]]; then
  BASE_URL="$LLM_BASE_URL"
  MODEL="${LLM_MODEL:?LLM_MODEL must name the model when LLM_BASE_URL is set}"
  API_KEY="${LLM_API_KEY:-}"
  log "using the LLM at $BASE_URL (model $MODEL)"
else
  ORACLE=()
  [[ -f "$DEV_JSON" ]] && ORACLE=(--oracle "$DEV_JSON")
  rm -f "$WORK_DIR/simulator.out"
  java -Xmx512m $LOG_CONFIG -cp "$CP" io.flowsql.simulator.cli.SimulatorMain --port 0 "${ORACLE[@]}" \
    > "$WORK_DIR/simulator.out" 2> "$WORK_DIR/simulator.log" < /dev/null &
  echo $! > "$SIM_PID_FILE"
  for _ in $(seq 1 150); do grep -q '^http' "$WORK_DIR/simulator.out" 2>/dev/null && break; pid_alive "$SIM_PID_FILE" || break; sleep 0.2; done
  BASE_URL="$(grep -m1 '^http' "$WORK_DIR/simulator.out" || true)"
  if [[ -z "$BASE_URL" ]]; then log "the simulated LLM did not start; see work/simulator.log"; exit 1; fi
  MODEL="simulated/oracle"
  API_KEY=""
  log "simulated LLM (oracle on Spider dev; every answer is marked simulated) at $BASE_URL"
fi

# OpenSearch-SQL's few-shot library (off by default in the job: production has no ../shared): built at the job's first
# start from the first turns of SParC's and CoSQL's dev dialogues when they are here. They share Spider dev's
# databases, so the job shows only examples of other databases (docs/AGENTS.md "A library built at first start").
FEWSHOT_OPTS=()
if [[ -f "$SHARED_DATA/cosql/sparc_dev_SQLonly.json" && -f "$SHARED_DATA/cosql/cosql_dev_SQLonly.json" ]]; then
  FEWSHOT_OPTS=(-D agents.fewshot-sources="$SHARED_DATA/cosql/sparc_dev_SQLonly.json,$SHARED_DATA/cosql/cosql_dev_SQLonly.json")
  log "few-shot library: first turns of SParC/CoSQL dev under $SHARED_DATA/cosql (other databases' examples only)"
fi

log "starting the job on a local MiniCluster (log: work/quickstart-job.log) ..."
java -Xmx1g "${FLINK_JAVA_OPTS[@]}" $LOG_CONFIG -cp "$CP" io.flowsql.job.FlowSqlJob --local \
  -c "$DEPLOY_DIR/quickstart.properties" \
  -D kafka.bootstrap-servers="$BOOTSTRAP" -D llm.base-url="$BASE_URL" -D llm.model="$MODEL" -D llm.api-key="$API_KEY" \
  -D data.shared="$SHARED_DATA" "${FEWSHOT_OPTS[@]}" ${QUICKSTART_JOB_OPTS:-} > "$WORK_DIR/quickstart-job.log" 2>&1 < /dev/null &
echo $! > "$JOB_PID_FILE"

IDS="$WORK_DIR/quickstart.ids"
ASK=(ask -b "$BOOTSTRAP" --db "$DB" --ids-file "$IDS")
[[ -f "$DEV_JSON" ]] && ASK+=(--spider-dev "$DEV_JSON" --count "$COUNT")
java -Xmx256m $LOG_CONFIG -cp "$CP" io.flowsql.job.cli.FlowSqlCli "${ASK[@]}" "$@"

log "waiting for answers (they are committed at each checkpoint) ..."
set +e
java -Xmx256m $LOG_CONFIG -cp "$CP" io.flowsql.job.cli.FlowSqlCli watch -b "$BOOTSTRAP" --ids-file "$IDS" --timeout "$TIMEOUT" &
WATCH_PID=$!
while child_alive "$WATCH_PID"; do
  if ! pid_alive "$JOB_PID_FILE"; then
    child_alive "$WATCH_PID" && kill "$WATCH_PID" 2>/dev/null; log "the job stopped; last lines of work/quickstart-job.log:"; tail -30 "$WORK_DIR/quickstart-job.log" >&2; exit 1
  fi
  sleep 1
done
wait $WATCH_PID
STATUS=$?
set -e
case $STATUS in
  0) log "all answers arrived" ;;
  4) log "all answers arrived, but some failed (their error says which stage and why; see work/quickstart-job.log)" ;;
  *) log "not every answer arrived (see work/quickstart-job.log)" ;;
esac
if [[ "${QUICKSTART_STAY:-0}" == 1 ]] && pid_alive "$JOB_PID_FILE"; then
  echo "$BOOTSTRAP" > "$WORK_DIR/quickstart.serving"
  log "QUICKSTART_STAY=1: the job keeps running on $BOOTSTRAP until Ctrl-C (or until its process stops)"
  while pid_alive "$JOB_PID_FILE"; do sleep 1; done
fi
exit $STATUS
