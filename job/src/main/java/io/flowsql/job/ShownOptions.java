package io.flowsql.job;

import org.apache.flink.configuration.ConfigOption;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which option values may be shown (logs, --print, the SQL path's job parameters in Flink's web UI): an allow-list.
 * A value is shown only when its key is known to hold no secret; everything else, in particular any other
 * {@code kafka.client.*} property (a PEM {@code ssl.keystore.key}, a JAAS configuration), a database's password and
 * the endpoint's key, is masked. A key naming where a secret lives ({@code *-env}, {@code *-file}) is shown.
 */
final class ShownOptions {
    private ShownOptions() {}

    /** Kafka client properties that configure, but never authenticate, a client. */
    private static final Set<String> KAFKA_SAFE = Set.of("security.protocol", "sasl.mechanism", "ssl.protocol",
            "ssl.enabled.protocols", "ssl.endpoint.identification.algorithm", "ssl.truststore.location",
            "ssl.truststore.type", "ssl.keystore.location", "ssl.keystore.type", "client.id", "client.dns.lookup",
            "compression.type", "acks", "sasl.kerberos.service.name", "sasl.login.callback.handler.class",
            "sasl.client.callback.handler.class", "sasl.oauthbearer.token.endpoint.url", "config.providers");
    /** Kafka client tuning: times, sizes, counts, and the class of a config provider. */
    private static final Pattern KAFKA_SAFE_PATTERN =
            Pattern.compile("[a-z.]+\\.(ms|bytes|records|size|count)|config\\.providers\\.[a-z0-9_-]+\\.class");

    /** A declared database's settings that hold no credential (its url only when it carries none). */
    private static final Set<String> DATABASE_SAFE = Set.of("url", "dialect", "user", "schemas", "files", "pool-size",
            "timeout", "max-rows", "max-bytes", "refresh-interval", "memory-limit", "threads");

    private static final Set<String> DECLARED_SAFE = JobOptions.all().stream().map(ConfigOption::key)
            .filter(k -> !k.equals(JobOptions.LLM_API_KEY.key())).collect(Collectors.toUnmodifiableSet());

    /** Whether the value of {@code key} may be shown as it is. */
    static boolean shown(String key, String value) {
        String k = key.toLowerCase(Locale.ROOT);
        if (k.endsWith("-env") || k.endsWith("-file") || DECLARED_SAFE.contains(key)) {
            return true;
        }
        if (k.startsWith(JobOptions.KAFKA_CLIENT_PREFIX)) {
            String property = k.substring(JobOptions.KAFKA_CLIENT_PREFIX.length());
            return KAFKA_SAFE.contains(property) || KAFKA_SAFE_PATTERN.matcher(property).matches();
        }
        if (k.startsWith(JobOptions.DATABASES.prefix())) {
            String rest = k.substring(JobOptions.DATABASES.prefix().length());
            String setting = rest.substring(rest.indexOf('.') + 1);
            if (setting.equals("url")) {
                return !value.contains("@") && !value.toLowerCase(Locale.ROOT).contains("password");
            }
            return rest.contains(".") && (DATABASE_SAFE.contains(setting) || setting.startsWith("values."));
        }
        return JobOptions.families().stream()
                .filter(f -> f != JobOptions.KAFKA_CLIENT && f != JobOptions.DATABASES)
                .anyMatch(f -> k.startsWith(f.prefix()));
    }
}
