package io.flowsql.sql.catalog;

import io.flowsql.sql.engine.sqlite.ReadOnlyConnections;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import io.flowsql.sql.DatabaseSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * Schemas of the benchmark databases read from the SQLite files themselves (pragmas on a read-only
 * connection), cross-checked with tables.json and described from BIRD's CSVs; each database is read
 * once and kept in a Caffeine cache.
 */
public final class SqliteSchemaCatalog implements SchemaCatalog {

    private final DatabaseLocator locator;
    private final SchemaReader reader;
    private final Supplier<SpiderTablesJson> tablesJson;
    private final LoadingCache<String, DatabaseSchema> cache;

    public SqliteSchemaCatalog(DatabaseLocator locator, ValueExamplePolicy policy, int maxCachedDatabases) {
        this(locator, policy, maxCachedDatabases, Duration.ZERO);
    }

    /**
     * A catalog that reads a database again once its schema is older than {@code refreshAfter} (zero: never): the
     * next question after that still gets the schema it had while the new one is read in the background, then the
     * new one (tables added or dropped while the job runs appear or leave without a restart).
     */
    public SqliteSchemaCatalog(DatabaseLocator locator, ValueExamplePolicy policy, int maxCachedDatabases,
                               Duration refreshAfter) {
        this.locator = locator;
        this.reader = new SchemaReader(policy);
        SpiderTablesJson[] loaded = new SpiderTablesJson[1];
        this.tablesJson = () -> {
            synchronized (loaded) {
                if (loaded[0] == null) {
                    loaded[0] = SpiderTablesJson.load(locator.tablesJsonFiles());
                }
                return loaded[0];
            }
        };
        Caffeine<Object, Object> builder = Caffeine.newBuilder().maximumSize(maxCachedDatabases);
        if (refreshAfter.isNegative()) {
            throw new IllegalArgumentException("refreshAfter must not be negative: " + refreshAfter);
        }
        if (!refreshAfter.isZero()) {
            builder.refreshAfterWrite(refreshAfter);
        }
        this.cache = builder.build(this::load);
    }

    public SqliteSchemaCatalog(DatabaseLocator locator) {
        this(locator, ValueExamplePolicy.defaults(), 256);
    }

    /** @throws IllegalArgumentException when no database has this id */
    @Override
    public DatabaseSchema schema(String dbId) {
        if (dbId == null) {
            throw new IllegalArgumentException("no database named null");
        }
        // No file check here: every stage of every request asks, and load() refuses an unknown id itself.
        return cache.get(dbId);
    }

    /**
     * Reads this database's schema again now (on demand) and keeps it; questions asked meanwhile see the one it had.
     * @throws SQLException when the database cannot be read (the schema it had stays)
     */
    public void refresh(String dbId) throws SQLException {
        cache.put(dbId, load(dbId));
    }

    /** Whether a database with this id exists. */
    @Override
    public boolean contains(String dbId) {
        return locator.sqliteFile(dbId).isPresent();
    }

    public DatabaseLocator locator() {
        return locator;
    }

    private DatabaseSchema load(String dbId) throws SQLException {
        Path file = locator.sqliteFile(dbId).orElseThrow(() -> new IllegalArgumentException("no database named " + dbId));
        BirdColumnDescriptions bird = locator.descriptionFolder(dbId).map(BirdColumnDescriptions::read)
                .orElse(BirdColumnDescriptions.none());
        try (Connection connection = ReadOnlyConnections.open(file)) {
            return reader.read(dbId, connection, tablesJson.get().entry(dbId), bird);
        }
    }
}
