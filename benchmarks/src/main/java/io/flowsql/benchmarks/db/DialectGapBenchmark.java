package io.flowsql.benchmarks.db;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.load.SqliteToServerLoader;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import io.flowsql.sql.registry.ValueSampling;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
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
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The dialect gap and the per-engine EX. Each Spider dev database of the questions is loaded into a real PostgreSQL,
 * into DuckDB files and, where {@code mariadbd} is installed, into a real MariaDB ({@link LocalMariaDb}; {@code --no-mariadb}
 * leaves it out) by {@link SqliteToServerLoader}. (1) The gap: how many gold queries run unchanged on PostgreSQL and
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
            if (args[i].equals("--full") || args[i].equals("--no-mariadb")) {
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
        boolean withMariaDb = !flags.containsKey("no-mariadb") && (Files.isExecutable(Path.of("/usr/sbin/mariadbd"))
                || "1".equals(System.getenv("FLOWSQL_INSTALL_TOOLS")));
        if (!withMariaDb) {
            System.out.println("no mariadbd here (apt-get install mariadb-server, or FLOWSQL_INSTALL_TOOLS=1): no MariaDB column");
        }
        List<DatabaseEngine> servers = withMariaDb
                ? List.of(DatabaseEngine.POSTGRESQL, DatabaseEngine.DUCKDB, DatabaseEngine.MARIADB)
                : List.of(DatabaseEngine.POSTGRESQL, DatabaseEngine.DUCKDB);
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setPGStartupWait(java.time.Duration.ofSeconds(120)).start();
                LocalMariaDb maria = withMariaDb ? LocalMariaDb.start(work.resolve("mariadb")) : null) {
            load(pg, dbs, locator, work);
            if (maria != null) {
                loadMariaDb(maria, dbs, locator);
            }
            Map<DatabaseEngine, List<DatabaseDeclaration>> byEngine = new java.util.EnumMap<>(DatabaseEngine.class);
            List<DatabaseDeclaration> declared = new ArrayList<>();
            for (DatabaseEngine engine : servers) {
                byEngine.put(engine, new ArrayList<>());
                for (String db : dbs) {
                    byEngine.get(engine).add(declaration(engine, db, db, pg.getPort(), work, maria));
                    declared.add(declaration(engine, PREFIX.get(engine) + db, db, pg.getPort(), work, maria));
                }
            }
            DatabaseRegistry registry = new DatabaseRegistry(locator, declared);
            SqlExecutorConfig config = SqlExecutorConfig.defaults().withTimeoutMillis(10_000);
            ResultComparator same = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);
            Map<DatabaseEngine, Set<Integer>> goldSame = new java.util.EnumMap<>(DatabaseEngine.class);
            DialectAlignment dialect = new DialectAlignment(id -> PREFIX.entrySet().stream()
                    .filter(e -> id.startsWith(e.getValue())).map(Map.Entry::getKey).findFirst().orElse(DatabaseEngine.SQLITE));
            try (SqliteSafeExecutor sqlite = new SqliteSafeExecutor(locator, config);
                    JdbcSafeExecutor jdbc = new JdbcSafeExecutor(registry, config, new JdbcPools(new Credentials(Map.of()), 30_000))) {
                io.flowsql.sql.catalog.SqliteSchemaCatalog catalog = new io.flowsql.sql.catalog.SqliteSchemaCatalog(locator);
                System.out.printf("%nDialect gap: %d Spider dev gold queries (of %d databases), run unchanged%n", items.size(), dbs.size());
                for (DatabaseEngine engine : servers) {
                    String prefix = PREFIX.get(engine);
                    Map<String, Integer> why = new TreeMap<>();
                    Set<Integer> sameIdx = new java.util.HashSet<>();
                    int goldOk = 0;
                    int strict = 0;
                    int aligned = 0;
                    for (int i = 0; i < items.size(); i++) {
                        String[] item = items.get(i);
                        ExecutionResult gold = sqlite.execute(item[0], item[1]);
                        if (!gold.ok()) {
                            continue;
                        }
                        goldOk++;
                        ExecutionResult r = jdbc.execute(prefix + item[0], item[1]);
                        if (r.ok() && same.equal(gold, item[1], r)) {
                            strict++;
                        }
                        if (r.ok() && same.equalAcrossEngines(gold, item[1], r)) {
                            sameIdx.add(i);
                            continue;
                        }
                        why.merge(category(item[1], r), 1, Integer::sum);
                        String alignedSql = dialect.apply(item[1], withId(catalog.schema(item[0]), prefix + item[0])).orElse(null);
                        if (alignedSql != null) {
                            ExecutionResult a = jdbc.execute(prefix + item[0], alignedSql);
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
            Set<Integer> onBoth = new java.util.HashSet<>(goldSame.get(DatabaseEngine.POSTGRESQL));
            onBoth.retainAll(goldSame.get(DatabaseEngine.DUCKDB));
            System.out.printf("%nEX of the simulated pipeline (preset %s, simulator answering from the gold SQL with %.0f%% "
                    + "injected mistakes, seed 7): %d questions; 'gold on both' = the %d whose gold gives SQLite's result "
                    + "on PostgreSQL and DuckDB%n", preset, 100 * errorRate, exItems.size(),
                    (int) java.util.stream.IntStream.range(0, exItems.size()).filter(onBoth::contains).count());
            List<DatabaseEngine> exEngines = new ArrayList<>(List.of(DatabaseEngine.SQLITE));
            exEngines.addAll(servers);
            for (DatabaseEngine engine : exEngines) {
                ex(engine, byEngine.getOrDefault(engine, List.of()), exItems, onBoth, locator, shared, preset, errorRate,
                        config, same);
            }
        }
    }

    /** The prefix of each server engine's copy of a Spider id ({@code pg_concert_singer}). */
    private static final Map<DatabaseEngine, String> PREFIX = Map.of(DatabaseEngine.POSTGRESQL, "pg_", DatabaseEngine.DUCKDB,
            "duck_", DatabaseEngine.MARIADB, "maria_");

    /** Loads every database into MariaDB (one database each), readable by its least-privilege reader. */
    private static void loadMariaDb(LocalMariaDb maria, Set<String> dbs, DatabaseLocator locator) throws Exception {
        long loadStart = System.nanoTime();
        try (Connection admin = maria.admin(); java.sql.Statement s = admin.createStatement()) {
            for (String db : dbs) {
                new SqliteToServerLoader(DatabaseEngine.MARIADB).load(db, locator.sqliteFile(db).orElseThrow(), admin, db);
                maria.grant(s, db);
            }
        }
        System.out.printf("loaded %d Spider dev databases into MariaDB in %.1f s%n", dbs.size(), (System.nanoTime() - loadStart) / 1e9);
    }

    /** Database {@code db} as loaded by {@link #load} or {@link #loadMariaDb}, declared under {@code id}. */
    private static DatabaseDeclaration declaration(DatabaseEngine engine, String id, String db, int pgPort, Path work,
            LocalMariaDb maria) {
        return DECLARED.get(engine).declare(id, db, pgPort, work, maria);
    }

    /** How the copy of one Spider database on a server engine is declared (its URL, reader and schemas). */
    @FunctionalInterface
    private interface Declarer {
        DatabaseDeclaration declare(String id, String db, int pgPort, Path work, LocalMariaDb maria);
    }

    private static final Map<DatabaseEngine, Declarer> DECLARED = Map.of(
            DatabaseEngine.POSTGRESQL, (id, db, pgPort, work, maria) -> new DatabaseDeclaration(id, DatabaseEngine.POSTGRESQL,
                    "jdbc:postgresql://localhost:" + pgPort + "/postgres", "postgres", "", "", List.of(db), List.of(), 4, 0, 0,
                    0, 0, ValueSampling.defaults()),
            DatabaseEngine.DUCKDB, (id, db, pgPort, work, maria) -> new DatabaseDeclaration(id, DatabaseEngine.DUCKDB,
                    "jdbc:duckdb:" + work.resolve(db + ".duckdb"), "", "", "", List.of(), List.of(), 4, 0, 0, 0, 0,
                    ValueSampling.defaults()),
            DatabaseEngine.MARIADB, (id, db, pgPort, work, maria) -> {
                Map<String, String> o = maria.options(db);
                return new DatabaseDeclaration(id, DatabaseEngine.MARIADB, o.get("databases." + db + ".url"),
                        LocalMariaDb.READER, "", o.get("databases." + db + ".password-file"), List.of(db), List.of(), 4, 0,
                        0, 0, 0, ValueSampling.defaults());
            });

    /** Loads every database into PostgreSQL (one schema each) and a DuckDB file each. */
    private static void load(EmbeddedPostgres pg, Set<String> dbs, DatabaseLocator locator, Path work) throws Exception {
        long loadStart = System.nanoTime();
        try (Connection admin = pg.getPostgresDatabase().getConnection()) {
            for (String db : dbs) {
                Path file = locator.sqliteFile(db).orElseThrow();
                new SqliteToServerLoader(DatabaseEngine.POSTGRESQL).load(db, file, admin, db);
                Path duck = work.resolve(db + ".duckdb");
                Files.deleteIfExists(duck);
                try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + duck)) {
                    new SqliteToServerLoader(DatabaseEngine.DUCKDB).load(db, file, c, null);
                }
            }
        }
        System.out.printf("loaded %d Spider dev databases into PostgreSQL and DuckDB in %.1f s%n", dbs.size(),
                (System.nanoTime() - loadStart) / 1e9);
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
                    ExecutionResult gold = sqlite.execute(item[0], item[1]);
                    ExecutionResult predicted = lease.engine().sql().execute(item[0], ctx.finalSql);
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
