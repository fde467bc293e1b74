package io.flowsql.benchmarks.eval.semantics;

import io.flowsql.access.DataDoors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.eval.SharedData;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.score.Prediction;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** Scores one constructed prediction against one real Spider dev question (its gold and its database) under a semantics. */
final class SpiderDevCases implements AutoCloseable {
    private final JsonNode dev;
    private final Path databases;
    private final SqliteSafeExecutor executor;

    SpiderDevCases() {
        Path spider = SharedData.root().resolve("spider");
        try {
            dev = new ObjectMapper().readTree(spider.resolve("dev.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        databases = spider.resolve("database");
        executor = new SqliteSafeExecutor(new DatabaseLocator(List.of(databases), List.of()),
                SqlExecutorConfig.defaults().withTimeoutMillis(30_000).withMaxRows(1_000_000).withMaxBytes(512L << 20));
    }

    String gold(int devIndex) {
        return dev.get(devIndex).get("query").asText();
    }

    ItemOutcome score(Semantics semantics, int devIndex, String predictionLine) {
        JsonNode q = dev.get(devIndex);
        BenchmarkItem item = new BenchmarkItem(String.valueOf(devIndex), devIndex, q.get("db_id").asText(),
                q.get("question").asText(), "", q.get("query").asText(), "unknown", null, 0, null);
        Benchmark bench = new Benchmark("spider-dev", List.of(item), databases);
        Prediction p = new Prediction(null, devIndex, predictionLine, null, List.of());
        return new Scorer(DataDoors.open(executor, null), semantics, null).score(bench, List.of(p), n -> {}).get(0);
    }

    boolean official(int devIndex, String prediction) {
        return score(new SpiderTestSuiteExec(), devIndex, prediction).correct();
    }

    boolean own(int devIndex, String prediction) {
        return score(new FlowsqlComparison(io.flowsql.sql.compare.ComparisonMode.SPIDER_TEST_SUITE), devIndex, prediction).correct();
    }

    @Override
    public void close() {
        executor.close();
    }
}
