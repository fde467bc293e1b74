package io.flowsql.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * A folder of data files for DuckDB's views-over-a-folder mode: {@code customers.csv} (written as text) and
 * {@code orders.parquet} (written by DuckDB itself), with questions about them, their gold SQL in Spider's format for
 * the simulator's oracle, and the rows each must be answered with.
 */
final class FolderOfFiles {
    static final List<String> QUESTIONS = List.of("How many customers live in Paris?",
            "What is the total amount of the orders of Ada?");
    static final Map<String, String> ANSWERS = Map.of(QUESTIONS.get(0), "[[2]]", QUESTIONS.get(1), "[[55]]");
    private static final List<String> GOLD = List.of("SELECT count(*) FROM customers WHERE city = 'Paris'",
            "SELECT sum(T2.amount) FROM customers AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id WHERE T1.name = 'Ada'");

    private FolderOfFiles() {}

    /** Writes the two files into {@code dir} (emptied first) and returns it. */
    static Path write(Path dir) throws IOException, SQLException {
        Files.createDirectories(dir);
        try (var old = Files.list(dir)) {
            for (Path f : old.toList()) {
                Files.delete(f);
            }
        }
        Files.writeString(dir.resolve("customers.csv"), "id,name,city\n1,Ada,Paris\n2,Brian,Lyon\n3,Chloe,Paris\n");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
            s.execute("COPY (SELECT * FROM (VALUES (10, 1, 20), (11, 1, 35), (12, 2, 7)) AS t(id, customer_id, amount)) TO '"
                    + dir.resolve("orders.parquet").toString().replace("'", "''") + "' (FORMAT PARQUET)");
        }
        return dir;
    }

    /** The questions' gold SQL as a Spider-format file for the oracle. */
    static Path gold(Path file) throws IOException {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < QUESTIONS.size(); i++) {
            json.append(i == 0 ? "" : ",").append("{\"db_id\": \"shop\", \"question\": \"").append(QUESTIONS.get(i))
                    .append("\", \"query\": \"").append(GOLD.get(i)).append("\"}");
        }
        Files.writeString(file, json.append("]").toString());
        return file;
    }
}
