package io.flowsql.sql.registry;

import io.flowsql.sql.engine.DatabaseEngine;
import io.flowsql.sql.catalog.DatabaseLocator;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every database a question may name: the SQLite folders the locator finds (the embedded default, no declaration
 * needed) and the databases declared by id ({@code databases.<id>.url}, {@code .dialect}, ...). A declared id wins
 * over a SQLite folder of the same name. Serializable (no secrets inside), so Flink functions carry it.
 */
public final class DatabaseRegistry implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The settings of one declared database, after {@code databases.<id>.}. */
    public static final Set<String> SETTINGS = Set.of("url", "dialect", "user", "password-env", "password-file", "schemas",
            "files", "pool-size", "timeout", "max-rows", "max-bytes", "refresh-interval", "values.rows-per-column",
            "values.bytes-per-column", "values.bytes-per-database", "values.time-per-database");

    private final DatabaseLocator sqlite;
    private final Map<String, DatabaseDeclaration> declared;

    public DatabaseRegistry(DatabaseLocator sqlite, List<DatabaseDeclaration> declared) {
        this.sqlite = sqlite;
        Map<String, DatabaseDeclaration> byId = new LinkedHashMap<>();
        for (DatabaseDeclaration d : declared) {
            if (byId.put(d.id(), d) != null) {
                throw new IllegalArgumentException("database " + d.id() + " is declared twice");
            }
        }
        this.declared = byId;
    }

    /** Only SQLite folders. */
    public static DatabaseRegistry sqliteOnly(DatabaseLocator sqlite) {
        return new DatabaseRegistry(sqlite, List.of());
    }

    /**
     * From the {@code databases.} settings without their prefix ({@code "<id>.url" -> "jdbc:..."}).
     * @throws IllegalArgumentException naming the key when a setting is unknown, missing or does not parse
     */
    public static DatabaseRegistry fromSettings(DatabaseLocator sqlite, Map<String, String> settings) {
        Map<String, Map<String, String>> byId = new TreeMap<>();
        settings.forEach((key, value) -> {
            int dot = key.indexOf('.');
            String setting = dot < 0 ? "" : key.substring(dot + 1);
            if (dot <= 0 || !SETTINGS.contains(setting)) {
                throw new IllegalArgumentException("databases." + key + ": unknown setting (known: databases.<id>."
                        + String.join(", .", SETTINGS.stream().sorted().toList()) + ")");
            }
            byId.computeIfAbsent(key.substring(0, dot), k -> new TreeMap<>()).put(setting, value.trim());
        });
        List<DatabaseDeclaration> declarations = new ArrayList<>();
        byId.forEach((id, s) -> declarations.add(declaration(id, s)));
        return new DatabaseRegistry(sqlite, declarations);
    }

    private static DatabaseDeclaration declaration(String id, Map<String, String> s) {
        String url = s.get("url");
        if (url == null || url.isEmpty()) {
            throw new IllegalArgumentException("databases." + id + ".url is required");
        }
        DatabaseEngine engine = DatabaseEngine.parse(s.getOrDefault("dialect", url));
        ValueSampling v = ValueSampling.defaults();
        ValueSampling values = new ValueSampling(
                (int) number(id, s, "values.rows-per-column", v.rowsPerColumn()),
                number(id, s, "values.bytes-per-column", v.bytesPerColumn()),
                number(id, s, "values.bytes-per-database", v.bytesPerDatabase()),
                millis(id, s, "values.time-per-database", v.millisPerDatabase()));
        return new DatabaseDeclaration(id, engine, url, s.get("user"), s.get("password-env"), s.get("password-file"),
                list(s.get("schemas")), list(s.get("files")), (int) number(id, s, "pool-size", 4),
                millis(id, s, "timeout", 0), (int) number(id, s, "max-rows", 0), number(id, s, "max-bytes", 0),
                millis(id, s, "refresh-interval", 0), values);
    }

    private static List<String> list(String raw) {
        return raw == null ? List.of() : Arrays.stream(raw.split("[,;]")).map(String::trim).filter(x -> !x.isEmpty()).toList();
    }

    private static long number(String id, Map<String, String> s, String key, long fallback) {
        String raw = s.get(key);
        try {
            return raw == null || raw.isEmpty() ? fallback : Long.parseLong(raw.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("databases." + id + "." + key + ": not a number: '" + raw + "'");
        }
    }

    /** A duration as {@code 500ms}, {@code 10s}, {@code 5min}, {@code PT10S} or plain milliseconds. */
    private static long millis(String id, Map<String, String> s, String key, long fallback) {
        String raw = s.get(key);
        if (raw == null || raw.isEmpty()) {
            return fallback;
        }
        String r = raw.replace(" ", "").toLowerCase(java.util.Locale.ROOT);
        try {
            if (r.startsWith("pt")) {
                return Duration.parse(r.toUpperCase(java.util.Locale.ROOT)).toMillis();
            }
            String digits = r.replaceAll("[a-z]+$", "");
            long n = Long.parseLong(digits);
            return switch (r.substring(digits.length())) {
                case "", "ms" -> n;
                case "s" -> n * 1000;
                case "min", "m" -> n * 60_000;
                case "h" -> n * 3_600_000;
                default -> throw new NumberFormatException(r);
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("databases." + id + "." + key + ": not a duration: '" + raw + "'");
        }
    }

    public DatabaseLocator sqlite() {
        return sqlite;
    }

    public List<DatabaseDeclaration> declared() {
        return List.copyOf(declared.values());
    }

    public Optional<DatabaseDeclaration> declaration(String dbId) {
        return Optional.ofNullable(dbId == null ? null : declared.get(dbId));
    }

    /** The engine behind an id: the declared one, else SQLite. */
    public DatabaseEngine engineOf(String dbId) {
        return declaration(dbId).map(DatabaseDeclaration::engine).orElse(DatabaseEngine.embedded());
    }

    /** Whether a question may name this id (declared, or a SQLite folder the locator finds). */
    public boolean contains(String dbId) {
        return declaration(dbId).isPresent() || (dbId != null && sqlite.sqliteFile(dbId).isPresent());
    }

    @Override
    public String toString() {
        return "DatabaseRegistry" + declared.keySet() + " + SQLite folders";
    }
}
