#!/usr/bin/env bash
# Runs one of the project's benchmarks (main classes in module benchmarks); each prints its figures.
#   deploy/bench.sh throughput [--presets opensearch,full --slots 8,32,64 --latency-ms 200 --questions 400 -D key=value ...] (docs/MEASUREMENTS.md)
#   deploy/bench.sh tokens [--presets full --questions 200 -D key=value]           (docs/LLM.md)
#   deploy/bench.sh llm-client [calls_per_level]                                           (docs/LLM.md)
#   deploy/bench.sh llm-servers [questions preset shared_data]   (needs deploy/llama-server-build.sh; docs/LLM.md)
#   deploy/bench.sh value-index [shared_data work_dir]                                     (docs/DATABASE.md)
#   deploy/bench.sh dialect-gap [shared_data work_dir] [--questions 200 --ex 100 --preset opensearch --full]  (docs/DATABASE.md)
#   deploy/bench.sh warehouse-retrieval [--ddl FILE | --database ID --config FILE] [--questions FILE] [--budget TOKENS] [--scale] [--sweep] [--misses N] [shared_data]  (docs/DATABASE.md)
#   deploy/bench.sh replay-vote [shared_data prediction_files...]                          (docs/AGENTS.md)
#   deploy/bench.sh cluster-scaling [N L_ms M S preset parallelisms shared_data]          (docs/OPERATIONS.md)
#   deploy/bench.sh slow-sql [questions sql_ms shared_data]                                (docs/MEASUREMENTS.md)
#   deploy/bench.sh live-learning [--databases 4 --per-db 6 --state-events 1000]          (docs/AGENTS.md)
#   deploy/bench.sh sql-path [--preset opensearch --slots 8 --latency-ms 200 --questions 200]   (README, Flink SQL)
#   deploy/bench.sh idle-cluster [--taskmanagers 2 --slots 2 --seconds 30 -D key=value]    (docs/MEASUREMENTS.md, idle cost)
#   deploy/bench.sh journal-startup [entries]                                              (docs/MEASUREMENTS.md)
#   deploy/bench.sh soak [--minutes 5 --rate 2 --presets ... --outage-seconds 10 --llm-outage-seconds 60 --pg-outage-seconds 30 --stall-seconds 20 --cluster mini|standalone --sample-minutes 1]  (docs/FAULTS.md)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
case "${1:-}" in
  throughput)  MAIN=io.flowsql.benchmarks.throughput.ThroughputBenchmark ;;
  tokens)      MAIN=io.flowsql.benchmarks.throughput.TokenBenchmark ;;
  llm-client)  MAIN=io.flowsql.benchmarks.llm.LlmClientOverheadBenchmark ;;
  llm-servers) MAIN=io.flowsql.benchmarks.llm.StageServerBenchmark ;;
  value-index) MAIN=io.flowsql.benchmarks.sql.ValueIndexBenchmark ;;
  dialect-gap) MAIN=io.flowsql.benchmarks.db.DialectGapBenchmark ;;
  warehouse-retrieval) MAIN=io.flowsql.benchmarks.retrieval.WarehouseRetrievalBenchmark ;;
  replay-vote) MAIN=io.flowsql.benchmarks.replay.ReplayVoteBenchmark ;;
  cluster-scaling) MAIN=io.flowsql.benchmarks.throughput.ClusterScalingBenchmark ;;
  slow-sql)    MAIN=io.flowsql.benchmarks.sql.SlowSqlRepliesBenchmark ;;
  live-learning) MAIN=io.flowsql.benchmarks.learning.LiveLearningBenchmark ;;
  sql-path)    MAIN=io.flowsql.benchmarks.throughput.SqlPathBenchmark ;;
  idle-cluster) MAIN=io.flowsql.benchmarks.throughput.IdleClusterBenchmark ;;
  journal-startup) MAIN=io.flowsql.benchmarks.journal.JournalStartupBenchmark ;;
  soak)        MAIN=io.flowsql.benchmarks.soak.SoakBenchmark ;;
  *) echo "usage: deploy/bench.sh throughput|tokens|llm-client|llm-servers|value-index|dialect-gap|warehouse-retrieval|replay-vote|cluster-scaling|slow-sql|live-learning|sql-path|idle-cluster|journal-startup|soak [args...]" >&2; exit 2 ;;
esac
shift
ensure_built
CP="$(project_classpath benchmarks)" || exit 1
exec java -Xmx6g "${FLINK_JAVA_OPTS[@]}" $LOG_CONFIG -Dflowsql.project.dir="$PROJECT_DIR" -cp "$CP" "$MAIN" "$@"
