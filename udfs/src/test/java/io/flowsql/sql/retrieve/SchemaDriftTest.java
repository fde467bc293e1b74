package io.flowsql.sql.retrieve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.catalog.ValueExamplePolicy;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.render.SchemaRenderer;
import io.flowsql.sql.render.TokenCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tables added or dropped while the job runs: retrieval sees them after the catalog's refresh, with no restart. */
class SchemaDriftTest {
    private static final String DB = "drift";

    @TempDir
    Path root;

    @Test
    void aTableAddedThenDroppedEntersAndLeavesRetrievalAfterARefresh() throws Exception {
        write("CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, customer_name TEXT, city TEXT)");
        DatabaseLocator locator = new DatabaseLocator(List.of(root), List.of());
        SqliteSchemaCatalog catalog = new SqliteSchemaCatalog(locator, ValueExamplePolicy.defaults(), 8, Duration.ZERO);
        SqliteSafeExecutor sql = new SqliteSafeExecutor(locator, SqlExecutorConfig.defaults());
        RetrievalQuery question = RetrievalQuery.of("How many invoices have an amount over 100?", null, List.of());
        assertEquals(List.of("customer"), tables(catalog));

        write("CREATE TABLE invoice (invoice_id INTEGER PRIMARY KEY, customer_id INTEGER, amount REAL)");
        assertEquals(List.of("customer"), tables(catalog), "the cached schema stays until it is refreshed");
        catalog.refresh(DB);
        assertEquals(List.of("customer", "invoice"), tables(catalog));
        SchemaRenderer renderer = new SchemaRenderer(new TokenCounter(), null);
        int oneTable = catalog.schema(DB).tables().stream()
                .mapToInt(t -> renderer.full(SchemaSubset.named(catalog.schema(DB), List.of(t.name()))).tokens()).max().orElseThrow();
        SchemaRetriever retriever = SchemaRetriever.lexical(oneTable + 2);  // room for one table: retrieval must choose
        RetrievedSchema retrieved = retriever.retrieve(catalog.schema(DB), question);
        assertTrue(retrieved.cut());
        assertEquals(List.of("invoice"), retrieved.tableNames());

        write("DROP TABLE invoice");
        catalog.refresh(DB);
        assertEquals(List.of("customer"), tables(catalog));
        assertFalse(retriever.retrieve(catalog.schema(DB), question).tableNames().contains("invoice"));
        ExecutionResult stale = sql.execute(DB, "SELECT count(*) FROM invoice WHERE amount > 100");
        assertFalse(stale.ok());
        assertEquals(SqlError.Kind.INVALID_SQL, stale.error().kind());
        assertTrue(stale.error().message().contains("no such table: invoice"), stale.error().message());
    }

    @Test
    void aScheduledRefreshPicksUpANewTableWithoutBeingAsked() throws Exception {
        write("CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, customer_name TEXT)");
        SqliteSchemaCatalog catalog = new SqliteSchemaCatalog(new DatabaseLocator(List.of(root), List.of()),
                ValueExamplePolicy.defaults(), 8, Duration.ofMillis(1));
        assertEquals(List.of("customer"), tables(catalog));
        write("CREATE TABLE invoice (invoice_id INTEGER PRIMARY KEY, amount REAL)");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<String> seen = tables(catalog);
        while (seen.size() < 2 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            seen = tables(catalog);  // a read past the refresh age starts the reload; a later read sees it
        }
        assertEquals(List.of("customer", "invoice"), seen);
    }

    private List<String> tables(SqliteSchemaCatalog catalog) {
        return catalog.schema(DB).tables().stream().map(TableSchema::name).toList();
    }

    private void write(String ddl) throws SQLException, java.io.IOException {
        Path file = root.resolve(DB).resolve(DB + ".sqlite");
        Files.createDirectories(file.getParent());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute(ddl);
        }
    }
}
