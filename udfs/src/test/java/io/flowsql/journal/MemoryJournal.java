package io.flowsql.journal;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/** A stage journal in memory for unit tests of the call path; the Kafka journal has its own test on a real broker. */
final class MemoryJournal implements StageJournal {
    final Map<String, JournalEntry> entries = new ConcurrentHashMap<>();
    private final Supplier<CompletableFuture<Void>> writes;

    /** Every write is durable at once. */
    MemoryJournal() {
        this(() -> CompletableFuture.completedFuture(null));
    }

    /** Each write completes when the future {@code writes} hands out completes. */
    MemoryJournal(Supplier<CompletableFuture<Void>> writes) {
        this.writes = writes;
    }

    @Override
    public Optional<JournalEntry> find(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    @Override
    public CompletableFuture<Void> record(String key, JournalEntry entry) {
        CompletableFuture<Void> write = writes.get();
        return write.thenRun(() -> entries.put(key, entry));
    }

    @Override
    public void release(String journalId) {
        entries.keySet().removeIf(k -> k.startsWith(JournalScope.prefixOf(journalId)));
    }
}
