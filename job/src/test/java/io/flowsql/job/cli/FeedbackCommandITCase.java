package io.flowsql.job.cli;

import io.flowsql.config.kafka.KafkaClientFactory;
import io.flowsql.config.kafka.KafkaClients;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code feedback} against a real broker: unknown request ids and feedback ids are refused before anything is sent, a
 * contradicting verdict is refused until the earlier one is retracted, and after sending the command reports the
 * job's verdict: refused with the dead letter's reason, or accepted once the job's feedback group committed past the
 * record. The test writes what the job would (its dead letter, its group's commit).
 */
class FeedbackCommandITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(new TopicSpec("answers", 1), new TopicSpec("feedback", 1),
            new TopicSpec("dead-letters", 1));

    record Run(int exitCode, String out, String err) {}

    @Test
    void unknownIdsAndContradictionsAreRefusedAndTheJobsVerdictIsReported() throws Exception {
        AnswerEvent answer = new AnswerEvent();
        answer.requestId = "a-1";
        answer.dialogueId = "d-1";
        answer.status = "answered";
        answer.answeredAt = "2026-11-27T00:00:00Z";
        send("answers", "d-1", EventJson.toBytes(answer));

        Run unknown = feedback("--request-id", "nope", "--correct", "--wait", "0s");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("not sent: no answer with request_id nope on the answers topic");
        Run unknownRetraction = feedback("--retract", "fb-never", "--wait", "0s");
        assertThat(unknownRetraction.exitCode()).isEqualTo(2);
        assertThat(unknownRetraction.err()).contains("no feedback with id fb-never on the feedback topic");

        assertThat(feedback("--id", "fb-c", "--request-id", "a-1", "--correct", "--wait", "0s").exitCode()).isZero();
        Run contradiction = feedback("--id", "fb-w", "--request-id", "a-1", "--wrong", "--wait", "0s");
        assertThat(contradiction.exitCode()).isEqualTo(2);
        assertThat(contradiction.err()).contains("answer a-1 already has the verdict 'correct' (feedback fb-c); "
                + "retract it first: feedback --retract fb-c");
        assertThat(feedback("--id", "fb-c2", "--request-id", "a-1", "--correct", "--wait", "0s").exitCode())
                .as("the same verdict again is no contradiction").isZero();
        assertThat(feedback("--retract", "fb-c", "--wait", "0s").exitCode()).isZero();
        assertThat(feedback("--retract", "fb-c2", "--wait", "0s").exitCode()).isZero();
        assertThat(feedback("--id", "fb-w", "--request-id", "a-1", "--wrong", "--wait", "0s").exitCode()).isZero();
        assertThat(records("feedback")).as("two verdicts, two retractions, the wrong verdict").hasSize(5);

        CompletableFuture<Run> refused = CompletableFuture.supplyAsync(() -> feedback("--id", "fb-bad", "--db", "concert_singer",
                "--question", "q", "--sql", "DELETE FROM singer", "--wait", "60s"));
        ConsumerRecord<byte[], byte[]> bad = awaitRecord("feedback", "fb-bad");
        DeadLetterEvent dead = new DeadLetterEvent();
        dead.topic = "feedback";
        dead.key = "fb-bad";
        dead.partition = bad.partition();
        dead.offset = bad.offset();
        dead.reason = "feedback_refused: its SQL is not read-only";
        send("dead-letters", "fb-bad", EventJson.toBytes(dead));
        Run refusedRun = refused.get(90, TimeUnit.SECONDS);
        assertThat(refusedRun.exitCode()).isEqualTo(5);
        assertThat(refusedRun.out()).contains("pair fb-bad").contains("refused by the job: feedback_refused: its SQL is not read-only");

        CompletableFuture<Run> accepted = CompletableFuture.supplyAsync(() -> feedback("--id", "fb-good", "--db", "concert_singer",
                "--question", "q", "--sql", "SELECT 1", "--group", "test-job", "--wait", "60s"));
        ConsumerRecord<byte[], byte[]> good = awaitRecord("feedback", "fb-good");
        try (KafkaConsumer<byte[], byte[]> job = CaughtUpCommand.groupReader(
                new io.flowsql.config.kafka.KafkaClientFactory(KAFKA.bootstrapServers(), Map.of(), null), "test-job-learn")) {
            job.commitSync(Map.of(new TopicPartition("feedback", good.partition()), new OffsetAndMetadata(good.offset() + 1)));
        }
        Run acceptedRun = accepted.get(90, TimeUnit.SECONDS);
        assertThat(acceptedRun.exitCode()).as(acceptedRun.out()).isZero();
        assertThat(acceptedRun.out()).contains("accepted by the job");

        Run noJob = feedback("--id", "fb-late", "--db", "concert_singer", "--question", "q", "--sql", "SELECT 2",
                "--group", "no-such-job", "--wait", "2s");
        assertThat(noJob.exitCode()).isEqualTo(6);
        assertThat(noJob.out()).contains("no verdict from the job yet: the job has not read it within 2 s");
    }

    private static Run feedback(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of("-b", KAFKA.bootstrapServers()));
        all.addAll(List.of(args));
        int code = new CommandLine(new FeedbackCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute(all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    private static void send(String topic, String key, byte[] value) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = KafkaClients.questionsProducer(KAFKA.bootstrapServers())) {
            producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value)).get();
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> records(String topic) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        TopicScan.all(KAFKA.bootstrapServers(), topic, Duration.ofSeconds(30), out::add);
        return out;
    }

    private static ConsumerRecord<byte[], byte[]> awaitRecord(String topic, String key) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : records(topic)) {
                if (r.key() != null && key.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                    return r;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no record " + key + " on " + topic);
    }
}
