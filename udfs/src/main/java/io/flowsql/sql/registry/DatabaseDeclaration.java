package io.flowsql.sql.registry;

import io.flowsql.sql.engine.DatabaseEngine;
import java.io.Serializable;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One database declared by id in the job's configuration ({@code databases.<id>.*}): where it is, which engine, who
 * connects, and its limits. Holds no secret: the password is read where the connection is opened, from the environment
 * variable or the file named here ({@link Credentials}), so this value may be logged and shipped to task managers.
 *
 * @param url the JDBC URL ({@code jdbc:postgresql://host:5432/db}, {@code jdbc:duckdb:/path/file.duckdb}, or
 *     {@code jdbc:duckdb:} for views over {@code files}); it must not carry a password
 * @param schemas the schema namespaces the catalog shows (empty: every non-system schema)
 * @param files DuckDB only: folders whose Parquet/CSV files become views (one per file) and the only folders a
 *     statement may read
 * @param poolSize connections at most, which is also the statements running at once on this database
 * @param timeoutMillis the statement budget on this database (0: the executor's)
 * @param maxRows rows returned at most (0: the executor's)
 * @param maxBytes result bytes at most (0: the executor's)
 * @param refreshMillis how often the catalog is re-read from the live database (0: only on demand)
 * @param values the value index's sampling bounds on this database
 */
public record DatabaseDeclaration(
        String id,
        DatabaseEngine engine,
        String url,
        String user,
        String passwordEnv,
        String passwordFile,
        List<String> schemas,
        List<String> files,
        int poolSize,
        long timeoutMillis,
        int maxRows,
        long maxBytes,
        long refreshMillis,
        ValueSampling values) implements Serializable {

    private static final long serialVersionUID = 1L;

    public DatabaseDeclaration {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(url, "url");
        if (!id.matches("[A-Za-z0-9_][A-Za-z0-9_.-]*")) {
            throw new IllegalArgumentException("database id '" + id + "' must match [A-Za-z0-9_][A-Za-z0-9_.-]*");
        }
        if (!engine.jdbc()) {
            throw new IllegalArgumentException("databases." + id + ": SQLite databases need no declaration (data.database-roots)");
        }
        if (!url.startsWith(engine.profile().jdbcUrlPrefix())) {
            throw new IllegalArgumentException("databases." + id + ".url must be a jdbc:" + engine.id() + ": URL");
        }
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.contains("password") || url.matches("jdbc:[a-z]+://[^/@]*:[^/@]*@.*")) {
            throw new IllegalArgumentException("databases." + id + ".url must not carry a password: use databases." + id
                    + ".password-env or .password-file");
        }
        schemas = schemas == null ? List.of() : List.copyOf(schemas);
        files = files == null ? List.of() : List.copyOf(files);
        user = user == null ? "" : user;
        passwordEnv = passwordEnv == null ? "" : passwordEnv;
        passwordFile = passwordFile == null ? "" : passwordFile;
        values = values == null ? ValueSampling.defaults() : values;
        if (poolSize <= 0 || timeoutMillis < 0 || maxRows < 0 || maxBytes < 0 || refreshMillis < 0) {
            throw new IllegalArgumentException("databases." + id + ": pool size must be positive and limits not negative");
        }
    }

    /**
     * The schema a name without a schema resolves to: the first declared schema (on PostgreSQL it becomes the
     * connections' {@code search_path}), else {@code public} on PostgreSQL and {@code main} on DuckDB.
     */
    public String defaultSchema() {
        return !schemas.isEmpty() ? schemas.get(0) : engine.profile().defaultSchema();
    }
}
