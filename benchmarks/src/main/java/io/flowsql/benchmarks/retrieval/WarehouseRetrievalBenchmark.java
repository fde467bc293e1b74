package io.flowsql.benchmarks.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ValueMatch;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.LcsValueScorer;
import io.flowsql.sql.index.NgramValueIndex;
import io.flowsql.sql.index.TextValues;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
import io.flowsql.sql.retrieve.RetrievalQuery;
import io.flowsql.sql.retrieve.RetrievedSchema;
import io.flowsql.sql.retrieve.SchemaRetriever;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Schema retrieval at warehouse size: every Spider database with a SQLite file becomes one schema namespace of a
 * single catalog (≈160 namespaces, ≈800 tables, colliding names) with one value index over all their text values, and
 * the Spider dev questions are asked of that one catalog. {@link #main} builds it as one embedded PostgreSQL database
 * ({@link WarehouseOnPostgres}: catalog read live, then the simulated pipeline's EX); {@link #run}, as the unit test
 * does, as an in-memory union of the SQLite catalogs ({@link Warehouse}; also {@code -Dflowsql.retrieval.world=memory}). Per question and in sum it prints the recall of
 * the gold query's tables and columns in the retrieved schema, the retrieved schema's tokens against today's prompt
 * (the question's own database's whole schema), and the retrieval time (value lookup + ranking + rendering).
 * The budget is the median of today's whole-schema prompts unless {@code -Dflowsql.retrieval.budget} says otherwise.
 *
 * <p>Small by default (every 10th dev question); {@code -Dflowsql.retrieval.full=true} asks all of them.
 * Usage: WarehouseRetrievalBenchmark [shared-data-dir (default ../shared/data)]
 */
public final class WarehouseRetrievalBenchmark {
    private static final int VALUE_MATCHES = 6;

    /** The figures in sum: mean table and column recall, the budget, today's median prompt schema, retrieval p95. */
    public record Summary(int questions, double tableRecall, double columnRecall, int budget, int todayMedian,
                          double p95Millis, double tableRecallAtFourTimes) {}

    public static void main(String[] args) throws Exception {
        Path data = Paths.get(args.length > 0 ? args[0] : "../shared/data");
        boolean full = Boolean.getBoolean("flowsql.retrieval.full");
        if ("memory".equals(System.getProperty("flowsql.retrieval.world"))) {
            run(data, full);
        } else {
            String project = System.getProperty("flowsql.project.dir");  // set by deploy/bench.sh
            Path work = Paths.get(System.getProperty("flowsql.retrieval.work",
                    project == null ? "target/warehouse" : Paths.get(project, "benchmarks", "target", "warehouse").toString()));
            WarehouseOnPostgres.run(data, full, work);
        }
    }

    /** What the questions are asked of: the warehouse's catalog, its value index, and the databases it was made of. */
    record World(String label, DatabaseSchema warehouse, NgramValueIndex index, Map<String, DatabaseSchema> databases,
                 long loadMillis) {}

    /** The figures on the in-memory union catalog (every Spider database one namespace), as the unit test runs it. */
    public static Summary run(Path data, boolean full) throws Exception {
        DatabaseLocator locator = DatabaseLocator.forSharedData(data);
        SqliteSchemaCatalog catalog = new SqliteSchemaCatalog(locator, io.flowsql.sql.catalog.ValueExamplePolicy.defaults(), 512);
        long start = System.nanoTime();
        Map<String, DatabaseSchema> databases = spiderDatabases(data, catalog);
        Map<String, TextValues> values = new LinkedHashMap<>();
        for (String db : databases.keySet()) {
            values.put(db, CachingValueIndexProvider.loadValues(locator, db));
        }
        DatabaseSchema warehouse = Warehouse.merge("warehouse", databases);
        NgramValueIndex index = new NgramValueIndex(Warehouse.mergeValues(values), LcsValueScorer.defaults());
        return measure(data, full, new World("in-memory union catalog", warehouse, index, databases,
                (System.nanoTime() - start) / 1_000_000)).summary();
    }

    /** Every Spider database with a SQLite file here, read by {@code catalog}, in tables.json order. */
    static Map<String, DatabaseSchema> spiderDatabases(Path data, SqliteSchemaCatalog catalog) throws java.io.IOException {
        Map<String, DatabaseSchema> databases = new LinkedHashMap<>();
        for (JsonNode entry : new ObjectMapper().readTree(data.resolve("spider/tables.json").toFile())) {
            String db = entry.get("db_id").asText();
            if (catalog.locator().sqliteFile(db).isPresent()) {
                databases.put(db, catalog.schema(db));
            }
        }
        return databases;
    }

    /** The figures and the questions asked, each with the gold query qualified by its database's namespace. */
    record Measured(Summary summary, List<JsonNode> questions, List<String> qualifiedGold) {}

    static Measured measure(Path data, boolean full, World world) throws Exception {
        boolean perQuestion = !Boolean.getBoolean("flowsql.retrieval.quiet");
        SchemaRenderer renderer = new SchemaRenderer(new TokenCounter(), null);
        DatabaseSchema warehouse = world.warehouse();
        NgramValueIndex index = world.index();
        Map<String, DatabaseSchema> databases = world.databases();
        Set<String> distinctNames = new HashSet<>();
        databases.values().forEach(d -> d.tables().forEach(t -> distinctNames.add(t.name().toLowerCase(Locale.ROOT))));
        int wholeTokens = renderer.full(warehouse).tokens();
        System.out.printf(Locale.ROOT, "warehouse (%s): %d namespaces, %d tables (%d distinct names), %d columns, %d foreign keys, "
                        + "%d text values; whole schema %d tokens; loaded in %d ms%n", world.label(), databases.size(),
                warehouse.tables().size(), distinctNames.size(), warehouse.columnCount(), warehouse.foreignKeys().size(),
                index.size(), wholeTokens, world.loadMillis());

        List<JsonNode> questions = new ArrayList<>();
        JsonNode dev = new ObjectMapper().readTree(data.resolve("spider/dev.json").toFile());
        for (int i = 0; i < dev.size(); i++) {
            if (databases.containsKey(dev.get(i).get("db_id").asText()) && (full || i % 10 == 0)) {
                questions.add(dev.get(i));
            }
        }
        Map<String, Integer> todayTokens = new LinkedHashMap<>();
        databases.forEach((db, schema) -> todayTokens.put(db, renderer.full(schema).tokens()));
        int[] today = questions.stream().mapToInt(q -> todayTokens.get(q.get("db_id").asText())).sorted().toArray();
        int median = today[today.length / 2];
        int budget = Integer.getInteger("flowsql.retrieval.budget", median);
        SchemaRetriever retriever = SchemaRetriever.lexical(budget);
        System.out.printf(Locale.ROOT, "%d dev questions; today's prompt schema (own database, whole): median %d tokens, "
                + "max %d; budget %d tokens%n", questions.size(), median, today[today.length - 1], budget);

        retriever.retrieve(warehouse, RetrievalQuery.of("warm up", null, List.of()));  // per-schema costs, once
        double[] sweep = {0.5, 2, 4};
        SchemaRetriever[] others = new SchemaRetriever[sweep.length];
        double[] sweepRecall = new double[sweep.length];
        for (int k = 0; k < sweep.length; k++) {
            others[k] = SchemaRetriever.lexical((int) (budget * sweep[k]));
        }
        long[] latency = new long[questions.size()];
        long[] cpu = new long[questions.size()];
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        Totals sum = new Totals();
        String example = null;
        List<String> qualifiedGold = new ArrayList<>();
        for (int i = 0; i < questions.size(); i++) {
            JsonNode q = questions.get(i);
            String db = q.get("db_id").asText();
            String sql = q.get("query").asText();
            GoldSchemaUse gold = GoldSchemaUse.of(sql, databases.get(db));
            qualifiedGold.add(GoldSchemaUse.qualified(sql, PostgresWarehouse.schemaOf(db), gold.tables()));
            long t0 = System.nanoTime();
            long c0 = threads.getCurrentThreadCpuTime();
            List<ValueMatch> found = index.find(q.get("question").asText(), VALUE_MATCHES);
            RetrievedSchema got = retriever.retrieve(warehouse, RetrievalQuery.of(q.get("question").asText(), null, found));
            long micros = (System.nanoTime() - t0) / 1_000;
            latency[i] = micros;
            cpu[i] = (threads.getCurrentThreadCpuTime() - c0) / 1_000;
            Set<String> kept = new HashSet<>();
            got.tableNames().forEach(t -> kept.add(t.toLowerCase(Locale.ROOT)));
            long tablesHit = gold.tables().stream().filter(t -> kept.contains(Warehouse.qualified(db, t).toLowerCase(Locale.ROOT))).count();
            long columnsHit = gold.columns().stream().filter(c -> kept.contains(Warehouse.qualified(db, c.table()).toLowerCase(Locale.ROOT))).count();
            double tableRecall = gold.tables().isEmpty() ? 1 : (double) tablesHit / gold.tables().size();
            double columnRecall = gold.columns().isEmpty() ? 1 : (double) columnsHit / gold.columns().size();
            sum.add(tableRecall, columnRecall, got.tokens(), todayTokens.get(db));
            for (int k = 0; k < sweep.length; k++) {
                Set<String> wider = new HashSet<>();
                others[k].retrieve(warehouse, RetrievalQuery.of(q.get("question").asText(), null, found)).tableNames()
                        .forEach(t -> wider.add(t.toLowerCase(Locale.ROOT)));
                sweepRecall[k] += gold.tables().isEmpty() ? 1 : (double) gold.tables().stream()
                        .filter(t -> wider.contains(Warehouse.qualified(db, t).toLowerCase(Locale.ROOT))).count() / gold.tables().size();
            }
            if (example == null && gold.tables().size() > 1) {
                example = GoldSchemaUse.qualified(sql, db, gold.tables());
            }
            if (perQuestion) {
                System.out.printf(Locale.ROOT, "q%-4d %-28s tables %d/%d columns %d/%d  tokens %5d (today %5d, %2d tables kept, %2d brief)  %6d µs%s%n",
                        i, db, tablesHit, gold.tables().size(), columnsHit, gold.columns().size(), got.tokens(),
                        todayTokens.get(db), got.tableNames().size(), got.briefTables().size(), micros,
                        tableRecall < 1 ? "  MISSED " + missing(gold, db, kept) : "");
            }
        }
        int n = questions.size();
        System.out.printf(Locale.ROOT, "%nsum over %d questions at budget %d tokens:%n", n, budget);
        System.out.printf(Locale.ROOT, "  table recall %.3f (all gold tables kept in %.1f%% of questions)%n",
                sum.tableRecall / n, 100.0 * sum.allTables / n);
        for (int k = 0; k < sweep.length; k++) {
            System.out.printf(Locale.ROOT, "  table recall at %.1f× that budget (%d tokens): %.3f%n", sweep[k],
                    (int) (budget * sweep[k]), sweepRecall[k] / n);
        }
        System.out.printf(Locale.ROOT, "  column recall %.3f (all gold columns kept in %.1f%% of questions)%n",
                sum.columnRecall / n, 100.0 * sum.allColumns / n);
        System.out.printf(Locale.ROOT, "  schema tokens per prompt: retrieved %.0f on average vs today's %.0f (own database, whole) "
                + "vs %d for the whole warehouse%n", (double) sum.retrievedTokens / n, (double) sum.todayTokens / n, wholeTokens);
        System.out.printf(Locale.ROOT, "  retrieval time (value lookup + ranking + cut): p50 %.2f ms, p95 %.2f ms, max %.2f ms%n",
                percentile(latency, 50) / 1000.0, percentile(latency, 95) / 1000.0, percentile(latency, 100) / 1000.0);
        System.out.printf(Locale.ROOT, "  retrieval CPU time of the thread (what a loaded machine does not inflate): p50 %.2f ms, "
                + "p95 %.2f ms%n", percentile(cpu, 50) / 1000.0, percentile(cpu, 95) / 1000.0);
        System.out.println("  a gold query qualified by namespace: " + example);
        return new Measured(new Summary(n, sum.tableRecall / n, sum.columnRecall / n, budget, median,
                percentile(latency, 95) / 1000.0, sweepRecall[sweep.length - 1] / n), questions, qualifiedGold);
    }

    /** Sums over the questions. */
    private static final class Totals {
        double tableRecall;
        double columnRecall;
        int allTables;
        int allColumns;
        long retrievedTokens;
        long todayTokens;

        void add(double tables, double columns, int retrieved, int today) {
            tableRecall += tables;
            columnRecall += columns;
            allTables += tables == 1 ? 1 : 0;
            allColumns += columns == 1 ? 1 : 0;
            retrievedTokens += retrieved;
            todayTokens += today;
        }
    }

    static double percentile(long[] values, double p) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static String missing(GoldSchemaUse gold, String db, Set<String> kept) {
        return Arrays.toString(gold.tables().stream()
                .filter(t -> !kept.contains(Warehouse.qualified(db, t).toLowerCase(Locale.ROOT))).toArray());
    }
}
