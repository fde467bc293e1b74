package io.flowsql.sql.registry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads a declared database's password where its connections are opened: from the environment variable or the
 * secrets file the declaration names, never from a question. The value goes to the driver and nowhere else; errors
 * name the variable or file, never the value.
 */
public final class Credentials {

    private final Map<String, String> environment;

    public Credentials(Map<String, String> environment) {
        this.environment = environment;
    }

    public static Credentials fromEnvironment() {
        return new Credentials(System.getenv());
    }

    /** The password, or null when the declaration names none (peer or trust authentication, DuckDB). */
    public String password(DatabaseDeclaration d) {
        if (!d.passwordEnv().isEmpty()) {
            String value = environment.get(d.passwordEnv());
            if (value == null) {
                throw new IllegalStateException("databases." + d.id() + ".password-env names the environment variable "
                        + d.passwordEnv() + ", which is not set");
            }
            Secrets.remember(value);
            return value;
        }
        if (!d.passwordFile().isEmpty()) {
            try {
                String value = Files.readString(Path.of(d.passwordFile()), StandardCharsets.UTF_8).strip();
                Secrets.remember(value);
                return value;
            } catch (IOException e) {
                throw new UncheckedIOException("databases." + d.id() + ".password-file: cannot read " + d.passwordFile(), e);
            }
        }
        return null;
    }
}
