package io.flowsql.job.cli;

import io.flowsql.config.kafka.KafkaClients;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.ResultPreview;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code watch} against a real broker: answers to the wanted ids interleaved with others (and a repeat) in one
 * batch are shown exactly once each and nothing else; counts and exit codes say what happened.
 */
class WatchCommandITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(
            new TopicSpec("answers-ids", 1), new TopicSpec("answers-plain", 1), new TopicSpec("answers-failed", 1));
    private static final Pattern HEADER = Pattern.compile("(?m)^── (\\S+) ");

    @TempDir
    Path dir;

    record Run(int exitCode, String out, String err) {
        List<String> shownIds() {
            List<String> ids = new ArrayList<>();
            Matcher m = HEADER.matcher(out);
            while (m.find()) {
                ids.add(m.group(1));
            }
            return ids;
        }
    }

    @Test
    void idsFileShowsExactlyTheWantedAnswersHoweverTheyInterleave() throws Exception {
        send("answers-ids", List.of(answer("o-1", "answered"), answer("w-1", "answered"), answer("o-2", "answered"),
                answer("w-2", "answered"), answer("o-3", "failed"), answer("w-1", "answered"), answer("w-3", "answered"),
                answer("o-4", "answered"), answer("w-2", "answered"), answer("o-5", "failed"), answer("o-6", "answered")));
        Path ids = Files.write(dir.resolve("ids"), List.of("w-1", "", "w-3", "w-2"), StandardCharsets.UTF_8);

        Run run = watch("-t", "answers-ids", "--ids-file", ids.toString(), "--timeout", "60s");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.shownIds()).containsExactly("w-1", "w-2", "w-3");
        assertThat(run.out()).contains("a | b").contains("   6 rows (5 shown)\n");
    }

    @Test
    void withoutACountATimeoutEndsTheWatchWithAPlainCountAndExitZero() throws Exception {
        send("answers-plain", List.of(answer("p-1", "answered"), answer("p-2", "answered"), answer("p-3", "answered")));

        Run run = watch("-t", "answers-plain", "--timeout", "3s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.shownIds()).containsExactly("p-1", "p-2", "p-3");
        assertThat(run.err()).contains("watched for 3s: 3 answers").doesNotContain(" of 0");

        Run short1 = watch("-t", "answers-plain", "--count", "5", "--timeout", "3s");
        assertThat(short1.exitCode()).as("a count not met is a timeout").isEqualTo(3);
        assertThat(short1.err()).contains("timed out after 3s with 3 of 5 answers");

        Run two = watch("-t", "answers-plain", "--count", "2", "--timeout", "30s");
        assertThat(two.exitCode()).isZero();
        assertThat(two.shownIds()).as("stops within a batch at the count").containsExactly("p-1", "p-2");
    }

    @Test
    void aFailedWantedAnswerExitsFourButAFailedOtherAnswerDoesNot() throws Exception {
        send("answers-failed", List.of(answer("f-1", "failed"), answer("f-2", "answered"), answer("f-3", "failed")));
        Path ok = Files.write(dir.resolve("ok"), List.of("f-2"), StandardCharsets.UTF_8);
        Path bad = Files.write(dir.resolve("bad"), List.of("f-2", "f-3"), StandardCharsets.UTF_8);

        Run fine = watch("-t", "answers-failed", "--ids-file", ok.toString(), "--timeout", "30s");
        assertThat(fine.exitCode()).as(fine.err()).isZero();
        assertThat(fine.shownIds()).containsExactly("f-2");

        Run failed = watch("-t", "answers-failed", "--ids-file", bad.toString(), "--timeout", "30s");
        assertThat(failed.exitCode()).isEqualTo(4);
        assertThat(failed.shownIds()).containsExactly("f-2", "f-3");
        assertThat(failed.err()).contains("1 of 2 answers failed");
    }

    private static Run watch(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of("-b", KAFKA.bootstrapServers()));
        all.addAll(List.of(args));
        CommandLine cli = new CommandLine(new WatchCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
        int code = cli.execute(all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    private static void send(String topic, List<AnswerEvent> answers) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = KafkaClients.questionsProducer(KAFKA.bootstrapServers())) {
            for (AnswerEvent a : answers) {
                producer.send(new ProducerRecord<>(topic, a.dialogueId.getBytes(StandardCharsets.UTF_8), EventJson.toBytes(a)));
            }
            producer.flush();
        }
    }

    private static AnswerEvent answer(String requestId, String status) {
        AnswerEvent a = new AnswerEvent();
        a.requestId = requestId;
        a.dialogueId = "d-" + requestId;
        a.dbId = "concert_singer";
        a.question = "question " + requestId;
        a.status = status;
        a.answeredAt = "2026-11-27T00:00:00Z";
        if ("failed".equals(status)) {
            a.error = "boom";
            a.errorKind = "internal";
        } else {
            a.sql = "SELECT a, b FROM t";
            a.result = new ResultPreview();
            a.result.columns = List.of("a", "b");
            for (int i = 0; i < 6; i++) {
                a.result.rows.add(List.of("x" + i, "y" + i));
            }
            a.result.rowCount = 6;
        }
        return a;
    }
}
