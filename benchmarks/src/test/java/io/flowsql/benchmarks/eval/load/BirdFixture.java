package io.flowsql.benchmarks.eval.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Builds a tiny BIRD dev release in the official layout under target/ (no BIRD databases exist on these
 * machines): dev.json, dev_tables.json, dev_databases/toy_shop/toy_shop.sqlite and its description CSV.
 */
public final class BirdFixture {
    public static final String DB = "toy_shop";

    private BirdFixture() {}

    public static Path create(Path folder) throws IOException, SQLException {
        Path dbFolder = folder.resolve("dev_databases").resolve(DB);
        Files.createDirectories(dbFolder.resolve("database_description"));
        Path sqlite = dbFolder.resolve(DB + ".sqlite");
        Files.deleteIfExists(sqlite);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, amount REAL, status TEXT)");
            s.execute("INSERT INTO orders VALUES (1,'Ann',10.5,'paid'),(2,'Bob',20.0,'open'),(3,'Ann',7.25,'paid'),"
                    + "(4,'Cy',NULL,'open'),(5,'Bob',20.0,'paid')");
        }
        Files.writeString(dbFolder.resolve("database_description").resolve("orders.csv"),
                "original_column_name,column_name,column_description,data_format,value_description\n"
                        + "id,order id,unique id of the order,integer,\n"
                        + "customer,customer,\"name of the customer, as given\",text,\n"
                        + "amount,amount,order total in EUR,real,NULL when not priced yet\n"
                        + "status,status,payment state,text,\"'paid' or 'open'\"\n");
        Files.writeString(folder.resolve("dev.json"), """
                [
                  {"question_id": 0, "db_id": "toy_shop", "question": "How much did Ann pay in total?",
                   "evidence": "paid refers to status = 'paid'",
                   "SQL": "SELECT SUM(amount) FROM orders WHERE customer = 'Ann' AND status = 'paid'", "difficulty": "simple"},
                  {"question_id": 1, "db_id": "toy_shop", "question": "Which customers have an open order?",
                   "evidence": "", "SQL": "SELECT DISTINCT customer FROM orders WHERE status = 'open' ORDER BY customer",
                   "difficulty": "moderate"},
                  {"question_id": 2, "db_id": "absent_db", "question": "How many rows?",
                   "evidence": "", "SQL": "SELECT count(*) FROM t", "difficulty": "challenging"}
                ]
                """);
        Files.writeString(folder.resolve("dev_tables.json"), """
                [{"db_id": "toy_shop", "table_names_original": ["orders"], "table_names": ["orders"],
                  "column_names_original": [[-1, "*"], [0, "id"], [0, "customer"], [0, "amount"], [0, "status"]],
                  "column_names": [[-1, "*"], [0, "order id"], [0, "customer"], [0, "amount"], [0, "status"]],
                  "column_types": ["text", "integer", "text", "real", "text"], "primary_keys": [1], "foreign_keys": []}]
                """);
        return folder;
    }
}
