package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flowsql.devstack.LocalKafkaBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job's transaction timeout against a real broker whose transaction.max.timeout.ms is lowered to one minute. */
class BrokerTransactionCheckTest {
    @Test
    void aTimeoutAboveTheBrokersMaximumIsRefusedAtStartNamingBothSettings(@TempDir Path dir) {
        try (LocalKafkaBroker broker = LocalKafkaBroker.start(dir, Map.of("transaction.max.timeout.ms", "60000"))) {
            assertThatThrownBy(() -> BrokerTransactionCheck.verify(KafkaClientFactory.plain(broker.bootstrapServers()),
                    JobOptions.TRANSACTION_TIMEOUT.defaultValue(), Duration.ofSeconds(20)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("kafka.transaction-timeout (900000 ms)")
                    .hasMessageContaining("transaction.max.timeout.ms (60000 ms)");
            assertThatCode(() -> BrokerTransactionCheck.verify(KafkaClientFactory.plain(broker.bootstrapServers()),
                    Duration.ofSeconds(30), Duration.ofSeconds(20))).doesNotThrowAnyException();
        }
    }

    @Test
    void aBrokerThatCannotBeAskedDoesNotStopTheStart() {
        assertThatCode(() -> BrokerTransactionCheck.verify(KafkaClientFactory.plain("127.0.0.1:1"), Duration.ofMinutes(15),
                Duration.ofSeconds(2))).doesNotThrowAnyException();
    }
}
