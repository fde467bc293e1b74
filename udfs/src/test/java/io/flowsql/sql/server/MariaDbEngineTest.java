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
        server = MariaDbServer.start(List.of("concert_singer", "network_2"));
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

    /**
     * The value index's 3–100 length bound counts characters on MariaDB too (its {@code length} counts bytes): a
     * two-letter value of two-byte letters stays out, a 60-letter Cyrillic value (120 bytes) and a short accented one
     * stay in. With {@code length(v)} the first came in and the second stayed out.
     */
    @Test
    void samplesValuesByCharactersNotBytes() throws Exception {
        String cyrillic = "Ж".repeat(60);
        try (java.sql.Connection admin = server.admin(); java.sql.Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE texts CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
            s.execute("CREATE TABLE texts.words (w TEXT)");
            try (java.sql.PreparedStatement p = admin.prepareStatement("INSERT INTO texts.words VALUES (?)")) {
                for (String w : List.of("éé", "ab", "Zürich", cyrillic)) {
                    p.setString(1, w);
                    p.addBatch();
                }
                p.executeBatch();
            }
        }
        io.flowsql.sql.registry.DatabaseDeclaration d = server.declaration("maria_texts", "texts", 1);
        io.flowsql.sql.DatabaseSchema schema = new io.flowsql.sql.DatabaseSchema("maria_texts", List.of(
                new io.flowsql.sql.TableSchema("words", "", List.of(new io.flowsql.sql.ColumnSchema("words", "w", "TEXT", "",
                        true, false, List.of())), List.of())), List.of());
        try (java.sql.Connection c = server.admin()) {
            c.setCatalog("texts");
            List<String> values = List.of(io.flowsql.sql.index.JdbcTextValues.sample(d, schema, c, 3, 100).values().values());
            assertThat(values).containsExactlyInAnyOrder("Zürich", cyrillic);
        }
    }

    /**
     * A Spider database keeps its foreign keys on text columns on MariaDB: network_2's PersonFriend.name and .friend
     * reference Person.name (varchar). MariaDB cannot index a whole LONGTEXT, so the loader gives a text key column the
     * key type; before, these keys were left out (0 loaded).
     */
    @Test
    void keepsForeignKeysOnTextColumns() throws Exception {
        assertThat(server.loads).filteredOn(l -> l.dbId().equals("network_2")).singleElement()
                .satisfies(l -> assertThat(l.foreignKeys()).isEqualTo(2));
        List<String> keys = new java.util.ArrayList<>();
        try (java.sql.Connection admin = server.admin(); java.sql.Statement s = admin.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT table_name, column_name, referenced_table_name, referenced_column_name"
                        + " FROM information_schema.key_column_usage WHERE table_schema = 'network_2'"
                        + " AND referenced_table_name IS NOT NULL ORDER BY column_name")) {
            while (rs.next()) {
                keys.add(rs.getString(1) + "." + rs.getString(2) + " -> " + rs.getString(3) + "." + rs.getString(4));
            }
        }
        assertThat(keys).containsExactly("personfriend.friend -> person.name", "personfriend.name -> person.name");
    }

    /** MariaDB's SQLStates for a missing column and a missing table reach the error and are read before its wording. */
    @Test
    void readsTheSqlStateFirst() {
        EngineErrorWordingTest.readsTheSqlStateFirst(sql, "maria_cs", DatabaseEngine.MARIADB, Map.of(
                "SELECT Nme FROM singer", "42S22",
                "SELECT Name FROM singers", "42S02"));
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
