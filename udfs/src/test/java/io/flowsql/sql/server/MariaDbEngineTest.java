package io.flowsql.sql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.ValueMatch;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.engine.StatementFault;
import io.flowsql.sql.exec.JdbcSafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.registry.Credentials;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.registry.JdbcPools;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Smoke: a Spider database loaded into a real mariadbd answers through the job's executor as the reader, and its errors read as their faults. */
class MariaDbEngineTest {
    static MariaDbServer server;
    static JdbcSafeExecutor sql;

    @BeforeAll
    static void start() throws Exception {
        server = MariaDbServer.start(List.of("concert_singer"));
        DatabaseRegistry registry = new DatabaseRegistry(SpiderData.locator(),
                List.of(server.declaration("maria_cs", "concert_singer", 2)));
        sql = new JdbcSafeExecutor(registry, SqlExecutorConfig.defaults(), new JdbcPools(new Credentials(Map.of()), 5_000));
    }

    @AfterAll
    static void stop() {
        if (sql != null) {
            sql.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void answers() {
        System.out.println(server.loads);
        ExecutionResult r = sql.execute("maria_cs", "SELECT count(*) FROM singer", sql.newBudget());
        System.out.println(r.ok() ? r.rows() : r.error());
        assertThat(r.error()).isNull();
        assertThat(r.rows().toString()).isEqualTo("[[6]]");
        ExecutionResult again = sql.execute("maria_cs", "SELECT name FROM singer WHERE country = \"France\" ORDER BY name", sql.newBudget());
        System.out.println(again.ok() ? again.rows() : again.error());
        assertThat(again.error()).isNull();
    }

    /**
     * The value index samples a MariaDB database's text columns with MariaDB's quoting (found running
     * deploy/quickstart-mariadb.sh: with {@code "name"} quoting every column failed and the index was empty).
     */
    @Test
    void indexesTheDatabasesTextValues() throws Exception {
        DatabaseRegistry registry = new DatabaseRegistry(SpiderData.locator(),
                List.of(server.declaration("maria_cs", "concert_singer", 2)));
        DatabaseParts parts = DatabaseParts.build(registry, SqlExecutorConfig.defaults(), 2);
        try (AutoCloseable executor = parts.sql()) {
            List<ValueMatch> found = parts.values().forDatabase("maria_cs").find("singers from France", 5);
            assertThat(found).as("matches of 'France'").anySatisfy(m -> {
                assertThat(m.value()).isEqualTo("France");
                assertThat(m.table()).isEqualToIgnoringCase("singer");
            });
        }
    }

    /** MariaDB's own error messages read by its profile ({@link EngineErrorWordingTest} has the other engines). */
    @Test
    void readsItsOwnErrorWording() {
        EngineErrorWordingTest.readsItsOwnWording(sql, "maria_cs", DatabaseEngine.MARIADB, EngineErrorWordingTest.cases(
                "SELECT T3.Name FROM singer AS T1", StatementFault.UNKNOWN_COLUMN,
                // the reader may run no stored routine: a function MariaDB lacks reads as one it may not execute
                "SELECT julianday(Name) FROM singer", StatementFault.FORM,
                "SELECT abs(Name, Age) FROM singer", StatementFault.FORM));
    }
}
