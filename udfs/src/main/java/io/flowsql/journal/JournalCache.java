package io.flowsql.journal;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A stage journal's local copy of its entries, bounded in entries and in (estimated) bytes. Rules:
 * <ul>
 *   <li><b>last write wins</b>, as on the compacted topic: a later entry for a key replaces the earlier one (and
 *   counts as new for eviction);</li>
 *   <li><b>oldest first</b>: past either bound, the entries that arrived first are dropped until both hold again. An
 *   evicted entry is not lost on the topic; only this copy forgets it, so a request replayed here asks the model
 *   again for that call (tokens, never a second answer: answers are exactly-once on their own).</li>
 * </ul>
 * Thread-safe (every method holds the cache's lock, for a map operation only).
 */
public final class JournalCache {
    /** Per entry beyond its text: map nodes, the record, the lists, the strings' headers (measured rounding). */
    static final int ENTRY_OVERHEAD_BYTES = 400;

    private final int maxEntries;
    private final long maxBytes;
    private final LinkedHashMap<String, JournalEntry> entries = new LinkedHashMap<>();
    private final Map<String, Set<String>> keysById = new HashMap<>();
    private long bytes;
    private long evicted;

    public JournalCache(int maxEntries, long maxBytes) {
        if (maxEntries < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("journal cache bounds must be >= 1 (journal.cache-max-entries, "
                    + "journal.cache-max-bytes)");
        }
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** The estimated heap bytes of one entry under its key (UTF-16 text plus a fixed overhead). */
    static long sizeOf(String key, JournalEntry entry) {
        long chars = key.length() + entry.journalId().length() + entry.stage().length()
                + (entry.model() == null ? 0 : entry.model().length());
        for (String choice : entry.choices()) {
            chars += choice.length();
        }
        return 2 * chars + ENTRY_OVERHEAD_BYTES;
    }

    public synchronized Optional<JournalEntry> get(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    /** Keeps {@code entry} for {@code key} (replacing an earlier one), then evicts the oldest past the bounds. */
    public synchronized void put(String key, JournalEntry entry) {
        forget(key);
        entries.put(key, entry);
        bytes += sizeOf(key, entry);
        keysById.computeIfAbsent(entry.journalId(), id -> new HashSet<>()).add(key);
        Iterator<Map.Entry<String, JournalEntry>> oldest = entries.entrySet().iterator();
        while ((entries.size() > maxEntries || bytes > maxBytes) && oldest.hasNext()) {
            Map.Entry<String, JournalEntry> e = oldest.next();
            oldest.remove();
            unindex(e.getKey(), e.getValue());
            evicted++;
        }
    }

    /** Drops the entry of {@code key} (a tombstone read). */
    public synchronized void remove(String key) {
        forget(key);
    }

    /** Drops every entry of a journal id and returns their keys (for tombstones). */
    public synchronized Set<String> removeJournal(String journalId) {
        Set<String> keys = keysById.remove(journalId);
        if (keys == null) {
            return Set.of();
        }
        for (String key : keys) {
            JournalEntry gone = entries.remove(key);
            if (gone != null) {
                bytes -= sizeOf(key, gone);
            }
        }
        return keys;
    }

    /** Drops the entries written before {@code oldestKept} (the topic's retention deletes them there). */
    public synchronized void prune(long oldestKept) {
        Iterator<Map.Entry<String, JournalEntry>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, JournalEntry> e = it.next();
            if (e.getValue().writtenAtMillis() < oldestKept) {
                it.remove();
                unindex(e.getKey(), e.getValue());
            }
        }
    }

    public synchronized int size() {
        return entries.size();
    }

    /** The estimated bytes held. */
    public synchronized long bytes() {
        return bytes;
    }

    /** Entries dropped so far to keep the bounds. */
    public synchronized long evicted() {
        return evicted;
    }

    private void forget(String key) {
        JournalEntry gone = entries.remove(key);
        if (gone != null) {
            unindex(key, gone);
        }
    }

    private void unindex(String key, JournalEntry entry) {
        bytes -= sizeOf(key, entry);
        Set<String> keys = keysById.get(entry.journalId());
        if (keys != null) {
            keys.remove(key);
            if (keys.isEmpty()) {
                keysById.remove(entry.journalId());
            }
        }
    }
}
