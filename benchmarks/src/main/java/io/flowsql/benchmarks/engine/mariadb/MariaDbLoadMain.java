package io.flowsql.benchmarks.engine.mariadb;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.load.SqliteToServerLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts (or reuses) the MariaDB server of {@code deploy/mariadb-start.sh} in a folder, loads Spider databases into it
 * (one MariaDB database each), grants the least-privilege reader SELECT on them and writes the job options declaring
 * each ({@code databases.<db>.*}, the reader's password only in its secrets file) to {@code databases.properties}. The
 * server keeps running; {@code deploy/mariadb-stop.sh DIR} stops it.
 * <pre>MariaDbLoadMain dir shared_data db1,db2,...</pre>
 */
public final class MariaDbLoadMain {

    private MariaDbLoadMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "work/mariadb").toAbsolutePath();
        Path shared = Path.of(args.length > 1 ? args[1] : "../shared/data").toAbsolutePath();
        List<String> dbs = List.of((args.length > 2 ? args[2] : "concert_singer").split(","));
        LocalMariaDb maria = LocalMariaDb.start(dir);
        List<String> options = new ArrayList<>();
        SqliteToServerLoader loader = new SqliteToServerLoader(DatabaseEngine.MARIADB);
        try (Connection admin = maria.admin(); Statement s = admin.createStatement()) {
            for (String db : dbs) {
                Path file = shared.resolve("spider/database").resolve(db).resolve(db + ".sqlite");
                System.out.println("loaded " + loader.load(db, file, admin, db));
                maria.grant(s, db);
                maria.options(db).forEach((key, value) -> options.add(key + "=" + value));
            }
        }
        Files.write(dir.resolve("databases.properties"), options);
        System.out.println("MariaDB " + maria.url("") + " ready; job options in " + dir.resolve("databases.properties"));
    }
}
