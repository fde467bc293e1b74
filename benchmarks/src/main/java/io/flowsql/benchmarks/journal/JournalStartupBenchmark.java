package io.flowsql.benchmarks.journal;

import io.flowsql.devstack.LocalKafkaBroker;
import io.flowsql.job.journal.KafkaJournalSource;
import io.flowsql.job.journal.KafkaStageJournal;
import io.flowsql.journal.JournalEntry;
import io.flowsql.journal.StageJournal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the stage journal costs a TaskManager that opens it on a full topic: a real in-process broker, N entries
 * (default 100,000; replies of about 600 characters, like a stage's SQL reply) written to the journal topic, then a
 * fresh journal opened with the default cache bounds and with a tenth of them: the time until it has caught up
 * (what an operator's open waits for) and the heap the cache holds (measured after a GC, and as the cache estimates
 * it). Usage: JournalStartupBenchmark [entries]
 */
public final class JournalStartupBenchmark {
    /** The stage the synthetic entries are journaled under: OpenSearch-SQL's generator, as the registry names it. */
    private static final String GENERATE_STAGE = io.flowsql.engine.StageRegistry.stagesOf(io.flowsql.engine.StageRegistry.OPENSEARCH)
            .stream().map(io.flowsql.engine.StageDeclaration::name).filter(n -> n.endsWith(".generate")).findFirst().orElseThrow();

    private JournalStartupBenchmark() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        Path dir = Files.createTempDirectory("journal-bench");
        try (LocalKafkaBroker broker = LocalKafkaBroker.start(dir)) {
            String topic = "journal-bench";
            KafkaJournalSource writerSource = new KafkaJournalSource(broker.bootstrapServers(), topic, Duration.ofDays(7),
                    1, 1);
            long started = System.nanoTime();
            try (StageJournal writer = writerSource.open()) {
                List<CompletableFuture<Void>> acks = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    acks.add(writer.record("req-" + (i / 8) + "|opensearch.generate|" + Integer.toHexString(i * 7919) + "|" + (i % 8),
                            entry("req-" + (i / 8), i)));
                    if (acks.size() >= 5_000) {
                        CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).join();
                        acks.clear();
                    }
                }
                CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).join();
            }
            System.out.printf("journal startup: %,d entries written in %,d ms%n", n, (System.nanoTime() - started) / 1_000_000);
            open(broker, topic, "defaults", KafkaJournalSource.DEFAULT_CACHE_ENTRIES, KafkaJournalSource.DEFAULT_CACHE_BYTES);
            open(broker, topic, "a tenth", KafkaJournalSource.DEFAULT_CACHE_ENTRIES / 10, KafkaJournalSource.DEFAULT_CACHE_BYTES / 10);
        }
    }

    private static void open(LocalKafkaBroker broker, String topic, String label, int entries, long bytes) {
        long before = usedHeap();
        long started = System.nanoTime();
        try (StageJournal journal = new KafkaJournalSource(broker.bootstrapServers(), topic, Duration.ofDays(7), entries, bytes)
                .open()) {
            long millis = (System.nanoTime() - started) / 1_000_000;
            long heap = usedHeap() - before;
            KafkaStageJournal kafka = (KafkaStageJournal) journal;
            System.out.printf("journal startup (%s: at most %,d entries, %,d MiB): open and caught up in %,d ms; %,d entries "
                            + "cached, %,d MiB estimated, %,d MiB heap measured (%,d bytes per entry)%n", label, entries,
                    bytes >> 20, millis, kafka.size(), kafka.cachedBytes() >> 20, heap >> 20,
                    kafka.size() == 0 ? 0 : heap / kafka.size());
        }
    }

    private static JournalEntry entry(String journalId, int i) {
        String reply = "{\"reason\": \"the singers of each country, counted\", \"sql\": \"SELECT T1.country, count(*) FROM singer "
                + "AS T1 JOIN concert AS T2 ON T1.singer_id = T2.singer_id WHERE T2.year > " + i + " GROUP BY T1.country "
                + "HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 10\"}";
        reply = reply + " ".repeat(Math.max(0, 600 - reply.length()));
        return new JournalEntry(journalId, GENERATE_STAGE, List.of(reply), List.of("stop"), 1_200, 150, false,
                "qwen2.5-coder-7b-instruct", false, System.currentTimeMillis());
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}
