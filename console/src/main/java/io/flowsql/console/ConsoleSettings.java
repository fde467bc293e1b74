package io.flowsql.console;

import io.flowsql.access.AccessPolicies;
import io.flowsql.config.kafka.KafkaClientFactory;
import io.flowsql.config.Settings;
import io.flowsql.config.kafka.KafkaOptions;
import io.flowsql.rooms.SqlRooms;
import org.apache.flink.configuration.ConfigOption;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.sql.exec.SqlExecutorConfig;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the console runs with: where it listens, the bearer token (required when it listens beyond loopback), and
 * from the job's own options (the same {@code -c}/{@code -D} as the job), read through the rooms the console shares
 * with the job ({@link KafkaOptions}, {@link SqlRooms}), the broker, the topics (feedback and knowledge included), the
 * database catalog, the access policies and the safe executor's budgets, so the console sees what the job sees and
 * runs SQL under the job's limits. The console validates its rooms' options; the job's other options are the job's.
 */
public record ConsoleSettings(InetSocketAddress address, String token, Map<String, String> tenantTokens,
                              KafkaClientFactory kafka, String questionsTopic, String answersTopic, String deadLettersTopic,
                              String feedbackTopic, DatabaseRegistry databases, SqlExecutorConfig sql, AccessPolicies access,
                              String knowledgeTopic) {
    private static final String TOKEN_CHARS = "[A-Za-z0-9._~+/=-]{16,512}";

    /**
     * @param tenantTokens each token and the tenant it logs in as (empty: none); required, and only then allowed, when
     *                     the job has access policies ({@code tenants.*}): every tenant named must be configured there
     */
    public ConsoleSettings {
        if (token != null && token.isBlank()) {
            token = null;
        }
        tenantTokens = Map.copyOf(tenantTokens);
        if (access.enforced() && tenantTokens.isEmpty()) {
            throw new IllegalArgumentException("the job has access policies (tenants.*): give the console a token per tenant "
                    + "(--tenant-tokens), so each person speaks as their tenant");
        }
        if (!tenantTokens.isEmpty()) {
            if (!access.enforced()) {
                throw new IllegalArgumentException("tenant tokens need the job's access policies (tenants.*), and none are set");
            }
            if (token != null) {
                throw new IllegalArgumentException("give either a single token or tenant tokens, not both");
            }
            for (Map.Entry<String, String> e : tenantTokens.entrySet()) {
                if (!access.tenantNames().contains(e.getValue())) {
                    throw new IllegalArgumentException("tenant token for '" + e.getValue() + "', a tenant the job does not configure");
                }
                if (!e.getKey().matches(TOKEN_CHARS)) {
                    throw new IllegalArgumentException("the token of tenant '" + e.getValue()
                            + "' must be 16-512 characters of A-Z a-z 0-9 . _ ~ + / = -");
                }
            }
        } else if (token == null && !address.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("the console listens on " + address.getAddress().getHostAddress()
                    + ", beyond loopback: give it a bearer token (--token-file or FLOWSQL_CONSOLE_TOKEN)");
        }
        if (token != null && !token.matches(TOKEN_CHARS)) {
            throw new IllegalArgumentException("the console's token must be 16-512 characters of A-Z a-z 0-9 . _ ~ + / = -");
        }
    }

    /** The options the console reads: the Kafka room's and the SQL rooms' (databases, sql executor, access). */
    public static List<ConfigOption<?>> options() {
        List<ConfigOption<?>> all = new ArrayList<>(KafkaOptions.options());
        all.addAll(SqlRooms.options());
        return all;
    }

    /** The job's options as the console reads them: {@code file} (properties; null for none), then {@code overrides}. */
    public static Settings load(Path file, Map<String, String> overrides) {
        Settings settings = Settings.load(file, overrides, options());
        SqlRooms.validate(settings);
        return settings;
    }

    /** The settings of a console at {@code host:port} over the job whose options are {@code job}. */
    public static ConsoleSettings of(String host, int port, String token, Settings job) {
        return of(host, port, token, Map.of(), job);
    }

    /** As above, with {@code tenantTokens}: token → the tenant it logs in as. */
    public static ConsoleSettings of(String host, int port, String token, Map<String, String> tenantTokens, Settings job) {
        InetAddress bind;
        try {
            bind = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot bind the console to " + host + ": " + e.getMessage(), e);
        }
        return new ConsoleSettings(new InetSocketAddress(bind, port), token, tenantTokens, KafkaOptions.clients(job),
                job.get(KafkaOptions.QUESTIONS_TOPIC), job.get(KafkaOptions.ANSWERS_TOPIC),
                job.get(KafkaOptions.DEAD_LETTERS_TOPIC), job.get(KafkaOptions.FEEDBACK_TOPIC).trim(), SqlRooms.registry(job),
                SqlRooms.executor(job), SqlRooms.access(job), job.get(KafkaOptions.KNOWLEDGE_TOPIC).trim());
    }

    /** False when the job learns from no feedback topic (kafka.topic.feedback blank): the page shows no verdict buttons. */
    public boolean feedback() {
        return !feedbackTopic.isEmpty();
    }

    /** False when the job reads no knowledge topic (kafka.topic.knowledge blank): the page shows no form to add a definition. */
    public boolean knowledge() {
        return !knowledgeTopic.isEmpty();
    }

    public boolean loopbackOnly() {
        return address.getAddress().isLoopbackAddress();
    }
}
