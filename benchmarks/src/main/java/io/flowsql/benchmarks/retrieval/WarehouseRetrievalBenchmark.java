package io.flowsql.benchmarks.retrieval;

import io.flowsql.benchmarks.SmallInputs;
import io.flowsql.benchmarks.engine.postgresql.PostgresWarehouse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.retrieval.RetrievalMeasure.Asked;
import io.flowsql.benchmarks.retrieval.RetrievalMeasure.Figures;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ValueIndex;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.LcsValueScorer;
import io.flowsql.sql.index.NgramValueIndex;
import io.flowsql.sql.index.TextValues;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
import io.flowsql.sql.retrieve.SchemaRetriever;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Schema retrieval at warehouse size (what {@code deploy/bench.sh warehouse-retrieval} runs; docs/DATABASE.md).
 * <ul>
 *   <li>By default every Spider database with a SQLite file becomes one schema of one embedded PostgreSQL database
 *   ({@link WarehouseOnPostgres}: catalog read live, then the simulated pipeline's EX unless
 *   {@code -Dflowsql.retrieval.ex=false}) and all 972 dev questions with a database are asked of it; the even-numbered
 *   questions are the half retrieval was tuned on, the odd-numbered ones are held out and summed apart.
 *   {@code -Dflowsql.retrieval.world=memory} asks the in-memory union of the SQLite catalogs instead, as the unit test
 *   does.</li>
 *   <li>{@code --ddl FILE --questions FILE} loads a user's warehouse and question log ({@link UserWarehouse});
 *   {@code --database ID --config FILE --questions FILE} reads database {@code ID} live as the job's options file declares
 *   it.</li>
 *   <li>{@code --scale}: the in-memory warehouse of Spider's and BIRD mini-dev's schemas (BIRD's as empty tables
 *   described by their column names), BIRD's 500 questions with evidence, and the CPU per question at the default
 *   budget on it and on a generated 10,000-table warehouse (its schemas repeated under new names); BIRD's recall is
 *   printed per schema too.</li>
 *   <li>{@code --sweep}: the Spider questions again at 0.25× to 8× the budget (recall against budget).</li>
 *   <li>{@code --misses N}: the first N questions of each half that lost a gold table, with why ({@link Misses}).</li>
 * </ul>
 * The budget is the median of the questions' own whole-schema prompts unless {@code --budget} says otherwise; every
 * run ends with one {@code summary:} line.
 */
public final class WarehouseRetrievalBenchmark {

    /** The figures the unit test checks. */
    public record Summary(int questions, double tableRecall, double columnRecall, int budget, int todayMedian,
                          double cpuP95Millis, double tableRecallAtFourTimes, double routingTop1) {}

    /** The options that take a value. */
    static final List<String> OPTIONS = List.of("--ddl", "--database", "--config", "--questions", "--budget", "--misses");

    public static void main(String[] args) throws Exception {
        Map<String, String> flags = new LinkedHashMap<>();
        Path data = Paths.get("../shared/data");
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--scale")) {
                flags.put("scale", "true");
            } else if (args[i].equals("--sweep")) {
                System.setProperty("flowsql.retrieval.sweep", "full");
            } else if (args[i].startsWith("--") && !OPTIONS.contains(args[i])) {
                throw new IllegalArgumentException("unknown option " + args[i] + " (known: --scale, --sweep, " + String.join(", ", OPTIONS) + ")");
            } else if (args[i].startsWith("--") && i + 1 < args.length) {
                flags.put(args[i].substring(2), args[++i]);
            } else if (args[i].startsWith("--")) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            } else {
                data = Paths.get(args[i]);
            }
        }
        if (flags.containsKey("misses")) {
            System.setProperty(RetrievalMeasure.MISSES_PROPERTY, String.valueOf(Integer.parseInt(flags.get("misses"))));
        }
        Integer budget = flags.containsKey("budget") ? Integer.valueOf(flags.get("budget")) : Integer.getInteger("flowsql.retrieval.budget");
        String project = System.getProperty("flowsql.project.dir");  // set by deploy/bench.sh
        Path work = Paths.get(System.getProperty("flowsql.retrieval.work",
                project == null ? "target/warehouse" : Paths.get(project, "benchmarks", "target", "warehouse").toString()));
        if (flags.containsKey("ddl") || flags.containsKey("questions") || flags.containsKey("database")) {
            boolean declared = flags.containsKey("database");
            if (!flags.containsKey("questions") || declared == flags.containsKey("ddl") || declared != flags.containsKey("config")) {
                throw new IllegalArgumentException("usage: warehouse-retrieval --ddl FILE --questions FILE [--budget TOKENS]\n"
                        + "   or: warehouse-retrieval --database ID --config JOB_OPTIONS_FILE --questions FILE [--budget TOKENS]");
            }
            if (declared) {
                UserWarehouse.declared(Paths.get(flags.get("config")), flags.get("database"), Paths.get(flags.get("questions")), budget);
            } else {
                UserWarehouse.run(Paths.get(flags.get("ddl")), Paths.get(flags.get("questions")), budget, work);
            }
        } else if (flags.containsKey("scale")) {
            scale(data);
        } else if ("memory".equals(System.getProperty("flowsql.retrieval.world"))) {
            run(data, !"false".equals(System.getProperty("flowsql.retrieval.full")), budget);
        } else {
            boolean full = !"false".equals(System.getProperty("flowsql.retrieval.full")) && !SmallInputs.on();
            if (SmallInputs.on() && System.getProperty("flowsql.retrieval.sweep") == null) {
                System.setProperty("flowsql.retrieval.sweep", "false");
            }
            SmallInputs.announce("every tenth Spider question (flowsql.retrieval.full=false), no budget sweep");
            WarehouseOnPostgres.run(data, full, work, budget);
        }
    }

    /** The figures on the in-memory union catalog (every Spider database one namespace), as the unit test runs it. */
    public static Summary run(Path data, boolean full, Integer budget) throws Exception {
        DatabaseLocator locator = DatabaseLocator.forSharedData(data);
        SqliteSchemaCatalog catalog = new SqliteSchemaCatalog(locator, io.flowsql.sql.catalog.ValueExamplePolicy.defaults(), 512);
        long start = System.nanoTime();
        Map<String, DatabaseSchema> databases = spiderDatabases(data, catalog);
        DatabaseSchema warehouse = Warehouse.merge("warehouse", databases);
        NgramValueIndex index = new NgramValueIndex(spiderValues(locator, databases.keySet()), LcsValueScorer.defaults());
        describe("in-memory union catalog", warehouse, index, databases.size(), (System.nanoTime() - start) / 1_000_000);
        return spider(data, full, warehouse, index, databases, budget);
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

    static TextValues spiderValues(DatabaseLocator locator, Set<String> databases) throws Exception {
        Map<String, TextValues> values = new LinkedHashMap<>();
        for (String db : databases) {
            values.put(db, CachingValueIndexProvider.loadValues(locator, db));
        }
        return Warehouse.mergeValues(values);
    }

    /**
     * The Spider dev questions with a database here (all, or every 10th when not {@code full}), each asked of its
     * database's namespace; odd-numbered questions are held out (the ranking's weights were tuned on every 10th
     * question, all even-numbered).
     */
    static List<Asked> spiderQuestions(Path data, boolean full, Set<String> databases) throws java.io.IOException {
        List<Asked> asked = new ArrayList<>();
        String half = System.getProperty("flowsql.retrieval.half", "all");  // tuning (even), held-out (odd) or all
        JsonNode dev = new ObjectMapper().readTree(data.resolve("spider/dev.json").toFile());
        for (int i = 0; i < dev.size(); i++) {
            String db = dev.get(i).get("db_id").asText();
            boolean inHalf = half.equals("all") || half.equals("tuning") == (i % 2 == 0);
            if (databases.contains(db) && (full || i % 10 == 0) && inHalf) {
                asked.add(new Asked("q" + i, dev.get(i).get("question").asText(), null, PostgresWarehouse.schemaOf(db),
                        dev.get(i).get("query").asText(), i % 2 == 1));
            }
        }
        return asked;
    }

    static void describe(String label, DatabaseSchema warehouse, ValueIndex index, int namespaces, long loadMillis) {
        Set<String> distinctNames = new HashSet<>();
        warehouse.tables().forEach(t -> distinctNames.add(t.name().substring(t.name().lastIndexOf('.') + 1).toLowerCase(Locale.ROOT)));
        System.out.printf(Locale.ROOT, "warehouse (%s): %d namespaces, %d tables (%d distinct names), %d columns, %d foreign keys, "
                        + "%s; loaded in %d ms%n", label, namespaces, warehouse.tables().size(), distinctNames.size(),
                warehouse.columnCount(), warehouse.foreignKeys().size(),
                index instanceof NgramValueIndex n ? n.size() + " text values" : "no value index", loadMillis);
    }

    /** The Spider questions asked of {@code warehouse}: the figures, the budget sweep, the summary line. */
    static Summary spider(Path data, boolean full, DatabaseSchema warehouse, ValueIndex index,
            Map<String, DatabaseSchema> databases, Integer budgetGiven) throws Exception {
        SchemaRenderer renderer = new SchemaRenderer(new TokenCounter(), null);
        List<Asked> asked = spiderQuestions(data, full, databases.keySet());
        Map<String, Integer> todayTokens = new LinkedHashMap<>();
        databases.forEach((db, schema) -> todayTokens.put(PostgresWarehouse.schemaOf(db), renderer.full(schema).tokens()));
        int[] today = asked.stream().mapToInt(q -> todayTokens.get(q.schema())).sorted().toArray();
        int median = today[today.length / 2];
        int budget = budgetGiven != null ? budgetGiven : median;
        System.out.printf(Locale.ROOT, "%d dev questions (%d held out); today's prompt schema (own database, whole): median %d tokens, "
                + "max %d; budget %d tokens%n", asked.size(), asked.stream().filter(Asked::heldOut).count(), median,
                today[today.length - 1], budget);
        Figures f = RetrievalMeasure.run(warehouse, index, asked, SchemaRetriever.lexical(budget),
                !Boolean.getBoolean("flowsql.retrieval.quiet"));
        String sweepOption = System.getProperty("flowsql.retrieval.sweep", "");
        if (sweepOption.equals("full")) {
            sweep(warehouse, index, asked, budget);
        }
        double[] sweep = sweepOption.equals("false") || sweepOption.equals("full") ? new double[0] : new double[] {0.5, 2, 4};
        double atFour = 0;
        System.out.printf(Locale.ROOT, "%nsum over %d questions at budget %d tokens:%n", f.questions(), budget);
        for (double k : sweep) {
            double r = RetrievalMeasure.tableRecall(warehouse, index, asked, SchemaRetriever.lexical((int) (budget * k)));
            System.out.printf(Locale.ROOT, "  table recall at %.1f× that budget (%d tokens): %.3f%n", k, (int) (budget * k), r);
            atFour = r;
        }
        print(f);
        return new Summary(f.questions(), f.tableRecall(), f.columnRecall(), budget, median, f.cpuP95Millis(), atFour, f.routingTop1());
    }

    /** Recall against budget ({@code --sweep}): the questions asked again at fractions and multiples of the budget. */
    static void sweep(DatabaseSchema warehouse, ValueIndex index, List<Asked> asked, int budget) {
        System.out.printf(Locale.ROOT, "%nbudget sweep (× the budget of %d tokens): tokens, table recall, column recall, routing top-1, "
                + "held-out table and column recall, tokens median, CPU p95%n", budget);
        for (double k : new double[] {0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 8}) {
            int b = (int) (budget * k);
            Figures g = RetrievalMeasure.run(warehouse, index, asked, SchemaRetriever.lexical(b), false, false, false);
            System.out.printf(Locale.ROOT, "  sweep %5.2f× %6d  %.3f  %.3f  %.3f  %.3f  %.3f  %6d  %6.2f ms%n", k, b, g.tableRecall(),
                    g.columnRecall(), g.routingTop1(), g.heldOutTableRecall(), g.heldOutColumnRecall(), g.tokensMedian(),
                    g.cpuP95Millis());
        }
    }

    static void print(Figures f) {
        System.out.printf(Locale.ROOT, "  table recall %.3f, column recall %.3f, routing top-1 %.3f, tokens median %d (budget %d)%n",
                f.tableRecall(), f.columnRecall(), f.routingTop1(), f.tokensMedian(), f.budget());
        if (f.heldOut() > 0) {
            System.out.printf(Locale.ROOT, "  held out (%d questions never tuned on): table recall %.3f, column recall %.3f%n",
                    f.heldOut(), f.heldOutTableRecall(), f.heldOutColumnRecall());
        }
        System.out.printf(Locale.ROOT, "  CPU per question (value lookup + ranking + cut): p50 %.2f ms, p95 %.2f ms; machine load: %s%n",
                f.cpuP50Millis(), f.cpuP95Millis(), load());
        System.out.println(f.summaryLine());
    }

    static String load() {
        double[] avg = {java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()};
        return String.format(Locale.ROOT, "load average %.2f on %d cores", avg[0], Runtime.getRuntime().availableProcessors());
    }

    /** Spider plus BIRD mini-dev as one in-memory warehouse; BIRD's questions; CPU at the default budget; 10,000 tables. */
    static void scale(Path data) throws Exception {
        DatabaseLocator locator = DatabaseLocator.forSharedData(data);
        SqliteSchemaCatalog catalog = new SqliteSchemaCatalog(locator, io.flowsql.sql.catalog.ValueExamplePolicy.defaults(), 512);
        Map<String, DatabaseSchema> databases = spiderDatabases(data, catalog);
        Map<String, DatabaseSchema> bird = BirdSchemas.load(data);
        Map<String, DatabaseSchema> all = new LinkedHashMap<>(databases);
        all.putAll(bird);
        DatabaseSchema warehouse = Warehouse.merge("warehouse", all);
        NgramValueIndex index = new NgramValueIndex(spiderValues(locator, databases.keySet()), LcsValueScorer.defaults());
        describe("Spider + BIRD mini-dev, in memory", warehouse, index, all.size(), 0);
        List<Asked> birdQuestions = BirdSchemas.questions(data);
        SchemaRenderer renderer = new SchemaRenderer(new TokenCounter(), null);
        int[] today = birdQuestions.stream().mapToInt(q -> renderer.full(bird.get(q.schema())).tokens()).sorted().toArray();
        int median = today[today.length / 2];
        System.out.printf(Locale.ROOT, "%nBIRD mini-dev's %d questions with evidence at their median whole-schema prompt (%d tokens):%n",
                birdQuestions.size(), median);
        print(RetrievalMeasure.run(warehouse, index, birdQuestions, SchemaRetriever.lexical(median), false, true, true));

        List<Asked> spider = spiderQuestions(data, true, databases.keySet());
        List<Asked> sample = new ArrayList<>();
        for (int i = 0; i < spider.size(); i += 4) {
            sample.add(spider.get(i));
        }
        for (int i = 0; i < birdQuestions.size(); i += 4) {
            sample.add(birdQuestions.get(i));
        }
        System.out.printf(Locale.ROOT, "%n%d Spider and BIRD questions at the default budget (%d tokens), %d tables:%n",
                sample.size(), SchemaRetriever.DEFAULT_TOKEN_BUDGET, warehouse.tables().size());
        print(RetrievalMeasure.run(warehouse, index, sample, SchemaRetriever.lexical(SchemaRetriever.DEFAULT_TOKEN_BUDGET), false));

        Map<String, DatabaseSchema> repeated = new LinkedHashMap<>(all);
        int tables = warehouse.tables().size();
        for (int copy = 2; tables < 10_000; copy++) {
            for (Map.Entry<String, DatabaseSchema> e : all.entrySet()) {
                if (tables >= 10_000) {
                    break;
                }
                repeated.put(e.getKey() + "_copy" + copy, e.getValue());
                tables += e.getValue().tables().size();
            }
        }
        DatabaseSchema big = Warehouse.merge("warehouse", repeated);
        describe("generated: the schemas repeated under new names", big, index, repeated.size(), 0);
        System.out.printf(Locale.ROOT, "the same questions at the default budget, %d tables (routing counts the original schema only):%n",
                big.tables().size());
        print(RetrievalMeasure.run(big, index, sample, SchemaRetriever.lexical(SchemaRetriever.DEFAULT_TOKEN_BUDGET), false));
    }
}
