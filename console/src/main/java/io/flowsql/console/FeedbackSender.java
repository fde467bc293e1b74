package io.flowsql.console;

import io.flowsql.events.EventJson;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.events.FeedbackParse;
import io.flowsql.config.kafka.KafkaClients;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Produces a person's verdict on an answer (correct, or wrong with the corrected SQL) to the job's feedback topic
 * (schemas/feedback.schema.json), keyed by its feedback id like the CLI's {@code feedback}; checked against the schema
 * first, so the console never sends a record the job would turn into a dead letter for its shape.
 */
final class FeedbackSender implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final SecureRandom random = new SecureRandom();

    FeedbackSender(KafkaClientFactory kafka, String topic) {
        this.producer = KafkaClients.questionsProducer(kafka);
        this.topic = topic;
    }

    /** The verdict as sent: a new feedback id, the request, correct or wrong (with the corrected SQL, or null). */
    FeedbackEvent verdict(String requestId, boolean correct, String correctedSql) {
        byte[] id = new byte[12];
        random.nextBytes(id);
        FeedbackEvent event = FeedbackEvent.verdict("console-fb-" + HexFormat.of().formatHex(id), requestId, correct, correctedSql);
        event.sentAt = Instant.now().toString();
        return event;
    }

    /** Sends it once the schema accepts it (else refuses with the schema's reason); waits for the broker's acknowledgement. */
    void send(FeedbackEvent event) throws InterruptedException, ExecutionException, TimeoutException {
        byte[] value = EventJson.toBytes(event);
        FeedbackParse check = EventJson.parseFeedback(value);
        if (!check.isValid()) {
            throw new HttpIo.Refused(400, "not valid feedback: " + check.reason());
        }
        producer.send(new ProducerRecord<>(topic, event.keyBytes(), value)).get(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        producer.close();
    }
}
