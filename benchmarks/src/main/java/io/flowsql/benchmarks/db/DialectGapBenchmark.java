package io.flowsql.benchmarks.db;

import io.flowsql.access.DataDoors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.engine.TargetEngine;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import io.flowsql.agents.opensearch.align.DialectAlignment;
import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.engine.StageRegistry;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.pipeline.Pipeline;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import java.nio.file.Files;
import java.time.Duration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The dialect gap and the per-engine EX. Each Spider dev database of the questions is loaded into a real PostgreSQL,
 * into DuckDB files and, where {@code mariadbd} is installed, into a real MariaDB ({@code LocalMariaDb}; {@code --no-mariadb}
 * leaves it out; each engine's {@code TargetEngine}) by {@code SqliteToServerLoader}. (1) The gap: how many gold queries run unchanged on PostgreSQL and
 * on DuckDB and return SQLite's result (values read as SQLite returns them; a sorted result may place NULL at the other
 * end), why the rest differ, by category, and how many run with SQLite's result after the dialect alignment rule. (2) The
 * per-engine EX of the simulated pipeline: the same questions asked of SQLite, of PostgreSQL and of DuckDB (each Spider
 * id declared as a database of that engine), the simulator answering from the gold SQL with injected mistakes, every
 * final SQL compared with the gold result on SQLite; reported over all questions and over those whose gold runs on
 * both engines with the same result.
 * <pre>DialectGapBenchmark [shared_data] [work_dir] [--questions 200] [--ex 100] [--preset opensearch]
 *     [--error-rate 0.2] [--full]</pre>
 * {@code --full}: every Spider dev question, for both parts.
 */
public final class DialectGapBenchmark {

    private DialectGapBenchmark() {}

    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        Map<String, String> flags = new java.util.HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--full") || args[i].startsWith("--no-")) {
                flags.put(args[i].substring(2), "true");
            } else if (args[i].startsWith("--")) {
                flags.put(args[i].substring(2), args[++i]);
            } else {
                positional.add(args[i]);
            }
        }
        boolean full = flags.containsKey("full");
        Path shared = Path.of(positional.size() > 0 ? positional.get(0) : "../shared/data").toAbsolutePath();
        Path work = Path.of(positional.size() > 1 ? positional.get(1) : "target/dialect-gap").toAbsolutePath();
        int max = full ? Integer.MAX_VALUE : Integer.parseInt(flags.getOrDefault("questions", positional.size() > 2 ? positional.get(2) : "200"));
        int exQuestions = full ? Integer.MAX_VALUE : Integer.parseInt(flags.getOrDefault("ex", "100"));
        String preset = flags.getOrDefault("preset", StageRegistry.OPENSEARCH);
        double errorRate = Double.parseDouble(flags.getOrDefault("error-rate", "0.2"));
        Files.createDirectories(work);
        JsonNode dev = new ObjectMapper().readTree(shared.resolve("spider/dev.json").toFile());
        List<String[]> items = new ArrayList<>();
        Set<String> dbs = new LinkedHashSet<>();
        DatabaseLocator locator = DatabaseLocator.forSharedData(shared);
        Set<String> missing = new java.util.TreeSet<>();
        for (JsonNode item : dev) {
            if (items.size() >= max) {
                break;
            }
            if (locator.sqliteFile(item.path("db_id").asText()).isEmpty()) {
                missing.add(item.path("db_id").asText());
                continue;
            }
            items.add(new String[] {item.path("db_id").asText(), item.path("query").asText(), item.path("question").asText()});
            dbs.add(item.path("db_id").asText());
        }
        if (!missing.isEmpty()) {
            System.out.println("skipped the questions of " + missing + ": no SQLite file in the shared data");
        }
        Map<String, Path> files = new java.util.LinkedHashMap<>();
        dbs.forEach(db -> files.put(db, locator.sqliteFile(db).orElseThrow()));
        List<DatabaseEngine> servers = new ArrayList<>();
        List<AutoCloseable> started = new ArrayList<>();
        Map<DatabaseEngine, List<DatabaseDeclaration>> byEngine = new java.util.EnumMap<>(DatabaseEngine.class);
        List<DatabaseDeclaration> declared = new ArrayList<>();
        try {
            for (DatabaseEngine engine : DatabaseEngine.values()) {
                TargetEngine target = TargetEngine.of(engine).orElse(null);
                if (target == null || flags.containsKey("no-" + engine.id())) {
                    continue;
                }
                if (target.unavailable() != null) {
                    System.out.println(target.unavailable() + ": no " + engine.displayName() + " column");
                    continue;
                }
                long loadStart = System.nanoTime();
                Map<String, String> options = new java.util.LinkedHashMap<>();
                AutoCloseable server = target.load(files, work.resolve(engine.id()), options);
                if (server != null) {
                    started.add(server);
                }
                System.out.printf("loaded %d Spider dev databases into %s in %.1f s%n", dbs.size(), engine.displayName(),
                        (System.nanoTime() - loadStart) / 1e9);
                servers.add(engine);
                byEngine.put(engine, declared(options, dbs, ""));
                declared.addAll(declared(options, dbs, prefix(engine)));
            }
            DatabaseRegistry registry = new DatabaseRegistry(locator, declared);
            SqlExecutorConfig config = SqlExecutorConfig.defaults().withTimeoutMillis(10_000);
            ResultComparator same = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);
            Map<DatabaseEngine, Set<Integer>> goldSame = new java.util.EnumMap<>(DatabaseEngine.class);
            DialectAlignment dialect = new DialectAlignment(id -> servers.stream().filter(e -> id.startsWith(prefix(e)))
                    .findFirst().orElse(DatabaseEngine.embedded()));
            try (SqliteSafeExecutor sqlite = new SqliteSafeExecutor(locator, config);
                    JdbcSafeExecutor jdbc = new JdbcSafeExecutor(registry, config, new JdbcPools(new Credentials(Map.of()), 30_000))) {
                // through the operator's doors: a measurement serves no tenant
                DataDoors onSqlite = DataDoors.open(sqlite, new io.flowsql.sql.catalog.SqliteSchemaCatalog(locator));
                DataDoors onServers = DataDoors.open(jdbc, null);
                System.out.printf("%nDialect gap: %d Spider dev gold queries (of %d databases), run unchanged%n", items.size(), dbs.size());
                for (DatabaseEngine engine : servers) {
                    String prefix = prefix(engine);
                    Map<String, Integer> why = new TreeMap<>();
                    Set<Integer> sameIdx = new java.util.HashSet<>();
                    int goldOk = 0;
                    int strict = 0;
                    int aligned = 0;
                    for (int i = 0; i < items.size(); i++) {
                        String[] item = items.get(i);
                        ExecutionResult gold = onSqlite.operator(item[0]).execute(item[1]);
                        if (!gold.ok()) {
                            continue;
                        }
                        goldOk++;
                        ExecutionResult r = onServers.operator(prefix + item[0]).execute(item[1]);
                        if (r.ok() && same.equal(gold, item[1], r)) {
                            strict++;
                        }
                        if (r.ok() && same.equalAcrossEngines(gold, item[1], r)) {
                            sameIdx.add(i);
                            continue;
                        }
                        why.merge(category(item[1], r), 1, Integer::sum);
                        String alignedSql = dialect.apply(item[1], withId(onSqlite.operator(item[0]).schema(), prefix + item[0]))
                                .orElse(null);
                        if (alignedSql != null) {
                            ExecutionResult a = onServers.operator(prefix + item[0]).execute(alignedSql);
                            if (a.ok() && same.equalAcrossEngines(gold, item[1], a)) {
                                aligned++;
                            }
                        }
                    }
                    goldSame.put(engine, sameIdx);
                    System.out.printf("%s: %d of %d gold queries (that run on SQLite) give SQLite's result unchanged (%.1f%%); "
                                    + "%d identical row for row, %d more once NULL may sort at the other end; "
                                    + "dialect alignment makes %d more of the rest run with SQLite's result%n",
                            engine.displayName(), sameIdx.size(), goldOk, 100.0 * sameIdx.size() / goldOk, strict,
                            sameIdx.size() - strict, aligned);
                    why.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue())
                            .forEach(e -> System.out.printf("    %4d  %s%n", e.getValue(), e.getKey()));
                }
            }
            List<String[]> exItems = items.subList(0, Math.min(exQuestions, items.size()));
            Set<Integer> onBoth = new java.util.HashSet<>(java.util.stream.IntStream.range(0, items.size()).boxed().toList());
            servers.forEach(e -> onBoth.retainAll(goldSame.get(e)));
            System.out.printf("%nEX of the simulated pipeline (preset %s, simulator answering from the gold SQL with %.0f%% "
                    + "injected mistakes, seed 7): %d questions; 'gold on both' = the %d whose gold gives SQLite's result "
                    + "on every server engine (%s)%n", preset, 100 * errorRate, exItems.size(),
                    (int) java.util.stream.IntStream.range(0, exItems.size()).filter(onBoth::contains).count(),
                    servers.stream().map(DatabaseEngine::displayName).collect(java.util.stream.Collectors.joining(", ")));
            List<DatabaseEngine> exEngines = new ArrayList<>(List.of(DatabaseEngine.embedded()));
            exEngines.addAll(servers);
            for (DatabaseEngine engine : exEngines) {
                ex(engine, byEngine.getOrDefault(engine, List.of()), exItems, onBoth, locator, shared, preset, errorRate,
                        config, same);
            }
        } finally {
            for (AutoCloseable server : started) {
                server.close();
            }
        }
    }

    /** The prefix of each server engine's copy of a Spider id ({@code duckdb_concert_singer}). */
    private static String prefix(DatabaseEngine engine) {
        return engine.id() + "_";
    }

    /** Each database of {@code dbs} as {@code options} declare it ({@code databases.<db>.*}), under id {@code prefix + db}. */
    private static List<DatabaseDeclaration> declared(Map<String, String> options, Set<String> dbs, String prefix) {
        Map<String, String> settings = new java.util.LinkedHashMap<>();
        for (String db : dbs) {
            String from = "databases." + db + ".";
            options.forEach((k, v) -> {
                if (k.startsWith(from)) {
                    settings.put(prefix + db + "." + k.substring(from.length()), v);
                }
            });
            settings.put(prefix + db + ".pool-size", "4");
        }
        return DatabaseRegistry.fromSettings(new DatabaseLocator(List.of(), List.of()), settings).declared();
    }

    /** The simulated pipeline's EX on one engine: every Spider id of the questions served by that engine. */
    private static void ex(DatabaseEngine engine, List<DatabaseDeclaration> declared, List<String[]> items, Set<Integer> onBoth,
            DatabaseLocator locator, Path shared, String preset, double errorRate, SqlExecutorConfig sqlConfig,
            ResultComparator same) throws Exception {
        GoldSqlOracle oracle = GoldSqlOracle.load(shared.resolve("spider/dev.json"));
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0).recordRequests(false)
                .latency(LatencyModel.fixed(0)).responders(AgentResponders.all()).oracle(oracle)
                .errorInjector(SqlErrorInjector.uniform(errorRate, 7)).build())) {
            EngineConfig config = EngineConfig.of(LlmClientConfig.builder(llm.baseUrl()).defaultModel("dialect-gap")
                            .maxConcurrency(64).callTimeout(Duration.ofSeconds(60)).totalBudget(Duration.ofSeconds(300)).build(),
                    locator, preset).withDeclaredDatabases(declared);
            int correct = 0;
            int correctOnBoth = 0;
            int answered = 0;
            long start = System.nanoTime();
            String firstFailure = null;
            try (EngineLease lease = EngineFactory.shared(config); SqliteSafeExecutor sqlite = new SqliteSafeExecutor(locator, sqlConfig)) {
                Pipeline pipeline = new Pipeline(lease.runtime().strategy(preset), lease.runtime().work());
                DataDoors onSqlite = DataDoors.open(sqlite, null);
                DataDoors onEngine = DataDoors.open(lease.engine().sql(), null);
                for (int i = 0; i < items.size(); i++) {
                    String[] item = items.get(i);
                    RequestContext ctx = new RequestContext();
                    ctx.requestId = "dialect-gap-" + engine.id() + "-" + i;
                    ctx.dbId = item[0];
                    ctx.question = item[2];
                    ctx.strategy = preset;
                    ctx.receivedAtMillis = System.currentTimeMillis();
                    pipeline.run(ctx).get();
                    if (ctx.finalSql == null) {
                        firstFailure = firstFailure != null ? firstFailure : ctx.status + " " + ctx.failedStage + ": " + ctx.error;
                        continue;
                    }
                    answered++;
                    ExecutionResult gold = onSqlite.operator(item[0]).execute(item[1]);
                    ExecutionResult predicted = onEngine.operator(item[0]).execute(ctx.finalSql);
                    if (gold.ok() && same.equalAcrossEngines(gold, item[1], predicted)) {
                        correct++;
                        if (onBoth.contains(i)) {
                            correctOnBoth++;
                        }
                    }
                }
            }
            int both = (int) java.util.stream.IntStream.range(0, items.size()).filter(onBoth::contains).count();
            System.out.printf("  %-10s EX %5.1f%% (%d of %d; %d answered)   on 'gold on both': %5.1f%% (%d of %d)   %.1f s%n",
                    engine.displayName(), 100.0 * correct / items.size(), correct, items.size(), answered,
                    100.0 * correctOnBoth / Math.max(1, both), correctOnBoth, both, (System.nanoTime() - start) / 1e9);
            if (firstFailure != null) {
                System.out.println("    first question without an answer: " + firstFailure);
            }
        }
    }

    private static io.flowsql.sql.DatabaseSchema withId(io.flowsql.sql.DatabaseSchema schema, String id) {
        return new io.flowsql.sql.DatabaseSchema(id, schema.tables(), schema.foreignKeys());
    }

    /** Why a gold query does not give SQLite's result on the other engine. */
    static String category(String sql, ExecutionResult r) {
        String s = sql.toLowerCase(Locale.ROOT);
        if (!r.ok()) {
            String m = r.error().message().toLowerCase(Locale.ROOT);
            if (r.error().kind().name().equals("REFUSED")) {
                return "refused by the engine's guard: " + r.error().message().replaceAll("'.*", "").replaceAll("\\(.*", "").trim();
            }
            if (m.contains("must appear in the group by") || m.contains("group by clause") || m.contains("aggregate function")) {
                return "error: strict GROUP BY (a selected column neither grouped nor aggregated)";
            }
            if (m.contains("operator does not exist") || m.contains("cannot compare") || m.contains("could not convert")
                    || m.contains("conversion error") || m.contains("no function matches") || m.contains("cannot be applied")) {
                return "error: types (text compared with a number, no implicit cast)";
            }
            if (m.contains("does not exist") && m.contains("function") || m.contains("scalar function")) {
                return "error: a SQLite function the engine lacks";
            }
            if (m.contains("does not exist") || m.contains("not found") || m.contains("referenced")) {
                return "error: unknown table/column (identifier case, quoting or double-quoted string literals)";
            }
            if (m.contains("syntax")) {
                return "error: SQLite-only syntax";
            }
            return "error: " + r.error().kind() + " " + r.error().message().split("\n")[0].replaceAll("[0-9]+", "N")
                    .replaceAll("\"[^\"]*\"", "\"…\"").substring(0, Math.min(60, r.error().message().split("\n")[0].length()));
        }
        if (s.contains(" like ")) {
            return "different rows: LIKE is case-sensitive";
        }
        if (s.matches(".*\\b(avg|sum|count|max|min)\\b.*/.*|.*[a-z0-9_)]\\s*/\\s*[a-z0-9_(].*")) {
            return "different rows: division (integer vs real)";
        }
        if (s.contains("order by") && s.contains("limit")) {
            return "different rows: ORDER BY ties or NULL ordering under LIMIT";
        }
        if (s.contains("group by")) {
            return "different rows: GROUP BY picks another row for a bare column";
        }
        return "different rows: other";
    }
}
