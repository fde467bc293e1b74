package io.flowsql.access;

import io.flowsql.sql.RoleName;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which tenant may ask which databases (and tables), from the job's {@code tenants.*} options:
 * {@code tenants.<tenant>.databases=db1,db2} ({@code *} = all) and optionally
 * {@code tenants.<tenant>.tables.<db>=t1,ns.*}, and optionally the database role its SQL runs as,
 * {@code tenants.<tenant>.roles.<db>=role} (PostgreSQL: {@code SET LOCAL ROLE} per statement). A question's tenant is its {@code tenant} field, else what the
 * {@code tenant.from-dialogue-id} pattern captures from its dialogue id (group 1, or the whole match).
 *
 * <p>With no tenant configured everything is allowed, as before tenants existed. Once one is configured, a question
 * whose tenant is missing or not configured is refused, and so is a database or table outside its tenant's policy.
 */
public final class AccessPolicies implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final String DATABASES = "databases";
    public static final String TABLES = "tables.";
    public static final String ROLES = "roles.";
    private static final String SHAPES = "expected tenants.<tenant>.databases, tenants.<tenant>.tables.<db> or "
            + "tenants.<tenant>.roles.<db>";

    private final Map<String, TenantPolicy> tenants;
    private final String dialogueRule;
    private transient Pattern dialoguePattern;

    public AccessPolicies(Map<String, TenantPolicy> tenants, String dialogueRule) {
        this.tenants = new TreeMap<>(tenants);
        this.dialogueRule = dialogueRule == null ? "" : dialogueRule.trim();
        if (!this.dialogueRule.isEmpty()) {
            Pattern.compile(this.dialogueRule);  // fails at configuration time, not per question
        }
    }

    /** No policy: every question may ask every database (the default). */
    public static AccessPolicies allowAll() {
        return new AccessPolicies(Map.of(), "");
    }

    /**
     * Reads the members of the {@code tenants.} family ({@code <tenant>.databases}, {@code <tenant>.tables.<db>},
     * {@code <tenant>.roles.<db>}).
     * @throws IllegalArgumentException for a key of another shape, a role that is not a plain identifier, or a tenant
     *                                  with tables or roles but no databases
     */
    public static AccessPolicies fromOptions(Map<String, String> family, String dialogueRule) {
        Map<String, Set<String>> databases = new TreeMap<>();
        Map<String, Map<String, List<String>>> tables = new TreeMap<>();
        Map<String, Map<String, String>> roles = new TreeMap<>();
        family.forEach((key, value) -> {
            int dot = key.indexOf('.');
            String tenant = dot < 0 ? "" : key.substring(0, dot);
            String rest = dot < 0 ? "" : key.substring(dot + 1);
            if (tenant.isEmpty()) {
                throw new IllegalArgumentException("tenants." + key + ": " + SHAPES);
            }
            if (rest.equals(DATABASES)) {
                databases.put(tenant, new LinkedHashSet<>(list(value)));
            } else if (rest.startsWith(TABLES) && rest.length() > TABLES.length()) {
                tables.computeIfAbsent(tenant, t -> new TreeMap<>()).put(rest.substring(TABLES.length()), list(value));
            } else if (rest.startsWith(ROLES) && rest.length() > ROLES.length()) {
                String role = value.trim();
                if (!RoleName.valid(role)) {
                    throw new IllegalArgumentException("tenants." + key + ": '" + role + "' is not a role name (letters, "
                            + "digits and _, not starting with a digit, at most 63)");
                }
                roles.computeIfAbsent(tenant, t -> new TreeMap<>()).put(rest.substring(ROLES.length()), role);
            } else {
                throw new IllegalArgumentException("tenants." + key + ": " + SHAPES);
            }
        });
        for (String tenant : union(tables.keySet(), roles.keySet())) {
            if (!databases.containsKey(tenant)) {
                throw new IllegalArgumentException("tenants." + tenant + " lists tables or roles but no tenants." + tenant
                        + ".databases");
            }
        }
        Map<String, TenantPolicy> policies = new TreeMap<>();
        databases.forEach((tenant, dbs) -> policies.put(tenant, new TenantPolicy(dbs, tables.getOrDefault(tenant, Map.of()),
                roles.getOrDefault(tenant, Map.of()))));
        return new AccessPolicies(policies, dialogueRule);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    private static List<String> list(String value) {
        return new ArrayList<>(Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList());
    }

    /** Whether any tenant is configured (else everything is allowed). */
    public boolean enforced() {
        return !tenants.isEmpty();
    }

    /** The question's tenant: the one it declares, else the one its dialogue id yields by the rule, else null. */
    public String tenantOf(String declared, String dialogueId) {
        if (declared != null && !declared.isBlank()) {
            return declared;
        }
        if (dialogueRule.isEmpty() || dialogueId == null) {
            return null;
        }
        if (dialoguePattern == null) {
            dialoguePattern = Pattern.compile(dialogueRule);
        }
        Matcher m = dialoguePattern.matcher(dialogueId);
        if (!m.find()) {
            return null;
        }
        return m.groupCount() >= 1 && m.group(1) != null ? m.group(1) : m.group();
    }

    /** Whether {@code tenant} may ask {@code dbId} at all. */
    public boolean allowsDatabase(String tenant, String dbId) {
        if (!enforced()) {
            return true;
        }
        TenantPolicy policy = tenant == null ? null : tenants.get(tenant);
        return policy != null && policy.allowsDatabase(dbId);
    }

    /** Which tables of {@code dbId} {@code tenant} may see; none when it may not ask the database. */
    public Predicate<String> tables(String tenant, String dbId) {
        if (!enforced()) {
            return t -> true;
        }
        if (!allowsDatabase(tenant, dbId)) {
            return t -> false;
        }
        return tenants.get(tenant).tables(dbId);
    }

    /**
     * What SQL run for a question of {@code tenant} on {@code dbId} must be checked against: empty when nothing is to
     * check (no policy, or the tenant may read the whole database), else the tables it may read (none at all when it
     * may not ask the database, or when no tenant is known under a policy).
     */
    public Optional<Predicate<String>> gate(String tenant, String dbId) {
        if (!enforced()) {
            return Optional.empty();
        }
        if (!allowsDatabase(tenant, dbId)) {
            return Optional.of(t -> false);
        }
        return restrictsTables(tenant, dbId) ? Optional.of(tables(tenant, dbId)) : Optional.empty();
    }

    /** Whether {@code tenant} sees only part of {@code dbId}. */
    public boolean restrictsTables(String tenant, String dbId) {
        return enforced() && tenant != null && tenants.containsKey(tenant) && tenants.get(tenant).restrictsTables(dbId);
    }

    /**
     * The database role SQL of {@code tenant}'s questions runs as on {@code dbId} ({@code tenants.<t>.roles.<db>}), or
     * null: the connection's own (login) role.
     */
    public String role(String tenant, String dbId) {
        TenantPolicy policy = tenant == null ? null : tenants.get(tenant);
        return policy == null ? null : policy.role(dbId);
    }

    /** Every database some tenant has a role for (each must be a server database whose engine has roles). */
    public Set<String> databasesWithRoles() {
        Set<String> all = new TreeSet<>();
        tenants.values().forEach(p -> all.addAll(p.databasesWithRoles()));
        return all;
    }

    public Set<String> tenantNames() {
        return tenants.keySet();
    }
}
