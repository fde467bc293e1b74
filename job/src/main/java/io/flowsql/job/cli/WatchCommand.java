package io.flowsql.job.cli;

import io.flowsql.config.kafka.KafkaClients;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Prints answers as they are committed (read_committed), optionally until a number of them or given requests
 * arrived ({@link AnswerSelection}); then exits 0, or 4 when any of them failed; 3 when --count or --ids-file was not
 * met within --timeout (without either, the timeout just ends the watch).
 */
@Command(name = "watch", mixinStandardHelpOptions = true, description = "Print answers as they arrive (read_committed); "
        + "exit code 0, or 4 when any answer shown failed; with --count or --ids-file, 3 when they did not all arrive within --timeout.")
final class WatchCommand implements Callable<Integer> {

    @Mixin
    KafkaConnection kafka;

    @Option(names = {"-t", "--topic"}, defaultValue = "answers", description = "Answers topic (default ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = "--count", defaultValue = "0", description = "Stop after this many answers (0: run until interrupted).")
    int count;

    @Option(names = "--ids-file", description = "Only answers to the request ids in this file (one a line), one each; stop when all arrived.")
    Path idsFile;

    @Option(names = "--timeout", defaultValue = "0s", description = "Give up after this long (e.g. 150s; 0s: never). Exit code 3 on timeout.")
    String timeout;

    @Option(names = "--from-latest", description = "Only answers committed from now on (default: from the beginning).")
    boolean fromLatest;

    @Option(names = "--json", description = "Print each answer's JSON instead of the readable form.")
    boolean json;

    @Option(names = "--rows", defaultValue = "5", description = "Rows shown per answer (default ${DEFAULT-VALUE}).")
    int rows;

    @Option(names = "--progress-every", defaultValue = "15s",
            description = "While waiting, say on stderr how many answers arrived, this often (default ${DEFAULT-VALUE}; 0s: never).")
    String progressEvery;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        AnswerSelection selection = idsFile == null ? AnswerSelection.firstOf(count)
                : AnswerSelection.ofIds(new HashSet<>(Files.readAllLines(idsFile, StandardCharsets.UTF_8)));
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Duration limit = org.apache.flink.util.TimeUtils.parseDuration(timeout);
        long started = System.nanoTime();
        long deadline = limit.isZero() ? Long.MAX_VALUE : started + limit.toNanos();
        long every = org.apache.flink.util.TimeUtils.parseDuration(progressEvery).toNanos();
        long nextProgress = every == 0 ? Long.MAX_VALUE : started + every;
        AnswerPrinter printer = new AnswerPrinter(out, rows);
        int failed = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.answersReader(kafka.factory(), "flowsql-watch", fromLatest)) {
            consumer.subscribe(List.of(topic));
            while (!selection.done()) {
                long now = System.nanoTime();
                if (now > deadline) {
                    if (selection.bounded()) {
                        err.println("timed out after " + timeout + " with " + selection.progress());
                        err.flush();
                        return 3;
                    }
                    err.println("watched for " + timeout + ": " + selection.progress());
                    break;
                }
                if (now > nextProgress) {
                    err.println("still waiting after " + Duration.ofNanos(now - started).toSeconds() + " s: " + selection.progress());
                    err.flush();
                    nextProgress = now + every;
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(250))) {
                    AnswerEvent a;
                    try {
                        a = EventJson.parseAnswer(r.value());
                    } catch (UncheckedIOException e) {
                        err.println("unreadable record at " + r.partition() + "@" + r.offset());
                        continue;
                    }
                    if (!selection.take(a.requestId)) {
                        continue;
                    }
                    if (json) {
                        out.println(new String(r.value(), StandardCharsets.UTF_8));
                        out.flush();
                    } else {
                        printer.print(a);
                    }
                    if ("failed".equals(a.status)) {
                        failed++;
                    }
                }
            }
        }
        if (failed > 0) {
            err.println(failed + " of " + selection.shown() + " answers failed (status failed; each names its stage and error)");
            err.flush();
            return 4;
        }
        err.flush();
        return 0;
    }
}
