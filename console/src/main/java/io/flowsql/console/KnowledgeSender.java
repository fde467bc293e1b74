package io.flowsql.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.events.EventJson;
import io.flowsql.config.kafka.KafkaClients;
import io.flowsql.config.kafka.KafkaClientFactory;
import io.flowsql.knowledge.KnowledgeRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Produces a definition a person adds on the page to the job's knowledge topic (schemas/knowledge.schema.json), keyed
 * by its knowledge id like the CLI's {@code knowledge add}; checked against the schema first, so the console never sends
 * a record the job would turn into a dead letter for its shape. The tenant is the caller's (its token's), never the page's.
 */
final class KnowledgeSender implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final SecureRandom random = new SecureRandom();

    KnowledgeSender(KafkaClientFactory kafka, String topic) {
        this.producer = KafkaClients.questionsProducer(kafka);
        this.topic = topic;
    }

    /** The add record as sent: a new knowledge id, the database, the term and its definition, the tenant (null: none). */
    ObjectNode addition(String dbId, String term, String definition, String tenant) {
        byte[] id = new byte[12];
        random.nextBytes(id);
        return KnowledgeRecords.addition("console-kn-" + HexFormat.of().formatHex(id), dbId, term.strip(), definition.strip(),
                null, tenant);
    }

    /** Sends it once the schema accepts it (else refuses with the schema's reason); waits for the broker's acknowledgement. */
    void send(ObjectNode record) throws InterruptedException, ExecutionException, TimeoutException {
        List<String> violations = KnowledgeRecords.violations(record);
        if (!violations.isEmpty()) {
            throw new HttpIo.Refused(400, "not a valid definition: " + String.join("; ", violations));
        }
        byte[] key = record.get("knowledge_id").asText().getBytes(StandardCharsets.UTF_8);
        producer.send(new ProducerRecord<>(topic, key, EventJson.toBytes(record))).get(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        producer.close();
    }
}
