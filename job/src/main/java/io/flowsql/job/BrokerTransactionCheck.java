package io.flowsql.job;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks at start that the exactly-once sinks' transaction timeout ({@code kafka.transaction-timeout}) is within what
 * the brokers allow ({@code transaction.max.timeout.ms}): a larger one makes every transaction fail to begin
 * (InvalidTxnTimeoutException) only once the job runs. The brokers' settings are read with the Kafka Admin API
 * (describeConfigs); a broker that cannot be asked is logged and the start goes on (the sinks will say more).
 */
final class BrokerTransactionCheck {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerTransactionCheck.class);
    static final String BROKER_MAX = "transaction.max.timeout.ms";

    private BrokerTransactionCheck() {}

    /** Throws naming both settings when a broker's maximum is below the job's timeout. */
    static void verify(KafkaClientFactory kafka, Duration transactionTimeout, Duration wait) {
        String bootstrapServers = kafka.bootstrapServers();
        Optional<Long> max;
        try (Admin admin = kafka.admin(Map.of(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(wait.toMillis()),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(wait.toMillis())))) {
            max = smallestMaximum(admin, wait);
        } catch (Exception e) {
            LOG.warn("could not read {} from the brokers at {} ({}); kafka.transaction-timeout ({}) is not checked against it",
                    BROKER_MAX, bootstrapServers, e.toString(), transactionTimeout);
            return;
        }
        if (max.isPresent() && transactionTimeout.toMillis() > max.get()) {
            throw new IllegalArgumentException("kafka.transaction-timeout (" + transactionTimeout.toMillis() + " ms) exceeds the "
                    + "brokers' " + BROKER_MAX + " (" + max.get() + " ms) at " + bootstrapServers + ": the exactly-once sinks "
                    + "could not begin a transaction. Lower kafka.transaction-timeout (it must still exceed "
                    + "job.checkpoint-interval) or raise " + BROKER_MAX + " on the brokers");
        }
    }

    private static Optional<Long> smallestMaximum(Admin admin, Duration wait) throws Exception {
        Collection<Node> nodes = admin.describeCluster().nodes().get(wait.toMillis(), TimeUnit.MILLISECONDS);
        List<ConfigResource> brokers = nodes.stream()
                .map(n -> new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(n.id()))).toList();
        Map<ConfigResource, Config> configs = admin.describeConfigs(brokers).all().get(wait.toMillis(), TimeUnit.MILLISECONDS);
        return configs.values().stream().map(c -> c.get(BROKER_MAX)).filter(e -> e != null && e.value() != null)
                .map(ConfigEntry::value).map(Long::parseLong).min(Long::compare);
    }
}
