package io.flowsql.access;

import java.io.Serializable;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What one tenant may ask: the databases ({@code *} = every database) and, per database, optionally which tables
 * (names, any case; {@code ns.*} = every table of the schema namespace {@code ns}). A database without a table list
 * is open whole.
 */
public final class TenantPolicy implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final String ANY = "*";

    private final Set<String> databases;
    private final Map<String, List<String>> tablesByDatabase;
    /** The database role per database its SQL runs as (none: the login role). */
    private final Map<String, String> roleByDatabase;

    public TenantPolicy(Set<String> databases, Map<String, List<String>> tablesByDatabase) {
        this(databases, tablesByDatabase, Map.of());
    }

    public TenantPolicy(Set<String> databases, Map<String, List<String>> tablesByDatabase, Map<String, String> roleByDatabase) {
        this.roleByDatabase = new TreeMap<>(roleByDatabase);
        this.databases = Set.copyOf(databases);
        Map<String, List<String>> tables = new TreeMap<>();
        tablesByDatabase.forEach((db, list) -> tables.put(db, list.stream().map(t -> t.toLowerCase(Locale.ROOT)).toList()));
        this.tablesByDatabase = tables;
    }

    public boolean allowsDatabase(String dbId) {
        return databases.contains(ANY) || databases.contains(dbId);
    }

    /** Which tables of {@code dbId} this tenant may see (all, when the database has no table list). */
    public Predicate<String> tables(String dbId) {
        List<String> allowed = tablesByDatabase.get(dbId);
        if (allowed == null) {
            return t -> true;
        }
        return table -> {
            String name = table.toLowerCase(Locale.ROOT);
            for (String rule : allowed) {
                if (rule.endsWith(".*") ? name.startsWith(rule.substring(0, rule.length() - 1)) : name.equals(rule)) {
                    return true;
                }
            }
            return false;
        };
    }

    /** The role this tenant's SQL runs as on {@code dbId}, or null. */
    public String role(String dbId) {
        return roleByDatabase.get(dbId);
    }

    Set<String> databasesWithRoles() {
        return roleByDatabase.keySet();
    }

    /** Whether some tables of {@code dbId} are hidden from this tenant. */
    public boolean restrictsTables(String dbId) {
        return tablesByDatabase.containsKey(dbId);
    }
}
