#!/usr/bin/env bash
# The quickstart answered from MariaDB: starts Debian's mariadbd (deploy/mariadb-start.sh, its own port and data folder
# under work/mariadb; FLOWSQL_INSTALL_TOOLS=1 installs mariadb-server when missing), loads the quickstart's database into
# it, then runs deploy/quickstart.sh with that database declared (databases.<db>.url/.user/.password-file/.schemas),
# so the same questions are answered from MariaDB instead of the SQLite file; stops the server afterwards.
#   deploy/quickstart-mariadb.sh ["How many singers are there?" ...]
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "$0")" && pwd)"
source "$DEPLOY_DIR/lib.sh"
DB="${QUICKSTART_DB:-concert_singer}"
ensure_built
CP="$(project_classpath benchmarks)" || exit 1
trap '"$DEPLOY_DIR/mariadb-stop.sh" "$WORK_DIR/mariadb" || true' EXIT
java -Xmx512m $LOG_CONFIG -Dflowsql.project.dir="$PROJECT_DIR" -cp "$CP" io.flowsql.benchmarks.engine.mariadb.MariaDbLoadMain "$WORK_DIR/mariadb" "$SHARED_DATA" "$DB" >&2
OPTS=""
while IFS= read -r line; do [[ -n "$line" ]] && OPTS+=" -D $line"; done < "$WORK_DIR/mariadb/databases.properties"
QUICKSTART_JOB_OPTS="${QUICKSTART_JOB_OPTS:-}$OPTS" "$DEPLOY_DIR/quickstart.sh" "$@"
