package io.flowsql.benchmarks.engine.postgresql;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.load.SqliteToServerLoader;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Loads SQLite benchmark databases into a running PostgreSQL (one schema each, named as the database) under an
 * {@link Isolation} layout, creates the login roles that layout needs (passwords only in {@code <work>/*.secret}) and
 * returns the job options ({@code databases.<db>.*}) that read each database through its role.
 */
public final class PostgresLayout {
    private static final SqliteToServerLoader LOADER = new SqliteToServerLoader(DatabaseEngine.POSTGRESQL);

    private PostgresLayout() {}

    /**
     * @param sqliteFile the SQLite file of each database id
     * @return the job options declaring every database of {@code dbs}, in their order
     */
    public static Map<String, String> load(EmbeddedPostgres pg, Collection<String> dbs, Function<String, Path> sqliteFile,
                                           Path work, Isolation isolation) throws SQLException, IOException {
        String server = "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/";
        Map<String, String> options = new LinkedHashMap<>();
        try (Connection admin = pg.getPostgresDatabase().getConnection(); Statement s = admin.createStatement()) {
            Path shared = isolation == Isolation.SHARED ? ReaderRole.create(s, work) : null;
            if (isolation != Isolation.SHARED) {
                ReaderRole.lockDown(s, "postgres");
            }
            if (isolation == Isolation.DATABASE) {  // a database's role connects to its own database alone
                s.execute("REVOKE CONNECT ON DATABASE postgres FROM PUBLIC");
                s.execute("REVOKE CONNECT ON DATABASE template1 FROM PUBLIC");
            }
            for (String db : dbs) {
                String role = isolation == Isolation.SHARED ? ReaderRole.NAME : ReaderRole.of(db);
                Path secret = shared != null ? shared : ReaderRole.create(s, work.resolve(role + ".secret"), role);
                String database = "postgres";
                if (isolation == Isolation.DATABASE) {
                    database = db;
                    s.execute("CREATE DATABASE " + ReaderRole.quoted(db));
                    s.execute("REVOKE CONNECT ON DATABASE " + ReaderRole.quoted(db) + " FROM PUBLIC");
                    s.execute("GRANT CONNECT ON DATABASE " + ReaderRole.quoted(db) + " TO " + ReaderRole.quoted(role));
                    try (Connection own = pg.getDatabase("postgres", db).getConnection(); Statement o = own.createStatement()) {
                        ReaderRole.lockDown(o, db);
                        loadInto(own, o, db, sqliteFile.apply(db), role);
                    }
                } else {
                    loadInto(admin, s, db, sqliteFile.apply(db), role);
                }
                options.putAll(ReaderRole.options(db, server + database, role, secret));
            }
        }
        return options;
    }

    private static void loadInto(Connection admin, Statement s, String db, Path file, String role) throws SQLException {
        System.out.println("loaded " + LOADER.load(db, file, admin, db));
        // the loader names the schema as an unquoted name folds (cre_Doc_Template_Mgt -> cre_doc_template_mgt)
        ReaderRole.grant(s, db.toLowerCase(java.util.Locale.ROOT), role);
    }
}
