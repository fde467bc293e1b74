package io.flowsql.feedback;

import io.flowsql.access.AccessPolicies;
import io.flowsql.access.TableGate;
import io.flowsql.sql.engine.DatabaseEngine;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which learned entries a question may be shown, from its tenant's access policy: its own tenant's entries, and
 * another's only when the asker may read every table the entry's SQL (and a correction's wrong SQL) reads, as the
 * access gate reads it on the database's engine. With no table-level policy for the asker every entry of the
 * database is visible. Decisions are remembered per (tenant, database, entry), a bounded number of them.
 */
public final class LiveVisibility {
    private static final int REMEMBERED = 10_000;

    private final AccessPolicies access;
    private final Function<String, DatabaseEngine> engineOf;
    private final Map<String, Boolean> decided = new HashMap<>();

    public LiveVisibility(AccessPolicies access, Function<String, DatabaseEngine> engineOf) {
        this.access = access;
        this.engineOf = engineOf;
    }

    /** The entries a question of {@code tenant} on {@code dbId} may be shown. */
    public Predicate<LiveEntry> forAsker(String tenant, String dbId) {
        Optional<Predicate<String>> gate = access.gate(tenant, dbId);
        if (gate.isEmpty()) {
            return e -> true;
        }
        return entry -> Objects.equals(entry.tenant, tenant) && tenant != null || decided(tenant, dbId, entry, gate.get());
    }

    private boolean decided(String tenant, String dbId, LiveEntry entry, Predicate<String> allowed) {
        String key = tenant + '\u0000' + dbId + '\u0000' + entry.feedbackId;
        Boolean known = decided.get(key);
        if (known != null) {
            return known;
        }
        DatabaseEngine engine = engineOf.apply(dbId);
        boolean visible = readable(entry.sql, allowed, engine) && readable(entry.wrongSql, allowed, engine);
        if (decided.size() >= REMEMBERED) {
            decided.clear();
        }
        decided.put(key, visible);
        return visible;
    }

    private static boolean readable(String sql, Predicate<String> allowed, DatabaseEngine engine) {
        return sql == null || TableGate.feedback(sql, allowed, engine).isEmpty();
    }
}
