package io.flowsql.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.ValueMatch;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.retrieve.SchemaSubset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The room that holds the data (the executor, the catalog, the value index) and the policies, and gives out
 * {@link DataDoor}s: one per database and tenant ({@link #door}), or the operator's door ({@link #operator}: no policy,
 * for tools that are not serving a question). Outside {@code io.flowsql.access} and the SQL layer nothing calls the
 * executor, the catalog's schemas or the value index ({@code DataDoorRuleTest}); everything else gets data through a
 * door, which knows its tenant. The room also holds what was learned over the data ({@link #holding}: the example
 * library, the repair memory, the embedding retriever), which a stage sees only through a door ({@link Scoped}).
 */
public final class DataDoors implements AutoCloseable {
    private final SafeExecutor executor;
    private final SchemaCatalog catalog;
    private final CachingValueIndexProvider values;
    private final AccessPolicies access;
    /** What the room holds besides the data, by kind: seen only through a door ({@link DataDoor#learned}). */
    private final Map<Class<?>, Scoped<?>> learned;
    /** Per catalog schema (by identity, released with it): the cut schemas by tenant. */
    private final Cache<DatabaseSchema, Cache<String, DatabaseSchema>> cuts = Caffeine.newBuilder().weakKeys().build();

    /**
     * @param executor runs SQL (null: this room has no SQL, e.g. a tool that only reads schemas)
     * @param catalog  the schemas (null: this room has no schemas, e.g. a SQL check)
     */
    public DataDoors(SafeExecutor executor, SchemaCatalog catalog, AccessPolicies access) {
        this(executor, catalog, null, access);
    }

    /** @param values the databases' value indexes (null: this room looks up no values) */
    public DataDoors(SafeExecutor executor, SchemaCatalog catalog, CachingValueIndexProvider values,
                     AccessPolicies access) {
        this(executor, catalog, values, access, Map.of());
    }

    private DataDoors(SafeExecutor executor, SchemaCatalog catalog, CachingValueIndexProvider values,
                      AccessPolicies access, Map<Class<?>, Scoped<?>> learned) {
        this.executor = executor;
        this.catalog = catalog;
        this.values = values;
        this.access = Objects.requireNonNull(access, "access");
        this.learned = learned;
    }

    /**
     * This room (the same data and policies) also holding {@code parts} (nulls are skipped: not configured), each by its
     * class: the example library, the repair memory, the embedding retriever. Their doors are then the only way to them.
     */
    public DataDoors holding(Scoped<?>... parts) {
        Map<Class<?>, Scoped<?>> held = new HashMap<>(learned);
        for (Scoped<?> part : parts) {
            if (part != null) {
                held.put(part.getClass(), part);
            }
        }
        return new DataDoors(executor, catalog, values, access, Map.copyOf(held));
    }

    /** A room without any policy (tools, replays, tests). */
    public static DataDoors open(SafeExecutor executor, SchemaCatalog catalog) {
        return new DataDoors(executor, catalog, AccessPolicies.allowAll());
    }

    /** A room without any policy that also looks up values (tools, replays, tests). */
    public static DataDoors open(SafeExecutor executor, SchemaCatalog catalog, CachingValueIndexProvider values) {
        return new DataDoors(executor, catalog, values, AccessPolicies.allowAll());
    }

    /** The door of {@code dbId} for {@code tenant} (null: none; under a policy such a door runs and shows nothing). */
    public DataDoor door(String dbId, String tenant) {
        return new DataDoor(this, dbId, tenant, access);
    }

    /** The operator's door: no policy applies (tools and checks not serving any tenant's question). */
    public DataDoor operator(String dbId) {
        return new DataDoor(this, dbId, null, AccessPolicies.allowAll());
    }

    /** What this room holds of {@code kind} (null: none), for {@link DataDoor#learned}. */
    <S extends Scoped<?>> S held(Class<S> kind) {
        return kind.cast(learned.get(kind));
    }

    public AccessPolicies access() {
        return access;
    }

    /** Whether the catalog knows {@code dbId} (no schema is read). */
    public boolean knows(String dbId) {
        return catalog().contains(dbId);
    }

    DatabaseEngine engineOf(String dbId) {
        if (executor != null) {
            return executor.engineOf(dbId);
        }
        return catalog().engine(dbId);
    }

    StatementBudget newBudget() {
        return executor().newBudget();
    }

    ExecutionResult run(String dbId, String sql, StatementBudget budget, String role) {
        return executor().execute(dbId, sql, budget, role);
    }

    /** The value index's best matches in the whole database (the door keeps those of the tables its tenant may see). */
    List<ValueMatch> findValues(String dbId, String text, int limit) {
        if (values == null) {
            throw new IllegalStateException("this room looks up no values");
        }
        return values.forDatabase(dbId).find(text, limit);
    }

    DatabaseSchema visibleSchema(String dbId, String tenant, AccessPolicies policies) {
        DatabaseSchema whole = catalog().schema(dbId);
        if (!policies.enforced()) {
            return whole;
        }
        if (!policies.allowsDatabase(tenant, dbId)) {
            return new DatabaseSchema(whole.dbId(), java.util.List.of(), java.util.List.of());
        }
        if (!policies.restrictsTables(tenant, dbId)) {
            return whole;
        }
        var allowed = policies.tables(tenant, dbId);
        return cuts.get(whole, w -> Caffeine.newBuilder().maximumSize(1024).build())
                .get(tenant, k -> SchemaSubset.of(whole, t -> allowed.test(t.name())));
    }

    /** Closes the executor (for a room that owns it, such as the console's). */
    @Override
    public void close() {
        if (executor != null) {
            executor.close();
        }
    }

    private SafeExecutor executor() {
        if (executor == null) {
            throw new IllegalStateException("this room runs no SQL");
        }
        return executor;
    }

    private SchemaCatalog catalog() {
        if (catalog == null) {
            throw new IllegalStateException("this room reads no schemas");
        }
        return catalog;
    }
}
