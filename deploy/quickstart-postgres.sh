#!/usr/bin/env bash
# The quickstart answered from PostgreSQL: starts a PostgreSQL from Maven Central jars (deploy/postgres-start.sh) with
# the quickstart's database loaded into it, then runs deploy/quickstart.sh with that database declared
# (databases.<db>.url/.user/.password-file/.schemas), so the same questions are answered from PostgreSQL instead of
# the SQLite file; stops the server afterwards.
#   deploy/quickstart-postgres.sh ["How many singers are there?" ...]
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "$0")" && pwd)"
source "$DEPLOY_DIR/lib.sh"
DB="${QUICKSTART_DB:-concert_singer}"
"$DEPLOY_DIR/postgres-start.sh" "$DB"
trap '"$DEPLOY_DIR/postgres-stop.sh" || true' EXIT
OPTS=""
while IFS= read -r line; do [[ -n "$line" ]] && OPTS+=" -D $line"; done < "$WORK_DIR/postgres/databases.properties"
QUICKSTART_JOB_OPTS="${QUICKSTART_JOB_OPTS:-}$OPTS" "$DEPLOY_DIR/quickstart.sh" "$@"
