package io.flowsql.access;

import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.ExecutionResult;
import io.flowsql.sql.SqlError;
import io.flowsql.sql.StatementBudget;
import io.flowsql.sql.ValueMatch;
import io.flowsql.sql.engine.DatabaseEngine;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The data of one database as one tenant may read it: the only way (with {@link DataDoors}, which makes it) to run SQL
 * on a database or read its schema. The tenant is fixed when the door is made, so no call can forget it:
 * <ul>
 *   <li>{@link #execute}: under a table-level policy the statement's tables, functions and casts are checked first
 *       ({@link TableGate}, in the database's own dialect) and the database's error text keeps no value the statement
 *       did not itself contain ({@link ErrorRedaction}); a tenant that may not ask the database, or no tenant under a
 *       policy, runs nothing; with a role for the tenant ({@code tenants.<t>.roles.<db>}) the statement runs as it;</li>
 *   <li>{@link #schema}: the tables the tenant may see, nothing else (no name of a hidden table);</li>
 *   <li>{@link #values}: the stored values a text mentions, of those tables only (no value of a hidden table);</li>
 *   <li>{@link #mayShow}: whether SQL learned elsewhere (a few-shot example, a remembered repair) reads only what the
 *       tenant may read, so a library never shows one tenant another's hidden tables;</li>
 *   <li>{@link #learned}: what the room holds besides the data (the example library, the repair memory, the embedding
 *       retriever), as this tenant may see it: the room is their only holder, so a stage cannot choose without a
 *       tenant.</li>
 * </ul>
 */
public final class DataDoor {
    /**
     * Under a table-level policy the index is asked for this many times the matches wanted, so the tenant's tables
     * still fill the list when hidden tables hold the best matches.
     */
    static final int RESTRICTED_OVERFETCH = 4;

    private final DataDoors room;
    private final String dbId;
    private final String tenant;
    private final AccessPolicies access;

    DataDoor(DataDoors room, String dbId, String tenant, AccessPolicies access) {
        this.room = room;
        this.dbId = dbId;
        this.tenant = tenant;
        this.access = access;
    }

    public String dbId() {
        return dbId;
    }

    /** The tenant this door serves (null: the operator's door, or no tenant given where no policy is set). */
    public String tenant() {
        return tenant;
    }

    /** Whether the tenant may ask this database at all. */
    public boolean admits() {
        return access.allowsDatabase(tenant, dbId);
    }

    /** The database's engine (whose dialect prompts name and the gate reads). */
    public DatabaseEngine engine() {
        return room.engineOf(dbId);
    }

    /** A fresh budget for one statement under the executor's limit. */
    public StatementBudget newBudget() {
        return room.newBudget();
    }

    /** Runs {@code sql} under a fresh budget. */
    public ExecutionResult execute(String sql) {
        return execute(sql, newBudget());
    }

    /**
     * Runs {@code sql} within {@code budget} (which the caller keeps for the steps after it); a statement the tenant may
     * not run fails without reaching the database, as the database would fail a missing table.
     */
    public ExecutionResult execute(String sql, StatementBudget budget) {
        Optional<Predicate<String>> allowed = access.gate(tenant, dbId);
        if (allowed.isPresent() && sql != null) {
            Optional<String> refusal = TableGate.feedback(sql, allowed.get(), engine());
            if (refusal.isPresent()) {
                return ExecutionResult.failed(new SqlError(SqlError.Kind.INVALID_SQL, refusal.get()), 0);
            }
        }
        ExecutionResult result = room.run(dbId, sql, budget, access.role(tenant, dbId));
        return allowed.isPresent() ? redacted(result, sql) : result;
    }

    /** The tables of the database this tenant may see (none when it may not ask the database). */
    public DatabaseSchema schema() {
        return room.visibleSchema(dbId, tenant, access);
    }

    /**
     * The stored text values {@code text} mentions, best first, at most {@code limit}: only values of tables the tenant
     * may see (none when it may not ask the database), so a hidden table's values never reach a prompt.
     */
    public List<ValueMatch> values(String text, int limit) {
        if (!admits()) {
            return List.of();
        }
        if (!access.restrictsTables(tenant, dbId)) {
            return room.findValues(dbId, text, limit);
        }
        Predicate<String> allowed = access.tables(tenant, dbId);
        return room.findValues(dbId, text, limit * RESTRICTED_OVERFETCH).stream()
                .filter(v -> allowed.test(v.table())).limit(limit).toList();
    }

    /**
     * Whether this door's tenant may be shown SQL learned elsewhere on this database (a few-shot example, a remembered
     * repair): it may ask the database and, under a table-level policy, every table, function and cast of each statement
     * passes the gate (a null statement reads nothing). With no policy at all every statement may be shown.
     */
    public boolean mayShow(String... sqls) {
        if (!access.enforced()) {
            return true;
        }
        if (!admits()) {
            return false;
        }
        Optional<Predicate<String>> allowed = access.gate(tenant, dbId);
        if (allowed.isEmpty()) {
            return true;
        }
        for (String sql : sqls) {
            if (sql != null && TableGate.feedback(sql, allowed.get(), engine()).isPresent()) {
                return false;
            }
        }
        return true;
    }

    /**
     * What the room holds of {@code kind} (the example library, the repair memory, the embedding retriever) as this
     * door's tenant may see it; empty when the room holds none.
     */
    public <V> Optional<V> learned(Class<? extends Scoped<V>> kind) {
        Scoped<V> held = room.held(kind);
        return held == null ? Optional.empty() : Optional.of(held.through(this));
    }

    /**
     * Whether this door's tenant may be shown SQL learned on {@code otherDbId} (an example or repair of another
     * database): {@link #mayShow} of the same tenant's door of that database.
     */
    public boolean mayShowOn(String otherDbId, String... sqls) {
        return otherDbId.equals(dbId) ? mayShow(sqls) : new DataDoor(room, otherDbId, tenant, access).mayShow(sqls);
    }

    /** Under a table-level policy the database's error text keeps no value the statement did not itself contain. */
    private static ExecutionResult redacted(ExecutionResult result, String sql) {
        if (result.ok()) {
            return result;
        }
        SqlError error = result.error();
        return ExecutionResult.failed(new SqlError(error.kind(), ErrorRedaction.redact(error.message(), sql), error.sqlState()),
                result.elapsedMicros());
    }
}
