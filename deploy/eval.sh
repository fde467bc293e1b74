#!/usr/bin/env bash
# Bulk evaluation CLI (io.flowsql.benchmarks.eval.EvalCli): `deploy/eval.sh score ...` scores a prediction file
# with no LLM; `deploy/eval.sh run ...` runs a benchmark through the streaming job and writes the report;
# `deploy/eval.sh fewshot-library ...` builds OpenSearch-SQL's few-shot example library, or exports the live one a job
# learned from its feedback topic (`--from-savepoint DIR`) (docs/AGENTS.md).
# See docs/EVALUATION.md for every option.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_built
CP="$(project_classpath benchmarks)" || exit 1
exec java -Xmx3g "${FLINK_JAVA_OPTS[@]}" $LOG_CONFIG -cp "$CP" io.flowsql.benchmarks.eval.EvalCli "$@"
