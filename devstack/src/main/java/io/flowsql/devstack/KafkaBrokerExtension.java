package io.flowsql.devstack;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;

/**
 * Starts one real broker per test class on free ports (register it as a static field with
 * {@code @RegisterExtension}) and always stops it, so no test leaves a broker behind.
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, AfterAllCallback {
    private final List<TopicSpec> topics;
    private LocalKafkaBroker broker;

    public KafkaBrokerExtension(TopicSpec... topics) {
        this.topics = List.of(topics);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        try {
            broker = LocalKafkaBroker.start(Files.createTempDirectory("flowsql-kafka-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!topics.isEmpty()) {
            broker.createTopics(topics);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }

    public LocalKafkaBroker broker() {
        if (broker == null) {
            throw new IllegalStateException("the broker runs only between beforeAll and afterAll");
        }
        return broker;
    }

    public String bootstrapServers() {
        return broker().bootstrapServers();
    }
}
