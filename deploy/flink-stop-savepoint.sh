#!/usr/bin/env bash
# Stops a running job with a savepoint over the cluster's REST API (POST /jobs/<id>/stop with drain=false: no
# end-of-input is sent through the job, so held dialogue turns, pending gathers and timers stay in the savepoint
# as they are), waits until the savepoint is complete and the job has finished, and prints the savepoint's path.
# The exactly-once sinks commit their open transactions as part of the stop. Resume, at any parallelism up to the
# job's max parallelism (128), with: deploy/flink-submit.sh --from-savepoint PATH -D job.parallelism=N ...
#   deploy/flink-stop-savepoint.sh JOB_ID [TARGET_DIR]
# TARGET_DIR: folder/URI the savepoint goes to; default the cluster's execution.checkpointing.savepoint-dir (the
# local cluster's: work/flink-cluster/savepoints). Env: FLINK_REST_URL (as flink-submit.sh), FLINK_SAVEPOINT_TIMEOUT
# (300 s for the savepoint and the stop).
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "$0")" && pwd)"
source "$DEPLOY_DIR/lib.sh"
source "$DEPLOY_DIR/flink-cluster-lib.sh"

[[ $# -ge 1 && $# -le 2 ]] || { log "usage: $0 JOB_ID [TARGET_DIR]"; exit 2; }
JOB_ID="$1"
TARGET="${2:-}"
TIMEOUT="${FLINK_SAVEPOINT_TIMEOUT:-300}"
REST="$(cluster_rest_url)"

started=$SECONDS
deadline=$((SECONDS + TIMEOUT))
state="$(job_state "$JOB_ID")"
[[ "$state" == RUNNING || "$state" == ALL_RUNNING ]] \
  || { log "job $JOB_ID is not running at $REST (state: ${state:-unknown})"; exit 1; }
# A savepoint needs every task running: right after a (re)start some may still be deploying or restoring.
while [[ "$state" == RUNNING ]] && (( SECONDS < deadline )); do
  sleep 0.5
  state="$(job_state "$JOB_ID")"
done
[[ "$state" == ALL_RUNNING ]] || { log "job $JOB_ID: not all tasks running (state: ${state:-unknown})"; exit 1; }

body='{"drain":false'
[[ -n "$TARGET" ]] && body+=",\"targetDirectory\":$(json_quote "$TARGET")"
body+='}'

# Triggers the stop and waits for its savepoint; prints its location, or nothing when it failed (the reason goes to
# stderr).
stop_with_savepoint() {
  local trigger request_id answer status
  trigger="$(curl -s --max-time 30 -X POST -H 'Content-Type: application/json' -d "$body" "$REST/jobs/$JOB_ID/stop")"
  request_id="$(json_string "$trigger" request-id)"
  [[ -n "$request_id" ]] || { log "the cluster refused the stop: $trigger"; return 0; }
  while (( SECONDS < deadline )); do
    answer="$(rest_get "/jobs/$JOB_ID/savepoints/$request_id" || true)"
    status="$({ grep -o '"status":{"id":"[A-Z_]*"' <<< "$answer" || true; } | cut -d'"' -f6)"
    if [[ "$status" == COMPLETED ]]; then
      location="$(json_string "$answer" location)"
      [[ -n "$location" ]] && { printf '%s' "$location"; return 0; }
      log "the savepoint failed:"; printf '%s\n' "$answer" | sed 's/\\n/\n/g; s/\\t/\t/g' | head -12 >&2
      return 0
    fi
    sleep 0.5
  done
  log "no savepoint after ${TIMEOUT} s (status: ${status:-unknown})"
}

location=""
for _ in 1 2 3; do
  log "stopping job $JOB_ID with a savepoint (drain=false) ..."
  location="$(stop_with_savepoint)"
  [[ -n "$location" ]] && break
  # A failed stop-with-savepoint leaves the job running (e.g. a task was restarting): try again while it does.
  state="$(job_state "$JOB_ID")"
  [[ "$state" == RUNNING || "$state" == ALL_RUNNING ]] && (( SECONDS < deadline )) || break
  sleep 2
done
[[ -n "$location" ]] || { log "job $JOB_ID was not stopped with a savepoint"; exit 1; }

while (( SECONDS < deadline )); do
  state="$(job_state "$JOB_ID")"
  [[ "$state" == FINISHED || "$state" == CANCELED || "$state" == FAILED ]] && break
  sleep 0.5
done
log "job $JOB_ID is ${state:-unknown}; savepoint written in $((SECONDS - started)) s"
echo "savepoint: $location"
[[ "$state" == FINISHED ]]
