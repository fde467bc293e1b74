#!/usr/bin/env bash
# The project's CLI: `deploy/flowsql.sh ask ...` sends questions, `deploy/flowsql.sh watch ...` prints answers,
# `deploy/flowsql.sh feedback ...` sends a verified pair, a verdict or a retraction to the feedback topic,
# `deploy/flowsql.sh knowledge add|list|retract` manages business definitions on the knowledge topic.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_built
CP="$(project_classpath)" || exit 1
exec java -Xmx256m $LOG_CONFIG -cp "$CP" io.flowsql.job.cli.FlowSqlCli "$@"
