package io.flowsql.benchmarks.retrieval;

import io.flowsql.benchmarks.engine.postgresql.PostgresWarehouse;
import io.flowsql.events.AnswerEvent;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.catalog.ValueExamplePolicy;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.index.JdbcTextValues;
import io.flowsql.sql.index.LcsValueScorer;
import io.flowsql.sql.index.NgramValueIndex;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import io.flowsql.sql.server.JdbcSchemaCatalog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The warehouse benchmark on PostgreSQL (what {@code deploy/bench.sh warehouse-retrieval} runs): every Spider database
 * one schema of one embedded PostgreSQL database ({@link PostgresWarehouse}, kept under the work folder), the catalog
 * read from the live database by {@link JdbcSchemaCatalog} and the value index sampled from it by
 * {@link JdbcTextValues}, as the job does; then retrieval is measured ({@link RetrievalMeasure}) and
 * the same questions go through the simulated pipeline ({@link WarehousePipeline}, the job on a MiniCluster asking
 * database {@code warehouse}), whose SQL is scored by execution against the schema-qualified gold on the same
 * PostgreSQL database. The pipeline runs only with {@code -Dflowsql.retrieval.ex=true} (it takes minutes).
 */
final class WarehouseOnPostgres {

    private WarehouseOnPostgres() {}

    static void run(Path data, boolean full, Path work, Integer budget) throws Exception {
        DatabaseLocator locator = DatabaseLocator.forSharedData(data);
        SqliteSchemaCatalog sqlite = new SqliteSchemaCatalog(locator, ValueExamplePolicy.defaults(), 512);
        Map<String, DatabaseSchema> databases = WarehouseRetrievalBenchmark.spiderDatabases(data, sqlite);
        Map<String, Path> files = new LinkedHashMap<>();
        databases.keySet().forEach(db -> files.put(db, locator.sqliteFile(db).orElseThrow()));
        Path pgData = work.toAbsolutePath().resolve("pgdata");
        try (PostgresWarehouse pg = PostgresWarehouse.open(pgData, files, sqlite)) {
            System.out.printf(Locale.ROOT, "PostgreSQL %s: %d schemas, %d loaded now in %.1f s, the rest kept in %s%n", pg.url(),
                    pg.schemas().size(), pg.loadedNow(), pg.loadMillis() / 1000.0, pgData);
            DatabaseDeclaration d = pg.declaration();
            DatabaseRegistry registry = new DatabaseRegistry(locator, List.of(d));
            try (JdbcPools pools = new JdbcPools(new Credentials(Map.of()), 30_000);
                    JdbcSchemaCatalog live = new JdbcSchemaCatalog(registry, pools, ValueExamplePolicy.defaults())) {
                long start = System.nanoTime();
                DatabaseSchema warehouse = live.schema(PostgresWarehouse.ID);
                long catalogMillis = (System.nanoTime() - start) / 1_000_000;
                JdbcTextValues.Built values = UserWarehouse.sampleValues(pools, d, warehouse);
                System.out.printf(Locale.ROOT, "catalog read from the live database in %.1f s; value index: %s%n",
                        catalogMillis / 1000.0, values);
                NgramValueIndex index = new NgramValueIndex(values.values(), LcsValueScorer.defaults());
                WarehouseRetrievalBenchmark.describe("PostgreSQL, one schema per database, catalog read by JdbcSchemaCatalog",
                        warehouse, index, databases.size(), pg.loadMillis() + catalogMillis + values.millis());
                WarehouseRetrievalBenchmark.Summary summary = WarehouseRetrievalBenchmark.spider(data, full, warehouse, index,
                        databases, budget);
                if ("true".equals(System.getProperty("flowsql.retrieval.ex"))) {
                    executionAccuracy(data, work, pg, registry, pools, databases, full, summary.budget());
                }
            }
        }
    }

    /** Sends the questions through the simulated pipeline and scores its SQL against the qualified gold, both on PostgreSQL. */
    private static void executionAccuracy(Path data, Path work, PostgresWarehouse pg, DatabaseRegistry registry, JdbcPools pools,
            Map<String, DatabaseSchema> databases, boolean full, int budget) throws Exception {
        List<RetrievalMeasure.Asked> asked = WarehouseRetrievalBenchmark.spiderQuestions(data, full, databases.keySet());
        Map<String, DatabaseSchema> bySchema = new LinkedHashMap<>();
        databases.forEach((db, schema) -> bySchema.put(PostgresWarehouse.schemaOf(db), schema));
        List<WarehousePipeline.Item> items = new ArrayList<>();
        for (RetrievalMeasure.Asked a : asked) {
            GoldSchemaUse gold = GoldSchemaUse.of(a.sql(), bySchema.get(a.schema()));
            items.add(new WarehousePipeline.Item(a.id(), a.question(), GoldSchemaUse.qualified(a.sql(), a.schema(), gold.tables())));
        }
        long start = System.nanoTime();
        Map<String, AnswerEvent> answers = WarehousePipeline.run(data.toAbsolutePath(), work.toAbsolutePath().resolve("pipeline"),
                pg.jobOptions(), budget, items, System.getProperty("flowsql.retrieval.preset", "opensearch"),
                Duration.ofMinutes(Long.getLong("flowsql.retrieval.deadline-minutes", 20)));
        double seconds = (System.nanoTime() - start) / 1e9;
        ResultComparator same = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);
        int goldRuns = 0;
        int correct = 0;
        int answered = 0;
        try (JdbcSafeExecutor sql = new JdbcSafeExecutor(registry, SqlExecutorConfig.defaults().withTimeoutMillis(10_000), pools)) {
            System.out.printf(Locale.ROOT, "%nsimulated pipeline on the warehouse (oracle mode, budget %d tokens):%n", budget);
            for (int i = 0; i < items.size(); i++) {
                WarehousePipeline.Item item = items.get(i);
                RetrievalMeasure.Asked q = asked.get(i);
                AnswerEvent a = answers.get(item.id());
                ExecutionResult gold = sql.execute(PostgresWarehouse.ID, item.goldSql());
                boolean goldOk = gold.ok();
                goldRuns += goldOk ? 1 : 0;
                String verdict;
                if (a == null) {
                    verdict = "unanswered";
                } else {
                    answered++;
                    boolean hit = goldOk && a.sql != null && !a.sql.isBlank()
                            && same.equal(gold, item.goldSql(), sql.execute(PostgresWarehouse.ID, a.sql));
                    correct += hit ? 1 : 0;
                    verdict = (hit ? "EX 1" : "EX 0") + " (" + a.status + (a.retrievedTables == null ? ""
                            : ", " + a.retrievedTables.size() + " tables retrieved")
                            + (a.error == null ? "" : ", " + a.failedStage + " " + a.errorKind + ": " + a.error.split("\n")[0])
                            + ")";
                }
                System.out.printf(Locale.ROOT, "q%-4d %-28s %s%s%n", i, q.schema(), verdict,
                        goldOk ? "" : "  (the gold query fails on PostgreSQL: " + gold.error().message().split("\n")[0] + ")");
            }
        }
        int n = items.size();
        System.out.printf(Locale.ROOT, "  EX %.3f of the %d questions whose gold query runs on PostgreSQL (%d of %d questions; "
                + "%d answered; %.0f s through the job)%n", goldRuns == 0 ? 0 : (double) correct / goldRuns, goldRuns, correct, n,
                answered, seconds);
    }
}
