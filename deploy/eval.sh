#!/usr/bin/env bash
# Bulk evaluation CLI (io.flowsql.benchmarks.eval.EvalCli): `deploy/eval.sh score ...` scores a prediction file
# with no LLM; `deploy/eval.sh run ...` runs a benchmark through the streaming job and writes the report;
# `deploy/eval.sh fewshot-library ...` builds OpenSearch-SQL's few-shot example library, or exports the live one a job
# learned from its feedback topic (`--from-savepoint DIR`) (docs/AGENTS.md).
# See docs/EVALUATION.md for every option.
# Env: FLOWSQL_EVAL_LIMIT=N gives every score and run `--limit N` (the first N questions), replacing a --limit given
#      (CI runs the README's evaluation blocks so: .ci/readme-blocks.sh).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_built
CP="$(project_classpath benchmarks)" || exit 1
if [[ -n "${FLOWSQL_EVAL_LIMIT:-}" && ( "${1:-}" == score || "${1:-}" == run ) ]]; then
  args=("$1" --limit "$FLOWSQL_EVAL_LIMIT"); shift
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --limit) shift 2 ;;
      --limit=*) shift ;;
      *) args+=("$1"); shift ;;
    esac
  done
  log "FLOWSQL_EVAL_LIMIT: the first $FLOWSQL_EVAL_LIMIT questions only"
  set -- "${args[@]}"
fi
exec java -Xmx3g "${FLINK_JAVA_OPTS[@]}" $LOG_CONFIG -cp "$CP" io.flowsql.benchmarks.eval.EvalCli "$@"
