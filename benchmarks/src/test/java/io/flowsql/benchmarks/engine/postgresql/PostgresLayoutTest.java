package io.flowsql.benchmarks.engine.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.access.DataDoor;
import io.flowsql.access.DataDoors;
import io.flowsql.benchmarks.eval.SharedData;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.server.DatabaseParts;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code pets_1} and {@code concert_singer} loaded into one real (embedded) PostgreSQL under each {@link Isolation}
 * layout: what {@code pets_1}'s login role, taken from the job options the layout wrote, can reach with real SQL, and
 * that the job's executor built from those options still answers on {@code pets_1}. (Under the shared layout the same
 * statements read {@code concert_singer}'s rows; the branches below say so, run that case by hand to see it; it is left
 * out to keep the test short, one server start per layout.)
 */
class PostgresLayoutTest {
    private static final List<String> DBS = List.of("pets_1", "concert_singer");
    private static final String FOREIGN = "SELECT count(*) FROM concert_singer.singer";

    @ParameterizedTest
    @EnumSource(value = Isolation.class, names = {"ROLE", "DATABASE"})  // SHARED: TargetScoreTest loads it
    void aDatabasesRoleReadsItsOwnTablesAndTheServerRefusesTheOthers(Isolation isolation, @TempDir Path work)
            throws Exception {
        Path spider = SharedData.root().resolve("spider/database");
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setPGStartupWait(Duration.ofSeconds(120))
                .setDataDirectory(work.resolve("data")).setCleanDataDirectory(true).start()) {
            Map<String, String> options = PostgresLayout.load(pg, DBS,
                    db -> spider.resolve(db).resolve(db + ".sqlite"), work, isolation);
            long pets = adminCount(pg, isolation, "pets_1", "SELECT count(*) FROM pets_1.pets");
            assertThat(pets).isPositive();

            try (Connection c = login(options, "pets_1", options.get("databases.pets_1.url")); Statement s = c.createStatement()) {
                assertThat(count(s, "SELECT count(*) FROM pets_1.pets")).isEqualTo(pets);
                assertThat(count(s, "SELECT count(*) FROM pg_catalog.pg_class WHERE relname = 'singer'"))
                        .as("the catalog names the other database's tables unless it is a database of its own")
                        .isEqualTo(isolation == Isolation.DATABASE ? 0 : 1);
                if (isolation == Isolation.SHARED) {
                    assertThat(count(s, FOREIGN)).as("one role reads every loaded database").isEqualTo(6);
                } else {
                    assertThatThrownBy(() -> count(s, FOREIGN)).isInstanceOf(SQLException.class)
                            .hasMessageContaining(isolation == Isolation.ROLE ? "permission denied for schema"
                                    : "does not exist");
                }
                if (isolation != Isolation.SHARED) {
                    assertThatThrownBy(() -> s.execute("CREATE TEMP TABLE t (a int)")).hasMessageContaining("permission denied");
                }
            }
            if (isolation == Isolation.DATABASE) {
                for (String other : List.of(options.get("databases.concert_singer.url"), "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres")) {
                    assertThatThrownBy(() -> login(options, "pets_1", other).close()).isInstanceOf(SQLException.class)
                            .hasMessageContaining("permission denied for database");
                }
            }

            try (SafeExecutor executor = jobExecutor(options)) {
                DataDoor door = DataDoors.open(executor, null).operator("pets_1");
                ExecutionResult own = door.execute("SELECT count(*) FROM pets");
                assertThat(own.error()).isNull();
                assertThat(((Number) own.rows().get(0).get(0)).longValue()).isEqualTo(pets);
                ExecutionResult foreign = door.execute(FOREIGN);
                if (isolation == Isolation.SHARED) {
                    assertThat(foreign.error()).isNull();
                } else {
                    assertThat(foreign.error()).isNotNull();
                    assertThat(foreign.error().kind()).isIn(SqlError.Kind.REFUSED, SqlError.Kind.INVALID_SQL);
                    assertThat(foreign.rows()).isEmpty();
                }
                assertThat(executor.execute("concert_singer", "SELECT count(*) FROM singer")
                        .error()).as("concert_singer through its own role").isNull();
            }
        }
    }

    /** The executor the job builds from the {@code databases.*} options. */
    private static SafeExecutor jobExecutor(Map<String, String> options) {
        Map<String, String> settings = new TreeMap<>();
        options.forEach((key, value) -> settings.put(key.substring("databases.".length()), value));
        DatabaseRegistry registry = DatabaseRegistry.fromSettings(new DatabaseLocator(List.of(), List.of()), settings);
        return DatabaseParts.executor(registry, SqlExecutorConfig.defaults().withTimeoutMillis(10_000));
    }

    private static Connection login(Map<String, String> options, String db, String url) throws Exception {
        String password = Files.readString(Path.of(options.get("databases." + db + ".password-file"))).strip();
        return DriverManager.getConnection(url, options.get("databases." + db + ".user"), password);
    }

    private static long adminCount(EmbeddedPostgres pg, Isolation isolation, String db, String sql) throws SQLException {
        String database = isolation == Isolation.DATABASE ? db : "postgres";
        try (Connection c = pg.getDatabase("postgres", database).getConnection(); Statement s = c.createStatement()) {
            return count(s, sql);
        }
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }
}
