package io.flowsql.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.registry.DatabaseRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's editor runs SQL on the job's declared databases too, under the same guard: a real DuckDB file here. */
class SqlRunnerTest {
    @Test
    void sqlTypedInTheConsoleRunsOnADeclaredDuckDbDatabaseReadOnly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sales.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, region VARCHAR, amount DOUBLE)");
            s.execute("INSERT INTO orders VALUES (1, 'north', 10.5), (2, 'south', 4.0), (3, 'north', 1.5)");
        }
        Files.createDirectories(dir.resolve("sqlite"));
        DatabaseRegistry registry = DatabaseRegistry.fromSettings(new DatabaseLocator(List.of(dir.resolve("sqlite")), List.of()),
                Map.of("sales.url", "jdbc:duckdb:" + file));
        try (SqlRunner runner = new SqlRunner(registry, SqlExecutorConfig.defaults(), io.flowsql.access.AccessPolicies.allowAll())) {
            ObjectNode ok = runner.run("sales", null, "SELECT region, sum(amount) AS total FROM orders GROUP BY region ORDER BY region");
            assertThat(ok.has("error")).as(ok.toString()).isFalse();
            assertThat(ok.get("row_count").asInt()).isEqualTo(2);
            assertThat(ok.get("rows").get(0).get(0).asText()).isEqualTo("north");
            assertThat(ok.get("rows").get(0).get(1).asDouble()).isEqualTo(12.0);

            ObjectNode refused = runner.run("sales", null, "DELETE FROM orders");
            assertThat(refused.has("error")).as(refused.toString()).isTrue();
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT count(*) FROM orders")) {
            rs.next();
            assertThat(rs.getInt(1)).as("rows after the refused DELETE").isEqualTo(3);
        }
    }
}
