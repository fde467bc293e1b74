package io.flowsql.benchmarks.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code warehouse-retrieval --ddl --questions} on a warehouse this test writes: two sales schemas whose tables have the
 * same names (orders, customers), told apart only by their comments, one column each and their values, beside an HR
 * schema; the DDL runs on embedded PostgreSQL and the questions are asked of the whole warehouse at a budget that
 * holds about one schema, so retrieval must route each question to its own schema's copy of the tables.
 */
class UserWarehouseTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String DDL = """
            CREATE SCHEMA sales_eu;
            CREATE SCHEMA sales_us;
            CREATE SCHEMA hr;
            CREATE TABLE sales_eu.customers (customer_id INT PRIMARY KEY, full_name TEXT, city TEXT);
            CREATE TABLE sales_eu.orders (order_id INT PRIMARY KEY, customer_id INT REFERENCES sales_eu.customers,
                amount NUMERIC, vat_rate NUMERIC, placed DATE);
            COMMENT ON TABLE sales_eu.orders IS 'Orders placed in the European web shops, amounts in euro';
            COMMENT ON COLUMN sales_eu.orders.vat_rate IS 'value added tax rate charged on the order';
            CREATE TABLE sales_us.customers (customer_id INT PRIMARY KEY, full_name TEXT, city TEXT);
            CREATE TABLE sales_us.orders (order_id INT PRIMARY KEY, customer_id INT REFERENCES sales_us.customers,
                amount NUMERIC, state_tax NUMERIC, placed DATE);
            COMMENT ON TABLE sales_us.orders IS 'Orders placed in the American stores, amounts in dollars';
            COMMENT ON COLUMN sales_us.orders.state_tax IS 'sales tax of the state the store is in';
            CREATE TABLE hr.departments (department_id INT PRIMARY KEY, title TEXT, budget NUMERIC);
            CREATE TABLE hr.employees (employee_id INT PRIMARY KEY, department_id INT REFERENCES hr.departments,
                full_name TEXT, salary NUMERIC, hired DATE);
            COMMENT ON COLUMN hr.employees.salary IS 'yearly gross salary';
            INSERT INTO sales_eu.customers VALUES (1, 'Amélie Durand', 'Lyon'), (2, 'Jan de Vries', 'Rotterdam');
            INSERT INTO sales_us.customers VALUES (1, 'Ann Miller', 'Denver'), (2, 'Bob Stone', 'Tucson');
            INSERT INTO hr.departments VALUES (1, 'Logistics', 100000);
            """;

    private static final String QUESTIONS = """
            [
              {"question": "What is the total amount of orders with a VAT rate above 20 percent?",
               "sql": "SELECT SUM(amount) FROM orders WHERE vat_rate > 0.2", "schema": "sales_eu"},
              {"question": "How many orders did customers living in Denver place?",
               "sql": "SELECT COUNT(*) FROM orders AS T1 JOIN customers AS T2 ON T1.customer_id = T2.customer_id WHERE T2.city = 'Denver'",
               "schema": "sales_us"},
              {"question": "Which orders in dollars paid the highest state sales tax?",
               "sql": "SELECT order_id FROM orders ORDER BY state_tax DESC LIMIT 1", "schema": "sales_us"},
              {"question": "List the customers of the euro shops in Rotterdam",
               "sql": "SELECT full_name FROM customers WHERE city = 'Rotterdam'", "schema": "sales_eu"},
              {"question": "What is the average salary of each department?", "evidence": "department refers to title",
               "sql": "SELECT T2.title, AVG(T1.salary) FROM employees AS T1 JOIN departments AS T2 ON T1.department_id = T2.department_id GROUP BY T2.title"}
            ]
            """;

    @Test
    void eachQuestionIsRoutedToItsOwnSchemaAmongCollidingTableNames(@TempDir Path dir) throws Exception {
        Path ddl = Files.writeString(dir.resolve("warehouse.sql"), DDL);
        Path questions = Files.writeString(dir.resolve("questions.json"), QUESTIONS);

        RetrievalMeasure.Figures f = UserWarehouse.run(ddl, questions, 160, dir.resolve("work"));

        assertThat(f.questions()).isEqualTo(5);
        assertThat(f.routingTop1()).as("routing top-1").isEqualTo(1.0);
        assertThat(f.tableRecall()).isEqualTo(1.0);
        assertThat(f.columnRecall()).isEqualTo(1.0);
        assertThat(f.tokensMedian()).isLessThanOrEqualTo(160).isPositive();
        assertThat(f.summaryLine()).matches("summary: questions=5 table_recall=1\\.000 column_recall=1\\.000 routing_top1=1\\.000 "
                + "tokens_median=\\d+ cpu_p50_ms=[0-9.]+ cpu_p95_ms=[0-9.]+");
    }

    @Test
    void aQuestionWithoutASchemaBelongsToTheSchemaHoldingItsGoldTables(@TempDir Path dir) throws Exception {
        // (on PostgreSQL the first declared schema is the default one, its tables unqualified: hr here, namespace "")
        Path questions = Files.writeString(dir.resolve("questions.json"), QUESTIONS);
        var byNamespace = RetrievalMeasure.namespaces(new io.flowsql.sql.DatabaseSchema("w", java.util.List.of(
                table("sales_eu.orders", "order_id"), table("sales_us.orders", "order_id"), table("hr.employees", "employee_id"),
                table("hr.departments", "title")),
                java.util.List.of()));
        assertThat(UserWarehouse.questions(questions, byNamespace, "public").get(4).schema()).isEqualTo("hr");
    }

    /**
     * {@code --database ID --config FILE}: the warehouse is a running PostgreSQL declared in a job options file, read live
     * as the job reads it. The declaration lists only the sales schemas (and the empty default one), so the HR question
     * is refused: the measurement sees what the job would see, not the whole server.
     */
    @Test
    void aDeclaredDatabaseIsMeasuredLiveAsTheJobOptionsDeclareIt(@TempDir Path dir) throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("pgdata")).setCleanDataDirectory(true)
                .setPGStartupWait(Duration.ofSeconds(120)).start()) {
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                s.execute(DDL);
            }
            Path options = Files.writeString(dir.resolve("job.properties"), String.join("\n",
                    "databases.dw.url=jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres",
                    "databases.dw.user=postgres",
                    "databases.dw.schemas=public,sales_eu,sales_us", ""));
            ArrayNode salesOnly = (ArrayNode) JSON.readTree(QUESTIONS);
            salesOnly.remove(4);  // the HR question
            Path sales = Files.writeString(dir.resolve("sales.json"), JSON.writeValueAsString(salesOnly));

            RetrievalMeasure.Figures f = UserWarehouse.declared(options, "dw", sales, 160);

            assertThat(f.questions()).isEqualTo(4);
            assertThat(f.routingTop1()).as("routing top-1").isEqualTo(1.0);
            assertThat(f.tableRecall()).isEqualTo(1.0);
            assertThat(f.columnRecall()).isEqualTo(1.0);
            assertThat(f.tokensMedian()).isLessThanOrEqualTo(160).isPositive();

            Path withHr = Files.writeString(dir.resolve("all.json"), QUESTIONS);
            assertThatThrownBy(() -> UserWarehouse.declared(options, "dw", withHr, 160))
                    .hasMessageContaining("entry 4: none of its SQL's tables is in the warehouse");
            assertThatThrownBy(() -> UserWarehouse.declared(options, "warehouse", sales, 160))
                    .hasMessageContaining("declares no database warehouse (declared: [dw]");
        }
    }

    private static io.flowsql.sql.TableSchema table(String name, String column) {
        return new io.flowsql.sql.TableSchema(name, "", java.util.List.of(new io.flowsql.sql.ColumnSchema(name, column, "TEXT", "",
                true, false, java.util.List.of())), java.util.List.of());
    }
}
