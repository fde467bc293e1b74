package io.flowsql.access;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which tenant may ask which databases (and tables), from the job's {@code tenants.*} options:
 * {@code tenants.<tenant>.databases=db1,db2} ({@code *} = all) and optionally
 * {@code tenants.<tenant>.tables.<db>=t1,ns.*}. A question's tenant is its {@code tenant} field, else what the
 * {@code tenant.from-dialogue-id} pattern captures from its dialogue id (group 1, or the whole match).
 *
 * <p>With no tenant configured everything is allowed, as before tenants existed. Once one is configured, a question
 * whose tenant is missing or not configured is refused, and so is a database or table outside its tenant's policy.
 */
public final class AccessPolicies implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final String DATABASES = "databases";
    public static final String TABLES = "tables.";

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
     * Reads the members of the {@code tenants.} family ({@code <tenant>.databases}, {@code <tenant>.tables.<db>}).
     * @throws IllegalArgumentException for a key of another shape, or a tenant with tables but no databases
     */
    public static AccessPolicies fromOptions(Map<String, String> family, String dialogueRule) {
        Map<String, Set<String>> databases = new TreeMap<>();
        Map<String, Map<String, List<String>>> tables = new TreeMap<>();
        family.forEach((key, value) -> {
            int dot = key.indexOf('.');
            String tenant = dot < 0 ? "" : key.substring(0, dot);
            String rest = dot < 0 ? "" : key.substring(dot + 1);
            if (tenant.isEmpty()) {
                throw new IllegalArgumentException("tenants." + key + ": expected tenants.<tenant>.databases or tenants.<tenant>.tables.<db>");
            }
            if (rest.equals(DATABASES)) {
                databases.put(tenant, new LinkedHashSet<>(list(value)));
            } else if (rest.startsWith(TABLES) && rest.length() > TABLES.length()) {
                tables.computeIfAbsent(tenant, t -> new TreeMap<>()).put(rest.substring(TABLES.length()), list(value));
            } else {
                throw new IllegalArgumentException("tenants." + key + ": expected tenants.<tenant>.databases or tenants.<tenant>.tables.<db>");
            }
        });
        for (String tenant : tables.keySet()) {
            if (!databases.containsKey(tenant)) {
                throw new IllegalArgumentException("tenants." + tenant + " lists tables but no tenants." + tenant + ".databases");
            }
        }
        Map<String, TenantPolicy> policies = new TreeMap<>();
        databases.forEach((tenant, dbs) -> policies.put(tenant, new TenantPolicy(dbs, tables.getOrDefault(tenant, Map.of()))));
        return new AccessPolicies(policies, dialogueRule);
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

    public Set<String> tenantNames() {
        return tenants.keySet();
    }
}
