#!/usr/bin/env bash
# The web console (docs/OPERATIONS.md#console): a page at http://127.0.0.1:8088/ to ask the job questions, follow
# dialogues as their answers commit, see why an answer was chosen, and edit and run its SQL (read-only).
# When no quickstart job is running it starts one beside the console (QUICKSTART_STAY=1 deploy/quickstart.sh: Kafka,
# the simulated LLM or LLM_BASE_URL, the job on a local MiniCluster) and stops it when the console stops (Ctrl-C).
#   deploy/console.sh [--port 8088] [--bind ADDRESS --token-file FILE] [-D job.option=value ...]
# Env: everything deploy/quickstart.sh reads (LLM_BASE_URL, QUICKSTART_DB, ...); CONSOLE_START_TIMEOUT (300 s) for the
#      job to answer its first questions; FLOWSQL_CONSOLE_TOKEN (the bearer token, instead of --token-file).
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "$0")" && pwd)"
source "$DEPLOY_DIR/lib.sh"

QUICKSTART_PID=""
CONSOLE_PID=""
cleanup() {
  local code=$?
  trap - EXIT INT TERM
  # background processes of a script ignore Ctrl-C: stop the console by its id
  # (child_alive: once a child has ended, its number may name another process)
  if [[ -n "$CONSOLE_PID" ]] && child_alive "$CONSOLE_PID"; then kill "$CONSOLE_PID" 2>/dev/null || true; fi
  if [[ -n "$CONSOLE_PID" ]]; then wait "$CONSOLE_PID" 2>/dev/null || true; fi
  if [[ -n "$QUICKSTART_PID" ]] && child_alive "$QUICKSTART_PID"; then
    log "stopping the quickstart job the console started ..."
    kill "$QUICKSTART_PID" 2>/dev/null || true
    wait "$QUICKSTART_PID" 2>/dev/null || true
  fi
  exit $code
}
trap cleanup EXIT INT TERM

ensure_built
CP="$(project_classpath console)" || exit 1

if ! pid_alive "$WORK_DIR/quickstart-job.pid"; then
  log "no quickstart job is running: starting one beside the console (log: work/console-quickstart.log) ..."
  rm -f "$WORK_DIR/quickstart.serving"
  QUICKSTART_STAY=1 "$DEPLOY_DIR/quickstart.sh" > "$WORK_DIR/console-quickstart.log" 2>&1 < /dev/null &
  QUICKSTART_PID=$!
  for _ in $(seq 1 "${CONSOLE_START_TIMEOUT:-300}"); do
    [[ -s "$WORK_DIR/quickstart.serving" ]] && break
    if ! child_alive "$QUICKSTART_PID"; then
      log "the quickstart stopped; last lines of work/console-quickstart.log:"; tail -20 "$WORK_DIR/console-quickstart.log" >&2; exit 1
    fi
    sleep 1
  done
  [[ -s "$WORK_DIR/quickstart.serving" ]] || { log "the job did not answer its first questions in time (work/console-quickstart.log)"; exit 1; }
fi
BOOTSTRAP="$(cat "$WORK_DIR/kafka.ready")"

log "console over the job on $BOOTSTRAP (stop with Ctrl-C); open the address below in a browser:"
java -Xmx512m $LOG_CONFIG -cp "$CP" io.flowsql.console.ConsoleMain -c "$DEPLOY_DIR/quickstart.properties" \
  -D kafka.bootstrap-servers="$BOOTSTRAP" -D data.shared="$SHARED_DATA" "$@" < /dev/null &
CONSOLE_PID=$!
wait $CONSOLE_PID
