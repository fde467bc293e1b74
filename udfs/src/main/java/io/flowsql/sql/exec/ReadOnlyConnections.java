package io.flowsql.sql.exec;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/** Opens a SQLite file so that nothing done through the connection can change it: read-only URI and query_only. */
public final class ReadOnlyConnections {

    private ReadOnlyConnections() {}

    public static Connection open(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        config.enableLoadExtension(false);
        String url = "jdbc:sqlite:file:" + file.toAbsolutePath().toUri().getRawPath() + "?mode=ro";
        Connection connection = DriverManager.getConnection(url, config.toProperties());
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA query_only = 1");
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
        return connection;
    }
}
