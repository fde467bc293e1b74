package io.flowsql.job;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka.client.* options reach the client configuration of both Kafka sources and both exactly-once sinks, beside the
 * job's own settings (read through the connector's own accessors for its client configuration, which it keeps to itself).
 */
class KafkaClientPassThroughTest {
    private static final JobConfig CONFIG = JobConfig.of(Map.of(
            "kafka.bootstrap-servers", "broker-1:9093",
            "kafka.client.security.protocol", "SASL_SSL",
            "kafka.client.sasl.mechanism", "SCRAM-SHA-512",
            "kafka.client.ssl.truststore.location", "/etc/kafka/truststore.p12"));

    @Test
    void everySourceGetsThePassedThroughPropertiesAndKeepsItsOwn() throws Exception {
        for (KafkaSource<?> source : List.of(KafkaSources.questions(CONFIG), KafkaSources.answersFeedback(CONFIG))) {
            Map<String, String> client = ((Configuration) accessor(KafkaSource.class, "getConfiguration").invoke(source)).toMap();
            assertThat(client).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry("ssl.truststore.location", "/etc/kafka/truststore.p12")
                    .containsEntry("bootstrap.servers", "broker-1:9093").containsKey("isolation.level");
        }
    }

    /** An idle source asks the broker every 5 s, not twice a second; a kafka.client.* value changes that. */
    @Test
    void sourcesWaitLongerForAnIdleFetchUnlessTheClientPropertiesSayOtherwise() throws Exception {
        for (KafkaSource<?> source : List.of(KafkaSources.questions(CONFIG), KafkaSources.answersFeedback(CONFIG),
                KafkaSources.feedback(CONFIG), KafkaSources.committedAnswers(CONFIG))) {
            assertThat(clientOf(source)).containsEntry("fetch.max.wait.ms", "5000");
        }
        JobConfig given = JobConfig.of(Map.of("kafka.bootstrap-servers", "broker-1:9093",
                "kafka.client.fetch.max.wait.ms", "100"));
        assertThat(clientOf(KafkaSources.questions(given))).containsEntry("fetch.max.wait.ms", "100");
    }

    private static Map<String, String> clientOf(KafkaSource<?> source) throws Exception {
        return ((Configuration) accessor(KafkaSource.class, "getConfiguration").invoke(source)).toMap();
    }

    @Test
    void everySinkGetsThePassedThroughPropertiesAndKeepsItsOwn() throws Exception {
        for (KafkaSink<?> sink : List.of(KafkaSinks.answers(CONFIG), KafkaSinks.deadLetters(CONFIG))) {
            Properties client = (Properties) accessor(KafkaSink.class, "getKafkaProducerConfig").invoke(sink);
            assertThat(client).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry("bootstrap.servers", "broker-1:9093").containsKey("transaction.timeout.ms")
                    .containsKeys("key.serializer", "value.serializer");
        }
    }

    private static Method accessor(Class<?> type, String name) throws NoSuchMethodException {
        Method method = type.getDeclaredMethod(name);
        method.setAccessible(true);
        return method;
    }
}
