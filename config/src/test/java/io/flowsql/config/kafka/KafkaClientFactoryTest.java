package io.flowsql.config.kafka;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The factory's layering (role defaults, pass-through, client file by reference, brokers) and what Kafka makes of it. */
class KafkaClientFactoryTest {

    @Test
    void passThroughOverridesTheRolesDefaultsAndTheBrokersOverrideEverything() {
        KafkaClientFactory kafka = new KafkaClientFactory("b:9092",
                Map.of("linger.ms", "7", "security.protocol", "SSL"), "");
        Properties p = kafka.properties(Map.of("linger.ms", "1", "acks", "all", "bootstrap.servers", "elsewhere:1"));
        assertThat(p).containsEntry("linger.ms", "7").containsEntry("acks", "all")
                .containsEntry("security.protocol", "SSL").containsEntry("bootstrap.servers", "b:9092");
    }

    @Test
    void theClientFilesValuesAreReferencesThatKafkaResolvesInsideTheClient(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "client.id=from-the-file\nsasl.jaas.config=secret-jaas-value\n");
        KafkaClientFactory kafka = new KafkaClientFactory("b:9092", Map.of("config.providers", "env"), file.toString());

        Map<String, String> passed = kafka.passThrough();
        assertThat(passed.toString()).doesNotContain("secret-jaas-value").doesNotContain("from-the-file");
        assertThat(passed).containsEntry("client.id", "${flowsqlfile:" + file + ":client.id}")
                .containsEntry("config.providers", "env,flowsqlfile")
                .containsEntry("config.providers.flowsqlfile.class",
                        "org.apache.kafka.common.config.provider.FileConfigProvider");
        assertThat(kafka.toString()).doesNotContain("secret-jaas-value");

        Properties props = kafka.properties(Map.of());
        props.remove("config.providers"); // only the file provider: the env one is not configured in this test
        props.put("config.providers", KafkaClientFactory.FILE_PROVIDER);
        props.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        props.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
        assertThat(new ProducerConfig(props).getString(ProducerConfig.CLIENT_ID_CONFIG)).isEqualTo("from-the-file");
    }

    @Test
    void aMissingClientFileOrAPathKafkaCannotQuoteIsRefused(@TempDir Path dir) {
        KafkaClientFactory missing = new KafkaClientFactory("b:9092", Map.of(), dir.resolve("none").toString());
        assertThatThrownBy(missing::passThrough).hasMessageContaining("kafka.client-file");
        assertThatThrownBy(() -> new KafkaClientFactory("b:9092", Map.of(), "C:/x")).hasMessageContaining("':'");
        assertThatThrownBy(() -> new KafkaClientFactory(" ", Map.of(), "")).hasMessageContaining("bootstrap");
    }
}
