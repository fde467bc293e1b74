package io.flowsql.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.events.EventJson;
import io.flowsql.config.kafka.KafkaClients;
import io.flowsql.config.kafka.KafkaClientFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Follows the answers and dead-letters topics (read_committed: an answer is seen once the job's transaction committed
 * it) from the moment the console starts, and hands each record whose dialogue a session started to that session; the
 * rest (other clients' dialogues) is skipped unread beyond its key. One thread; it never writes to a browser. Every
 * {@link #CHECK_MILLIS} it asks the broker for the topics' ends, so its {@link #health()} says when it is behind, when
 * the broker does not answer, and when it stopped.
 */
final class AnswerFollower implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AnswerFollower.class);
    static final long CHECK_MILLIS = 2_000;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String answersTopic;
    private final String deadLettersTopic;
    private final Sessions sessions;
    private final Thread thread;
    private final CountDownLatch assigned = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile FollowerHealth health = FollowerHealth.starting();

    AnswerFollower(KafkaClientFactory kafka, String answersTopic, String deadLettersTopic, Sessions sessions) {
        this.consumer = KafkaClients.answersReader(kafka, "flowsql-console", true);
        this.answersTopic = answersTopic;
        this.deadLettersTopic = deadLettersTopic;
        this.sessions = sessions;
        this.thread = new Thread(this::run, "console-answer-follower");
        this.thread.setDaemon(true);
    }

    /** Starts following; returns once the topics' partitions are assigned, so no answer to a later question is missed. */
    void start(Duration within) throws InterruptedException {
        thread.start();
        long deadline = System.nanoTime() + within.toNanos();
        while (!assigned.await(100, TimeUnit.MILLISECONDS)) {
            if (!thread.isAlive()) {
                // e.g. a topic name the broker refuses: say why now rather than wait out the deadline
                throw new IllegalStateException("the answer follower stopped before following " + answersTopic + ": "
                        + health().detail());
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("no partitions of " + answersTopic + " assigned within " + within
                        + ": is Kafka at the configured kafka.bootstrap-servers, and does the topic exist?");
            }
        }
    }

    /** How the following goes, as /api/health and the page show it. */
    FollowerHealth health() {
        FollowerHealth now = health;
        return thread.isAlive() || now.state() == FollowerHealth.State.DOWN ? now : FollowerHealth.down("the follower thread ended");
    }

    private void run() {
        try {
            consumer.subscribe(List.of(answersTopic, deadLettersTopic));
            long nextCheck = 0;
            while (running) {
                var records = consumer.poll(Duration.ofMillis(200));
                if (assigned.getCount() > 0 && consumer.assignment().stream().anyMatch(p -> p.topic().equals(answersTopic))) {
                    // "latest" is resolved lazily: fix the positions now, before the console takes questions.
                    consumer.assignment().forEach(consumer::position);
                    assigned.countDown();
                }
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    route(r);
                }
                if (assigned.getCount() == 0 && System.nanoTime() - nextCheck >= 0) {
                    health = FollowerHealth.check(consumer);
                    nextCheck = System.nanoTime() + CHECK_MILLIS * 1_000_000;
                }
            }
            health = FollowerHealth.down("the console is closing");
        } catch (WakeupException e) {
            health = FollowerHealth.down(running ? e.toString() : "the console is closing");
            if (running) {
                LOG.error("the console stopped following {}", answersTopic, e);
            }
        } catch (RuntimeException e) {
            health = FollowerHealth.down(e.toString());
            LOG.error("the console stopped following {}", answersTopic, e);
        } finally {
            consumer.close();
        }
    }

    private void route(ConsumerRecord<byte[], byte[]> r) {
        if (r.key() == null) {
            return;
        }
        String dialogueId = new String(r.key(), StandardCharsets.UTF_8);
        sessions.ownerOf(dialogueId).ifPresent(session -> {
            try {
                JsonNode value = EventJson.mapper().readTree(r.value());
                if (r.topic().equals(answersTopic)) {
                    String db = session.databaseOf(dialogueId);
                    if (dialogueId.equals(value.path("dialogue_id").asText()) && value.hasNonNull("request_id")) {
                        session.publishAnswer(value.get("request_id").asText(), db, value.toString());
                    }
                } else {
                    ObjectNode letter = deadLetter(dialogueId, value);
                    if (letter.hasNonNull("request_id")) {
                        session.questionDone(letter.get("request_id").asText());
                    }
                    session.publish("dead_letter", letter.toString());
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("unreadable record at {}-{}@{}", r.topic(), r.partition(), r.offset());
            }
        });
    }

    /** What the page shows of a dead letter: the dialogue, the request id when the excerpt names one, and why. */
    private static ObjectNode deadLetter(String dialogueId, JsonNode value) {
        ObjectNode out = EventJson.mapper().createObjectNode();
        out.put("dialogue_id", dialogueId);
        out.put("reason", value.path("reason").asText());
        try {
            JsonNode raw = EventJson.mapper().readTree(value.path("raw").asText(""));
            if (raw != null && raw.hasNonNull("request_id")) {
                out.put("request_id", raw.get("request_id").asText());
            }
        } catch (IOException e) {
            // a truncated or unreadable excerpt names no request
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5_000);
    }
}
