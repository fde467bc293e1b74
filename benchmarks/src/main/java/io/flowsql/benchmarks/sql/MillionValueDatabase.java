package io.flowsql.benchmarks.sql;

import io.flowsql.sql.engine.DatabaseEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;

/** Generates a SQLite database with a given number of distinct, name-like text values, for the scale benchmark. */
final class MillionValueDatabase {

    private static final String[] SYLLABLES = {"ka", "ro", "mi", "tu", "le", "sa", "no", "vi", "da", "pe", "lu", "ga",
        "zo", "ri", "be", "ta", "mo", "ni", "fa", "ke", "su", "lo", "ve", "di", "ha", "po", "ci", "ma", "te", "gu",
        "ra", "so", "bi", "ne", "lo", "ju", "we", "xa", "qui", "dro"};
    private static final String[] CITIES = {"Springfield", "Riverside", "Fairview", "Madison", "Georgetown",
        "Arlington", "Salem", "Clinton", "Franklin", "Greenville"};

    private MillionValueDatabase() {}

    static String value(int i) {
        StringBuilder word = new StringBuilder();
        int n = i;
        do {
            word.append(SYLLABLES[n % SYLLABLES.length]);
            n /= SYLLABLES.length;
        } while (n > 0);
        word.setCharAt(0, Character.toUpperCase(word.charAt(0)));
        return word + " " + CITIES[(i / 7) % CITIES.length] + " " + Integer.toString(i, 36);
    }

    static void create(Path file, int count) throws Exception {
        Files.deleteIfExists(file);
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (Connection c = DriverManager.getConnection(
                DatabaseEngine.embedded().profile().jdbcUrlPrefix() + file.toAbsolutePath())) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode = OFF");
                s.execute("PRAGMA synchronous = OFF");
                s.execute("CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
            }
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO customers (customer_id, name) VALUES (?, ?)")) {
                for (int i = 0; i < count; i++) {
                    insert.setInt(1, i);
                    insert.setString(2, value(i));
                    insert.addBatch();
                    if (i % 10_000 == 9_999) {
                        insert.executeBatch();
                    }
                }
                insert.executeBatch();
            }
            c.commit();
        }
    }
}
