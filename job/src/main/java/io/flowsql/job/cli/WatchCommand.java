package io.flowsql.job.cli;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Prints answers as they are committed (read_committed), optionally until a number of them or given requests
 * arrived; then exits 0, or 4 when any of them failed (3 on timeout).
 */
@Command(name = "watch", mixinStandardHelpOptions = true, description = "Print answers as they arrive (read_committed); "
        + "with --count or --ids-file the exit code is 0 when all arrived, 4 when any of them failed, 3 on timeout.")
final class WatchCommand implements Callable<Integer> {

    @Mixin
    KafkaConnection kafka;

    @Option(names = {"-t", "--topic"}, defaultValue = "answers", description = "Answers topic (default ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = "--count", defaultValue = "0", description = "Stop after this many answers (0: run until interrupted).")
    int count;

    @Option(names = "--ids-file", description = "Only answers to the request ids in this file; stop when all arrived.")
    Path idsFile;

    @Option(names = "--timeout", defaultValue = "0s", description = "Give up after this long (e.g. 150s; 0s: never). Exit code 3 on timeout.")
    String timeout;

    @Option(names = "--from-latest", description = "Only answers committed from now on (default: from the beginning).")
    boolean fromLatest;

    @Option(names = "--json", description = "Print each answer's JSON instead of the readable form.")
    boolean json;

    @Option(names = "--rows", defaultValue = "5", description = "Rows shown per answer (default ${DEFAULT-VALUE}).")
    int rows;

    @Override
    public Integer call() throws Exception {
        Set<String> wanted = idsFile == null ? Set.of() : new HashSet<>(Files.readAllLines(idsFile, StandardCharsets.UTF_8));
        wanted = new HashSet<>(wanted.stream().filter(s -> !s.isBlank()).toList());
        int target = !wanted.isEmpty() ? wanted.size() : count;
        Duration limit = org.apache.flink.util.TimeUtils.parseDuration(timeout);
        long deadline = limit.isZero() ? Long.MAX_VALUE : System.nanoTime() + limit.toNanos();
        AnswerPrinter printer = new AnswerPrinter(System.out, rows);
        int shown = 0;
        int failed = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.answersReader(kafka.factory(), "flowsql-watch", fromLatest)) {
            consumer.subscribe(List.of(topic));
            while (target == 0 || shown < target) {
                if (System.nanoTime() > deadline) {
                    System.err.println("timed out after " + timeout + " with " + shown + " of " + target + " answers");
                    return 3;
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(250))) {
                    AnswerEvent a;
                    try {
                        a = EventJson.parseAnswer(r.value());
                    } catch (UncheckedIOException e) {
                        System.err.println("unreadable record at " + r.partition() + "@" + r.offset());
                        continue;
                    }
                    if (!wanted.isEmpty() && !wanted.remove(a.requestId)) {
                        continue;
                    }
                    if (json) {
                        System.out.println(new String(r.value(), StandardCharsets.UTF_8));
                    } else {
                        printer.print(a);
                    }
                    shown++;
                    if ("failed".equals(a.status)) {
                        failed++;
                    }
                }
            }
        }
        if (failed > 0) {
            System.err.println(failed + " of " + shown + " answers failed (status failed; each names its stage and error)");
            return 4;
        }
        return 0;
    }
}
