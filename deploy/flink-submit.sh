#!/usr/bin/env bash
# Submits the job's shaded jar to a running Flink session cluster over its REST API (upload, then run) with the
# given program arguments, waits until the job and all its tasks run, and prints the job id and its web UI address.
#   deploy/flink-submit.sh [--from-savepoint PATH [--allow-non-restored-state]] -D kafka.bootstrap-servers=127.0.0.1:9092 \
#       -D llm.base-url=http://127.0.0.1:8000/v1 -D job.parallelism=4
# --from-savepoint restores the job's state from a savepoint (or retained checkpoint), e.g. one flink-stop-savepoint.sh
# printed, at whatever job.parallelism the arguments give; --allow-non-restored-state lets state of operators the job no
# longer has be dropped instead of refusing the restore.
# Env: FLINK_REST_URL (the local cluster's, else http://127.0.0.1:$FLINK_REST_PORT), FLOWSQL_JOB_JAR (the shaded jar
#      job/target/flowsql-job-0.1.0-SNAPSHOT.jar, built when missing), FLINK_SUBMIT_TIMEOUT (120 s until RUNNING),
#      FLOWSQL_JAR_ID (the id an earlier run of this script printed as "jar id:": the cluster runs the jar it already
#      holds instead of a new upload of it; uploaded again when the cluster answers that it no longer holds it).
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "$0")" && pwd)"
source "$DEPLOY_DIR/lib.sh"
source "$DEPLOY_DIR/flink-cluster-lib.sh"

JAR="${FLOWSQL_JOB_JAR:-$PROJECT_DIR/job/target/flowsql-job-0.1.0-SNAPSHOT.jar}"
TIMEOUT="${FLINK_SUBMIT_TIMEOUT:-120}"
# FLOWSQL_MAIN_CLASS: the entry class (io.flowsql.job.sql.FlowSqlScript runs FlowSQL as a Flink SQL job instead)
MAIN_CLASS="${FLOWSQL_MAIN_CLASS:-io.flowsql.job.FlowSqlJob}"
REST="$(cluster_rest_url)"
SAVEPOINT=""
ALLOW_NON_RESTORED=false
while [[ $# -gt 0 ]]; do
  case "$1" in
    --from-savepoint) [[ $# -ge 2 ]] || { log "--from-savepoint needs a path"; exit 2; }; SAVEPOINT="$2"; shift 2 ;;
    --allow-non-restored-state) ALLOW_NON_RESTORED=true; shift ;;
    *) break ;;
  esac
done

# The run request's body: entry class, the program arguments as a JSON list, and the savepoint to restore, if any.
run_request_body() {
  local args="" arg restore=""
  for arg in "$@"; do args+="${args:+,}$(json_quote "$arg")"; done
  if [[ -n "$SAVEPOINT" ]]; then
    restore=",\"savepointPath\":$(json_quote "$SAVEPOINT"),\"allowNonRestoredState\":$ALLOW_NON_RESTORED"
  fi
  printf '{"entryClass":"%s","programArgsList":[%s]%s}' "$MAIN_CLASS" "$args" "$restore"
}

rest_get /overview > /dev/null || { log "no Flink cluster answers at $REST (deploy/flink-cluster-start.sh starts one)"; exit 1; }
if [[ ! -s "$JAR" ]]; then
  log "building the job jar (mvn -q -DskipTests package -pl job -am) ..."
  (cd "$PROJECT_DIR" && $MVN -B -q -DskipTests package -pl job -am) || { log "build failed"; exit 1; }
fi

# Uploads the jar; sets jar_id to the id the cluster gave it.
upload_jar() {
  local upload
  upload="$(curl -sf --max-time 120 -X POST -H "Expect:" -F "jarfile=@$JAR" "$REST/jars/upload")" \
    || { log "uploading $JAR to $REST failed"; exit 1; }
  jar_id="$(basename "$(json_string "$upload" filename)")"
  [[ -n "$jar_id" ]] || { log "unexpected upload answer: $upload"; exit 1; }
  log "uploaded $(basename "$JAR") as $jar_id in $((SECONDS - started)) s"
}

# Runs the uploaded jar with the program arguments; prints the cluster's answer.
run_jar() {
  curl -s --max-time 300 -X POST -H 'Content-Type: application/json' \
    -d "$(run_request_body "$@")" "$REST/jars/$jar_id/run"
}

started=$SECONDS
jar_id="${FLOWSQL_JAR_ID:-}"
if [[ -n "$jar_id" ]]; then
  log "running $jar_id, uploaded before"
else
  upload_jar
fi
set +e
run="$(run_jar "$@")"
# not GET /jars to see whether the cluster still holds it: that builds a program of every jar it lists
if [[ -n "${FLOWSQL_JAR_ID:-}" ]] && grep -q "Jar file .* does not exist" <<< "$run"; then
  log "the cluster no longer holds $jar_id"
  upload_jar
  run="$(run_jar "$@")"
fi
set -e
echo "jar id: $jar_id"
job_id="$(json_string "$run" jobid)"
if [[ -z "$job_id" ]]; then
  log "the cluster refused the job:"; printf '%s\n' "$run" | sed 's/\\n/\n/g; s/\\t/\t/g' | head -40 >&2; exit 1
fi

[[ -n "$SAVEPOINT" ]] && log "job $job_id restores from $SAVEPOINT"
state=""
deadline=$((SECONDS + TIMEOUT))
while (( SECONDS < deadline )); do
  state="$(job_state "$job_id")"
  [[ "$state" == ALL_RUNNING || "$state" == FAILED || "$state" == CANCELED || "$state" == FINISHED ]] && break
  sleep 0.5
done
if [[ "$state" == ALL_RUNNING ]]; then
  log "job $job_id is RUNNING, all its tasks too ($((SECONDS - started)) s after the upload started)"
else
  log "job $job_id is ${state:-unknown} after ${TIMEOUT} s (not all tasks running); see the web UI"
fi
echo "job id: $job_id"
echo "web UI: $REST/#/job/running/$job_id/overview"
[[ "$state" == ALL_RUNNING ]]
