package io.flowsql.rooms;

import io.flowsql.access.AccessPolicies;
import io.flowsql.config.Settings;
import io.flowsql.config.access.AccessOptions;
import io.flowsql.config.databases.DatabaseOptions;
import io.flowsql.config.sql.SqlOptions;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.registry.DatabaseDeclaration;
import io.flowsql.sql.registry.DatabaseRegistry;

import org.apache.flink.configuration.ConfigOption;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The SQL rooms (databases, the SQL executor, access) read into the engine's objects, for the job and the console
 * alike: the same options give the same catalog, budgets and policies wherever they are read.
 */
public final class SqlRooms {
    private SqlRooms() {}

    /** Every option of these rooms (for {@link Settings#of}). */
    public static List<ConfigOption<?>> options() {
        List<ConfigOption<?>> all = new ArrayList<>(DatabaseOptions.options());
        all.addAll(SqlOptions.options());
        all.addAll(AccessOptions.options());
        return all;
    }

    /** Where the SQLite databases live: data.database-roots (with data.tables-json) when set, else data.shared. */
    public static DatabaseLocator locator(Settings settings) {
        List<String> roots = settings.get(DatabaseOptions.DATABASE_ROOTS);
        if (roots.isEmpty()) {
            return DatabaseLocator.forSharedData(Path.of(settings.get(DatabaseOptions.SHARED_DATA)));
        }
        return new DatabaseLocator(paths(roots), paths(settings.get(DatabaseOptions.TABLES_JSON)));
    }

    /** The SQLite folders and the databases declared by id ({@code databases.<id>.*}). */
    public static DatabaseRegistry registry(Settings settings) {
        return DatabaseRegistry.fromSettings(locator(settings), settings.get(DatabaseOptions.DATABASES));
    }

    /** The ids declared by {@code databases.<id>.*}. */
    public static Set<String> declaredIds(Settings settings) {
        return registry(settings).declared().stream().map(DatabaseDeclaration::id).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The safe executor's budgets (sql.query-timeout, sql.max-rows): the job's, and the console's for SQL a person runs. */
    public static SqlExecutorConfig executor(Settings settings) {
        return SqlExecutorConfig.defaults()
                .withTimeoutMillis(settings.get(SqlOptions.QUERY_TIMEOUT).toMillis())
                .withMaxRows(settings.get(SqlOptions.MAX_ROWS));
    }

    /** The engines that set a role per statement, as messages name them, and their URLs' prefixes. */
    private static final String ROLE_ENGINES = java.util.Arrays.stream(DatabaseEngine.values())
            .filter(e -> e.profile().setsRoles()).map(DatabaseEngine::displayName).collect(java.util.stream.Collectors.joining(", "));
    private static final String ROLE_URLS = java.util.Arrays.stream(DatabaseEngine.values())
            .filter(e -> e.profile().setsRoles()).map(e -> e.profile().jdbcUrlPrefix()).collect(java.util.stream.Collectors.joining("|"));

    /** The tenants' access policies (tenants.* and tenant.from-dialogue-id); everything allowed when none is set. */
    public static AccessPolicies access(Settings settings) {
        return AccessPolicies.fromOptions(settings.get(AccessOptions.TENANTS), settings.get(AccessOptions.TENANT_FROM_DIALOGUE_ID));
    }

    /**
     * Fails naming the key: a value out of range, a malformed tenants.* key or pattern, or a tenant's database role
     * ({@code tenants.<t>.roles.<db>}) on a database whose engine sets no roles (roles are set per statement on a
     * declared database whose engine's profile sets roles).
     */
    public static void validate(Settings settings) {
        SqlOptions.validate(settings);
        AccessPolicies access = access(settings);
        if (access.databasesWithRoles().isEmpty()) {
            return;
        }
        DatabaseRegistry registry = registry(settings);
        for (String db : access.databasesWithRoles()) {
            if (registry.declaration(db).map(d -> !d.engine().profile().setsRoles()).orElse(true)) {
                throw new IllegalArgumentException(AccessOptions.TENANTS.prefix() + "<tenant>." + AccessPolicies.ROLES + db
                        + ": a database role is set per statement only on a declared database of " + ROLE_ENGINES
                        + " (databases." + db + ".url=" + ROLE_URLS + "...), and " + db + " is not one");
            }
        }
    }

    private static List<Path> paths(List<String> items) {
        return items.stream().map(Path::of).toList();
    }
}
