package io.flowsql.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionParse;
import io.flowsql.config.kafka.KafkaClients;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Produces a person's question to the questions topic the way the CLI does: checked against the questions schema
 * first, keyed by its dialogue id, acknowledged by every replica before the page is told it was asked.
 */
final class QuestionSender implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;

    QuestionSender(KafkaClientFactory kafka, String topic) {
        this.producer = KafkaClients.questionsProducer(kafka);
        this.topic = topic;
    }

    /** A question record ready to send, with the job's own reading of it (valid, or why not). */
    record Prepared(String dialogueId, byte[] value, QuestionParse check) {}

    /** The question as the job will read it; when {@code check().isValid()} is false it must not be sent. */
    static Prepared prepare(String requestId, String dialogueId, String dbId, String tenant, String question) {
        ObjectNode node = EventJson.mapper().createObjectNode();
        node.put("request_id", requestId);
        node.put("dialogue_id", dialogueId);
        node.put("db_id", dbId);
        if (tenant != null) {
            node.put("tenant", tenant);     // the caller's, from its token: the job holds the question to its policy
        }
        node.put("question", question);
        node.putObject("options").put("summarize", true);   // the console shows every answer's summary
        byte[] value = EventJson.toBytes(node);
        return new Prepared(dialogueId, value, EventJson.parseQuestion(value));
    }

    /** Sends a valid prepared question; waits for the broker's acknowledgement (at most 30 s). */
    void send(Prepared question) throws InterruptedException, ExecutionException, TimeoutException {
        if (!question.check().isValid()) {
            throw new IllegalArgumentException("not a valid question: " + question.check().reason());
        }
        producer.send(new ProducerRecord<>(topic, question.dialogueId().getBytes(StandardCharsets.UTF_8), question.value()))
                .get(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        producer.close();
    }
}
