package io.flowsql.config.kafka;

import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.config.provider.FileConfigProvider;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The one way to make a Kafka client (producer, consumer, admin, Flink source or sink builder, the SQL script's
 * {@code properties.*}): the role's own defaults, then the {@code kafka.client.*} pass-through, then the properties of
 * {@code kafka.client-file} by reference, then the bootstrap servers. The file's values are never read into this
 * object: each becomes {@code ${flowsqlfile:<path>:<key>}}, which Kafka's {@link FileConfigProvider} resolves inside
 * the client wherever it runs, so a secret kept there never reaches a log, a job parameter or a printed script.
 */
public final class KafkaClientFactory implements Serializable {
    private static final long serialVersionUID = 1L;
    /** The config provider alias the client file's references use. */
    static final String FILE_PROVIDER = "flowsqlfile";

    private final String bootstrapServers;
    private final TreeMap<String, String> clientProperties;
    private final String clientFile;

    /**
     * @param bootstrapServers the brokers
     * @param clientProperties {@code kafka.client.*} without the prefix (may use Kafka's own config providers, e.g.
     *                         {@code ${env:VAR}} with {@code config.providers=env})
     * @param clientFile a properties file of client properties, blank for none
     */
    public KafkaClientFactory(String bootstrapServers, Map<String, String> clientProperties, String clientFile) {
        this.bootstrapServers = Objects.requireNonNull(bootstrapServers, "bootstrapServers").trim();
        this.clientProperties = new TreeMap<>(clientProperties);
        this.clientFile = clientFile == null ? "" : clientFile.trim();
        if (this.bootstrapServers.isEmpty()) {
            throw new IllegalArgumentException("a Kafka client needs bootstrap servers");
        }
        if (this.clientFile.contains(":") || this.clientFile.contains("}")) {
            throw new IllegalArgumentException("kafka.client-file cannot contain ':' or '}' (it is written into Kafka's "
                    + "${provider:path:key} references): " + this.clientFile);
        }
    }

    /** Bootstrap servers alone (a local, unsecured broker). */
    public static KafkaClientFactory plain(String bootstrapServers) {
        return new KafkaClientFactory(bootstrapServers, Map.of(), "");
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The client properties of a role: its defaults, then kafka.client.*, then the client file's references, then the brokers. */
    public Properties properties(Map<String, String> roleDefaults) {
        Properties props = new Properties();
        props.putAll(roleDefaults);
        props.putAll(passThrough());
        props.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return props;
    }

    /**
     * kafka.client.* and the client file's keys as references (no bootstrap servers, no role defaults): what the SQL
     * script renders as {@code properties.*}. Holds no value of the client file.
     */
    public Map<String, String> passThrough() {
        Map<String, String> props = new TreeMap<>(clientProperties);
        if (clientFile.isEmpty()) {
            return props;
        }
        for (String key : fileKeys()) {
            props.put(key, "${" + FILE_PROVIDER + ":" + clientFile + ":" + key + "}");
        }
        Set<String> providers = new LinkedHashSet<>();
        String declared = clientProperties.getOrDefault(CONFIG_PROVIDERS, "");
        for (String alias : declared.split(",")) {
            if (!alias.isBlank()) {
                providers.add(alias.trim());
            }
        }
        providers.add(FILE_PROVIDER);
        props.put(CONFIG_PROVIDERS, String.join(",", providers));
        props.put(CONFIG_PROVIDERS + "." + FILE_PROVIDER + ".class", FileConfigProvider.class.getName());
        return props;
    }

    private static final String CONFIG_PROVIDERS = "config.providers";

    private Set<String> fileKeys() {
        Properties file = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(clientFile), StandardCharsets.UTF_8)) {
            file.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read kafka.client-file " + clientFile, e);
        }
        return new TreeSet<>(file.stringPropertyNames());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KafkaClientFactory f && bootstrapServers.equals(f.bootstrapServers)
                && clientProperties.equals(f.clientProperties) && clientFile.equals(f.clientFile);
    }

    @Override
    public int hashCode() {
        return Objects.hash(bootstrapServers, clientProperties, clientFile);
    }

    /** The brokers and the client file's path; kafka.client.* values are left out (they may hold credentials). */
    @Override
    public String toString() {
        return "Kafka at " + bootstrapServers + (clientFile.isEmpty() ? "" : " with client file " + clientFile)
                + " and kafka.client." + clientProperties.keySet();
    }

    public <K, V> KafkaProducer<K, V> producer(Map<String, String> roleDefaults, Serializer<K> keys, Serializer<V> values) {
        return new KafkaProducer<>(properties(roleDefaults), keys, values);
    }

    public <K, V> KafkaConsumer<K, V> consumer(Map<String, String> roleDefaults, Deserializer<K> keys, Deserializer<V> values) {
        return new KafkaConsumer<>(properties(roleDefaults), keys, values);
    }

    public Admin admin(Map<String, String> roleDefaults) {
        return Admin.create(properties(roleDefaults));
    }

    /** A Flink Kafka source builder with the brokers and the client properties set; the caller adds topics and the rest. */
    public <T> KafkaSourceBuilder<T> source(Map<String, String> roleDefaults) {
        return KafkaSource.<T>builder().setProperties(properties(roleDefaults));
    }

    /** A Flink Kafka sink builder with the brokers and the client properties set; the caller adds the serializer and the rest. */
    public <T> KafkaSinkBuilder<T> sink(Map<String, String> roleDefaults) {
        return KafkaSink.<T>builder().setKafkaProducerConfig(properties(roleDefaults));
    }
}
