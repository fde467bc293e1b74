#!/usr/bin/env bash
# The project's CLI: `deploy/flowsql.sh ask ...` sends questions, `deploy/flowsql.sh watch ...` prints answers.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_built
exec java -Xmx256m $LOG_CONFIG -cp "$(project_classpath)" io.flowsql.job.cli.FlowSqlCli "$@"
