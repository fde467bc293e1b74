#!/usr/bin/env bash
# Runs one of the project's benchmarks (main classes in module benchmarks); each prints its figures.
#   deploy/bench.sh throughput [N L_ms S preset one_at_a_time checkpoint_ms shared_data]   (docs/ARCHITECTURE.md)
#   deploy/bench.sh llm-client [calls_per_level]                                           (docs/LLM.md)
#   deploy/bench.sh llm-servers [questions preset shared_data]   (needs deploy/llama-server-build.sh; docs/LLM.md)
#   deploy/bench.sh value-index [shared_data work_dir]                                     (docs/DATABASE.md)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
case "${1:-}" in
  throughput)  MAIN=io.flowsql.benchmarks.throughput.ThroughputBenchmark ;;
  llm-client)  MAIN=io.flowsql.benchmarks.llm.LlmClientOverheadBenchmark ;;
  llm-servers) MAIN=io.flowsql.benchmarks.llm.StageServerBenchmark ;;
  value-index) MAIN=io.flowsql.benchmarks.sql.ValueIndexBenchmark ;;
  *) echo "usage: deploy/bench.sh throughput|llm-client|llm-servers|value-index [args...]" >&2; exit 2 ;;
esac
shift
ensure_built
CP="$(project_classpath benchmarks)" || exit 1
exec java -Xmx6g "${FLINK_JAVA_OPTS[@]}" $LOG_CONFIG -cp "$CP" "$MAIN" "$@"
