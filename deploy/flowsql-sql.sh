#!/usr/bin/env bash
# FlowSQL as a Flink SQL job: the bundled script (job/src/main/resources/sql/flowsql.sql) declares the questions, answers
# and dead-letters topics as Kafka tables and answers every question record with the FLOWSQL_ANSWER table function,
# exactly once. Its ${NAME} placeholders are filled in from the same options as the DataStream job (-c file, -D key=value).
#   deploy/flowsql-sql.sh --print -D kafka.bootstrap-servers=127.0.0.1:9092 ...   # the filled-in script (for the SQL client)
#   deploy/flowsql-sql.sh --local -D llm.base-url=http://127.0.0.1:8000/v1 ...    # runs it in this JVM (MiniCluster)
#   deploy/flowsql-sql.sh --submit -D job.parallelism=2 ...                        # to the local standalone cluster
#   deploy/flowsql-sql.sh --client -D job.parallelism=2 ...                        # the same, through Flink's SQL client
# --script FILE runs another script with the same placeholders.
set -euo pipefail
DEPLOY_DIR="$(cd "$(dirname "$0")" && pwd)"
source "$DEPLOY_DIR/lib.sh"

MODE="${1:-}"
case "$MODE" in
  --print|--local|--submit|--client) shift ;;
  *) log "usage: deploy/flowsql-sql.sh --print|--local|--submit|--client [--script FILE] [-c FILE] [-D key=value ...]"; exit 2 ;;
esac

if [[ "$MODE" == --submit ]]; then
  FLOWSQL_MAIN_CLASS=io.flowsql.job.sql.FlowSqlScript exec "$DEPLOY_DIR/flink-submit.sh" "$@"
fi

ensure_built
CP="$(project_classpath)" || exit 1
case "$MODE" in
  --client)
    source "$DEPLOY_DIR/flink-cluster-lib.sh"
    script="$CLUSTER_DIR/flowsql-client.sql"
    mkdir -p "$CLUSTER_DIR"
    java -Xmx256m $LOG_CONFIG -cp "$CP" io.flowsql.job.sql.FlowSqlScript --print "$@" > "$script"
    exec "$DEPLOY_DIR/flink-sql-client.sh" -f "$script" ;;
  --print) exec java -Xmx256m $LOG_CONFIG -cp "$CP" io.flowsql.job.sql.FlowSqlScript --print "$@" ;;
  --local) exec java -Xmx1g "${FLINK_JAVA_OPTS[@]}" $LOG_CONFIG -cp "$CP" io.flowsql.job.sql.FlowSqlScript --local "$@" ;;
esac
