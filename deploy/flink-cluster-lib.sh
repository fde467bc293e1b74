# Shared by the flink-cluster-*.sh and flink-submit.sh scripts (sourced after lib.sh): where the local standalone
# cluster keeps its files, and small helpers over Flink's REST API (curl only; no jq needed).
# FLINK_CLUSTER_DIR moves everything (config, logs, PIDs, savepoints) elsewhere, e.g. a test's target/ folder.
CLUSTER_DIR="${FLINK_CLUSTER_DIR:-$WORK_DIR/flink-cluster}"
CLUSTER_CONF_DIR="$CLUSTER_DIR/conf"
CLUSTER_LOG_DIR="$CLUSTER_DIR/log"
CLUSTER_PID_DIR="$CLUSTER_DIR/pids"
JM_PID_FILE="$CLUSTER_PID_DIR/jobmanager.pid"

# The REST address of the cluster: FLINK_REST_URL when set (any cluster), else the one the local cluster wrote at
# start, else http://127.0.0.1:$FLINK_REST_PORT (8081).
cluster_rest_url() {
  if [[ -n "${FLINK_REST_URL:-}" ]]; then printf '%s' "${FLINK_REST_URL%/}"
  elif [[ -s "$CLUSTER_DIR/rest.url" ]]; then cat "$CLUSTER_DIR/rest.url"
  else printf 'http://127.0.0.1:%s' "${FLINK_REST_PORT:-8081}"
  fi
}

# GET of a REST path ($1, e.g. /overview) on the cluster; fails when the cluster does not answer.
rest_get() {
  curl -sf --max-time 10 "$(cluster_rest_url)$1"
}

# The integer value of the first JSON field named $2 in the JSON text $1 (empty when absent), e.g.
# json_int "$overview" taskmanagers.
json_int() {
  { grep -o "\"$2\":[0-9]*" <<< "$1" || true; } | head -n1 | cut -d: -f2
}

# The string value of the first JSON field named $2 in the JSON text $1 (empty when absent).
json_string() {
  { grep -o "\"$2\":\"[^\"]*\"" <<< "$1" || true; } | head -n1 | cut -d'"' -f4
}

# The PID files of the local cluster's TaskManagers.
taskmanager_pid_files() {
  compgen -G "$CLUSTER_PID_DIR/taskmanager-*.pid" || true
}

# The state of job $1 (RUNNING, FINISHED, ...; empty when the cluster does not know it), reported as ALL_RUNNING once
# the job and every one of its tasks run: a job is RUNNING while its tasks still deploy and restore state, and a
# savepoint can only be taken once they all run.
job_state() {
  local details state statuses
  details="$(rest_get "/jobs/$1" || true)"
  state="$(json_string "$details" state)"
  if [[ "$state" == RUNNING ]]; then
    statuses="$({ grep -o '"status":"[A-Z_]*"' <<< "$details" || true; } | sort -u)"
    [[ "$statuses" == '"status":"RUNNING"' ]] && state=ALL_RUNNING
  fi
  printf '%s' "$state"
}

# One JSON string literal for the text $1.
json_quote() {
  local s="$1"
  s="${s//\\/\\\\}"; s="${s//\"/\\\"}"; s="${s//$'\t'/\\t}"; s="${s//$'\n'/\\n}"; s="${s//$'\r'/\\r}"
  printf '"%s"' "$s"
}
