package io.flowsql.job.cli;

import io.flowsql.events.EventJson;
import io.flowsql.events.FeedbackEvent;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * {@code feedback}: sends one piece of feedback to the feedback topic (schemas/feedback.schema.json) — a verified
 * pair ({@code --db --question --sql}), a verdict on an answer ({@code --request-id --correct|--wrong [--sql]}) or a
 * retraction ({@code --retract ID}) — keyed by its feedback id, and prints the id. The job checks it (a bad one
 * becomes a dead letter: watch the dead-letters topic) and the next questions on that database use it.
 */
@Command(name = "feedback", mixinStandardHelpOptions = true,
        description = "Send a verified question-SQL pair, a verdict on an answer, or a retraction to the feedback topic.")
public final class FeedbackCommand implements Callable<Integer> {
    @Mixin
    KafkaConnection kafka;

    @Option(names = {"-t", "--topic"}, defaultValue = "feedback", description = "Feedback topic (default ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = "--id", description = "The feedback id (default: a new fb-<uuid>); sending the same id again changes nothing.")
    String id;

    @Option(names = "--db", description = "pair: the database (db_id).")
    String db;

    @Option(names = "--question", description = "pair: the question.")
    String question;

    @Option(names = "--sql", description = "pair: its SQL; verdict --wrong: the corrected SQL.")
    String sql;

    @Option(names = "--evidence", description = "pair: optional hint.")
    String evidence;

    @Option(names = "--notes", description = "pair: optional notes (who verified it).")
    String notes;

    @Option(names = "--request-id", description = "verdict: the answer's request_id.")
    String requestId;

    @ArgGroup(exclusive = true)
    Verdict verdict;

    static final class Verdict {
        @Option(names = "--correct", description = "verdict: the answer is correct (its question and SQL become a verified pair).")
        boolean correct;

        @Option(names = "--wrong", description = "verdict: the answer is wrong (give --sql to teach the correction).")
        boolean wrong;
    }

    @Option(names = "--retract", description = "retraction: the feedback id to forget.")
    String retract;

    @Override
    public Integer call() throws Exception {
        FeedbackEvent event = event();
        try (KafkaProducer<byte[], byte[]> producer = KafkaClients.questionsProducer(kafka.factory())) {
            producer.send(new ProducerRecord<>(topic, event.keyBytes(), EventJson.toBytes(event))).get();
        }
        System.out.println(event.kind + " " + event.feedbackId);
        return 0;
    }

    /** The event the options describe; refuses a mix of kinds or a kind's missing field. */
    FeedbackEvent event() {
        String feedbackId = id != null ? id : "fb-" + UUID.randomUUID();
        FeedbackEvent e;
        if (retract != null) {
            require(db == null && question == null && sql == null && requestId == null && verdict == null, "--retract takes no other field");
            e = FeedbackEvent.retraction(feedbackId, retract);
        } else if (requestId != null) {
            require(verdict != null, "a verdict needs --correct or --wrong");
            require(db == null && question == null, "a verdict names its answer by --request-id only");
            require(verdict.wrong || sql == null, "--sql goes with --wrong (the corrected SQL)");
            e = FeedbackEvent.verdict(feedbackId, requestId, verdict.correct, sql);
        } else {
            require(db != null && question != null && sql != null, "a pair needs --db, --question and --sql (or give --request-id or --retract)");
            e = FeedbackEvent.pair(feedbackId, db, question, sql);
            e.evidence = evidence;
            e.notes = notes;
        }
        e.sentAt = Instant.now().toString();
        return e;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(new FeedbackCommand()), message);
        }
    }
}
