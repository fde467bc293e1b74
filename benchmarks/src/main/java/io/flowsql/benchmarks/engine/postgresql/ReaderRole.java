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

/**
 * The least-privilege PostgreSQL role {@code flowsql_reader} (no CREATE, no TEMPORARY, SELECT on the schemas granted
 * to it) whose random password is written only to a secrets file (mode 600), never to a URL or a setting.
 */
public final class ReaderRole {

    public static final String NAME = "flowsql_reader";

    private ReaderRole() {}

    /** Creates the role with a fresh password in {@code work/reader.secret}; returns that file. */
    public static Path create(Statement admin, Path work) throws SQLException, IOException {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        String password = HexFormat.of().formatHex(random);
        Path secret = work.resolve("reader.secret");
        Files.deleteIfExists(secret);
        Files.createFile(secret, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(secret, password);
        admin.execute("CREATE ROLE " + NAME + " LOGIN PASSWORD '" + password + "' NOSUPERUSER NOCREATEDB NOCREATEROLE");
        admin.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
        admin.execute("REVOKE TEMPORARY ON DATABASE postgres FROM PUBLIC");
        return secret;
    }

    /**
     * The job options ({@code databases.<db>.*}) declaring Spider database {@code db}, loaded into schema {@code db} of
     * the server at {@code url}, as read by this role with the password in {@code secret}.
     */
    public static Map<String, String> options(String db, String url, Path secret) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("databases." + db + ".url", url);
        options.put("databases." + db + ".user", NAME);
        options.put("databases." + db + ".password-file", secret.toString());
        options.put("databases." + db + ".schemas", db);
        return options;
    }

    /** Lets the role read every table of {@code schema}. */
    public static void grant(Statement admin, String schema) throws SQLException {
        admin.execute("GRANT USAGE ON SCHEMA \"" + schema + "\" TO " + NAME);
        admin.execute("GRANT SELECT ON ALL TABLES IN SCHEMA \"" + schema + "\" TO " + NAME);
    }
}
