#!/usr/bin/env bash
# Stops the local Flink session cluster started by flink-cluster-start.sh; does nothing when none runs.
# Running jobs are cancelled first, so their exactly-once Kafka sinks abort their open transactions instead of
# leaving them to time out (which would hold read_committed readers back). Then the TaskManagers, then the JobManager.
# --clean also deletes work/flink-cluster or FLINK_CLUSTER_DIR (config, logs, uploaded jars, savepoints).
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "$0")" && pwd)"
source "$DEPLOY_DIR/lib.sh"
source "$DEPLOY_DIR/flink-cluster-lib.sh"
unset FLINK_REST_URL   # only the local cluster is stopped

# Cancels every job that is not finished yet and waits (up to 60 s) until none is left running.
cancel_jobs() {
  local jobs ids id
  jobs="$(rest_get /jobs || true)"
  ids="$(grep -oE '"id":"[0-9a-f]+","status":"(RUNNING|CREATED|INITIALIZING|RESTARTING|FAILING|RECONCILING)"' <<< "$jobs" \
    | cut -d'"' -f4 || true)"
  [[ -z "$ids" ]] && return 0
  for id in $ids; do
    log "cancelling job $id ..."
    curl -sf --max-time 10 -X PATCH "$(cluster_rest_url)/jobs/$id?mode=cancel" > /dev/null || true
  done
  for _ in $(seq 1 120); do
    jobs="$(rest_get /jobs || true)"
    grep -qE '"status":"(RUNNING|CREATED|INITIALIZING|RESTARTING|FAILING|CANCELLING|RECONCILING)"' <<< "$jobs" || return 0
    sleep 0.5
  done
  log "some jobs did not finish cancelling within 60 s; stopping anyway"
}

running=0
pid_alive "$JM_PID_FILE" && running=1
if [[ $running == 1 ]]; then cancel_jobs; fi
# all TaskManagers are asked at once, then waited for (each takes a few seconds to shut down)
for pid_file in $(taskmanager_pid_files); do
  if pid_alive "$pid_file"; then
    running=1
    log "stopping $(basename "$pid_file" .pid) (pid $(cat "$pid_file")) ..."
    kill "$(cat "$pid_file")" 2>/dev/null || true
  fi
done
for pid_file in $(taskmanager_pid_files); do stop_pid_file "$pid_file" 30; done
if pid_alive "$JM_PID_FILE"; then
  log "stopping the JobManager (pid $(cat "$JM_PID_FILE")) ..."
fi
stop_pid_file "$JM_PID_FILE" 30
# the ZooKeeper of FLINK_HA=zookeeper, after the JobManager that used it
if pid_alive "$CLUSTER_PID_DIR/zookeeper.pid"; then
  log "stopping ZooKeeper (pid $(cat "$CLUSTER_PID_DIR/zookeeper.pid")) ..."
fi
stop_pid_file "$CLUSTER_PID_DIR/zookeeper.pid" 30
rm -f "$CLUSTER_DIR/rest.url"
[[ $running == 1 ]] && log "Flink cluster stopped" || log "the Flink cluster is not running"
if [[ "${1:-}" == "--clean" ]]; then
  rm -rf "$CLUSTER_DIR"
  log "$CLUSTER_DIR removed"
fi
