package io.flowsql.benchmarks.db;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.sql.DatabaseEngine;
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
import java.nio.file.Files;
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
 * The dialect gap: how many Spider dev gold queries run unchanged on PostgreSQL and on DuckDB (each Spider database
 * loaded by {@link SqliteToServerLoader}) and return the same result as on SQLite, and why the rest differ, by category.
 * <pre>DialectGapBenchmark shared_data work_dir [max_questions]</pre>
 */
public final class DialectGapBenchmark {

    private DialectGapBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path shared = Path.of(args.length > 0 ? args[0] : "../shared/data");
        Path work = Path.of(args.length > 1 ? args[1] : "target/dialect-gap").toAbsolutePath();
        int max = args.length > 2 ? Integer.parseInt(args[2]) : Integer.MAX_VALUE;
        Files.createDirectories(work);
        JsonNode dev = new ObjectMapper().readTree(shared.resolve("spider/dev.json").toFile());
        List<String[]> items = new ArrayList<>();
        Set<String> dbs = new LinkedHashSet<>();
        for (JsonNode item : dev) {
            if (items.size() >= max) {
                break;
            }
            items.add(new String[] {item.path("db_id").asText(), item.path("query").asText()});
            dbs.add(item.path("db_id").asText());
        }
        DatabaseLocator locator = DatabaseLocator.forSharedData(shared);
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setPGStartupWait(java.time.Duration.ofSeconds(120)).start()) {
            List<DatabaseDeclaration> declared = new ArrayList<>();
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
                    declared.add(new DatabaseDeclaration("pg_" + db, DatabaseEngine.POSTGRESQL,
                            "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres", "postgres", "", "", List.of(db),
                            List.of(), 2, 0, 0, 0, 0, ValueSampling.defaults()));
                    declared.add(new DatabaseDeclaration("duck_" + db, DatabaseEngine.DUCKDB, "jdbc:duckdb:" + duck, "", "", "",
                            List.of(), List.of(), 2, 0, 0, 0, 0, ValueSampling.defaults()));
                }
            }
            System.out.printf("loaded %d Spider dev databases into PostgreSQL and DuckDB in %.1f s%n", dbs.size(),
                    (System.nanoTime() - loadStart) / 1e9);
            DatabaseRegistry registry = new DatabaseRegistry(locator, declared);
            SqlExecutorConfig config = SqlExecutorConfig.defaults().withTimeoutMillis(10_000);
            ResultComparator same = new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE);
            try (SqliteSafeExecutor sqlite = new SqliteSafeExecutor(locator, config);
                    JdbcSafeExecutor jdbc = new JdbcSafeExecutor(registry, config, new JdbcPools(new Credentials(Map.of()), 30_000))) {
                for (String engine : List.of("pg", "duck")) {
                    Map<String, Integer> why = new TreeMap<>();
                    int goldOk = 0;
                    int sameResult = 0;
                    for (String[] item : items) {
                        ExecutionResult gold = sqlite.execute(item[0], item[1]);
                        if (!gold.ok()) {
                            continue;
                        }
                        goldOk++;
                        ExecutionResult r = jdbc.execute(engine + "_" + item[0], item[1]);
                        if (r.ok() && same.equal(gold, item[1], r)) {
                            sameResult++;
                        } else {
                            why.merge(category(item[1], r), 1, Integer::sum);
                        }
                    }
                    System.out.printf("%s: %d of %d gold queries (that run on SQLite) give the same result unchanged (%.1f%%)%n",
                            engine.equals("pg") ? "PostgreSQL" : "DuckDB", sameResult, goldOk, 100.0 * sameResult / goldOk);
                    why.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue())
                            .forEach(e -> System.out.printf("    %4d  %s%n", e.getValue(), e.getKey()));
                }
            }
        }
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
