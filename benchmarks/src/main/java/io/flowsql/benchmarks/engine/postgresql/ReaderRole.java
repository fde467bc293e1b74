package io.flowsql.benchmarks.engine.postgresql;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A least-privilege PostgreSQL login role (no CREATE, no TEMPORARY, SELECT on the schemas granted to it) whose random
 * password is written only to a secrets file (mode 600), never to a URL or a setting: {@code flowsql_reader} for all
 * loaded databases, or {@code flowsql_<db>} for one ({@link Isolation}).
 */
public final class ReaderRole {

    public static final String NAME = "flowsql_reader";
    private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_]{0,54}");

    private ReaderRole() {}

    /** Creates {@link #NAME} with a fresh password in {@code work/reader.secret}; returns that file. */
    public static Path create(Statement admin, Path work) throws SQLException, IOException {
        lockDown(admin, "postgres");
        return create(admin, work.resolve("reader.secret"), NAME);
    }

    /** Creates login role {@code role} with a fresh password written to {@code secret} (mode 600); returns that file. */
    public static Path create(Statement admin, Path secret, String role) throws SQLException, IOException {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        String password = HexFormat.of().formatHex(random);
        Files.deleteIfExists(secret);
        Files.createFile(secret, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(secret, password);
        admin.execute("CREATE ROLE " + quoted(role) + " LOGIN PASSWORD '" + password
                + "' NOSUPERUSER NOCREATEDB NOCREATEROLE");
        return secret;
    }

    /**
     * The connected database {@code database} gives PUBLIC no CREATE in schema public and no TEMPORARY (a temporary
     * table can be created inside a read-only transaction).
     */
    public static void lockDown(Statement admin, String database) throws SQLException {
        admin.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
        admin.execute("REVOKE TEMPORARY ON DATABASE " + quoted(database) + " FROM PUBLIC");
    }

    /** The login role of one database loaded under {@link Isolation#ROLE} or {@link Isolation#DATABASE}. */
    public static String of(String db) {
        String role = "flowsql_" + db.toLowerCase(java.util.Locale.ROOT);
        if (!PLAIN.matcher(db.toLowerCase(java.util.Locale.ROOT)).matches()) {
            throw new IllegalArgumentException("database id " + db + " cannot name a role (letters, digits, _; at most 55)");
        }
        return role;
    }

    /**
     * The job options ({@code databases.<db>.*}) declaring Spider database {@code db}, loaded into schema {@code db} (lower-cased, as
     * the loader names it) of the server database at {@code url}, as read by this role with the password in {@code secret}.
     */
    public static Map<String, String> options(String db, String url, Path secret) {
        return options(db, url, NAME, secret);
    }

    /** As {@link #options(String, String, Path)}, read by login role {@code role}. */
    public static Map<String, String> options(String db, String url, String role, Path secret) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("databases." + db + ".url", url);
        options.put("databases." + db + ".user", role);
        options.put("databases." + db + ".password-file", secret.toString());
        options.put("databases." + db + ".schemas", db.toLowerCase(java.util.Locale.ROOT)); // as the loader names it
        return options;
    }

    /** Lets {@link #NAME} read every table of {@code schema}. */
    public static void grant(Statement admin, String schema) throws SQLException {
        grant(admin, schema, NAME);
    }

    /** Lets {@code role} read every table of {@code schema} (of the connected database). */
    public static void grant(Statement admin, String schema, String role) throws SQLException {
        admin.execute("GRANT USAGE ON SCHEMA " + quoted(schema) + " TO " + quoted(role));
        admin.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + quoted(schema) + " TO " + quoted(role));
    }

    static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
