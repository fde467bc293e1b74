package io.flowsql.sql.registry;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The database passwords this JVM has read, so that any message leaving the SQL layer (an error shown to a model, a
 * log line, a dead letter) can be scrubbed of them: a driver that echoes a connection string or a password can never
 * pass it on.
 */
public final class Secrets {

    private static final Set<String> KNOWN = ConcurrentHashMap.newKeySet();

    private Secrets() {}

    static void remember(String secret) {
        if (secret != null && secret.length() >= 4) {
            KNOWN.add(secret);
        }
    }

    /** The text with every known password replaced by {@code ***}. */
    public static String scrub(String text) {
        if (text == null || KNOWN.isEmpty()) {
            return text;
        }
        String out = text;
        for (String secret : KNOWN) {
            out = out.replace(secret, "***");
        }
        return out;
    }
}
