package io.flowsql.feedback;

import io.flowsql.pipeline.LiveFeedback;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The live few-shot library and repair memory learned from the feedback topic, per database, as plain Java: the
 * {@code live-library} operator keeps one in every parallel instance and mirrors each change into broadcast state.
 *
 * <p>Applying is idempotent and order-insensitive where it matters: an id already present (entry or tombstone) is
 * never replaced, so the same feedback applied twice changes nothing, and a retraction leaves a tombstone that blocks
 * its target whether the target comes before or after it. Bounds, enforced at every apply with the library's own
 * clock (the newest feedback timestamp it has seen, so every instance evicts the same entries): entries older than
 * {@code maxAge} are dropped; per database at most {@code maxEntriesPerDatabase} entries and
 * {@code maxBytesPerDatabase} bytes, the oldest (timestamp, then id) evicted first and remembered as a tombstone;
 * at most as many tombstones per database (and of unknown targets) as entries, the oldest dropped.
 *
 * <p>The clock never passes wall-clock time plus {@link LiveLibraryLimits#CLOCK_SKEW}: an entry stamped further ahead
 * changes nothing (the job refuses such feedback before it gets here), so one future-dated record cannot age every
 * entry out, and a restore does not take its clock from such an entry either.
 */
public final class LiveLibrary {
    private final LiveLibraryLimits limits;
    private final TreeMap<String, LiveEntry> byId = new TreeMap<>();
    private final Map<String, List<LiveEntry>> examplesByDb = new HashMap<>();
    private boolean indexed;
    private final LongSupplier wallClock;
    private long clock;

    public LiveLibrary(LiveLibraryLimits limits) {
        this(limits, System::currentTimeMillis);
    }

    /** With the wall clock its own clock is bounded by (tests pass theirs). */
    public LiveLibrary(LiveLibraryLimits limits, LongSupplier wallClock) {
        this.limits = limits;
        this.wallClock = wallClock;
    }

    /** A library restored from state (entries as they were stored). */
    public static LiveLibrary restore(LiveLibraryLimits limits, Iterable<Map.Entry<String, LiveEntry>> stored) {
        return restore(limits, stored, System::currentTimeMillis);
    }

    /** A library restored from state, its clock bounded by {@code wallClock}. */
    public static LiveLibrary restore(LiveLibraryLimits limits, Iterable<Map.Entry<String, LiveEntry>> stored,
                                      LongSupplier wallClock) {
        LiveLibrary library = new LiveLibrary(limits, wallClock);
        for (Map.Entry<String, LiveEntry> e : stored) {
            library.byId.put(e.getKey(), e.getValue());
            library.clock = Math.max(library.clock, Math.min(e.getValue().timestampMillis, library.latest()));
        }
        return library;
    }

    /** The latest time the clock may reach now: wall-clock time plus the allowed skew. */
    private long latest() {
        return wallClock.getAsLong() + LiveLibraryLimits.CLOCK_SKEW.toMillis();
    }

    /**
     * Applies one checked feedback entry; returns the ids whose entry changed (put or removed), for the caller to
     * mirror into its state. Empty when it changes nothing (a repeat, a tombstoned id).
     */
    public Set<String> apply(LiveEntry entry) {
        Set<String> changed = new TreeSet<>();
        if (entry.timestampMillis > latest()) {
            return changed;
        }
        clock = Math.max(clock, entry.timestampMillis);
        if (LiveEntry.RETRACTION.equals(entry.kind)) {
            LiveEntry target = byId.get(entry.retracts);
            if (target == null || !LiveEntry.TOMBSTONE.equals(target.kind)) {
                String dbId = target == null ? null : target.dbId;
                byId.put(entry.retracts, LiveEntry.tombstone(entry.retracts, dbId, entry.timestampMillis));
                changed.add(entry.retracts);
                evict(dbId, changed);
            }
        } else if (!byId.containsKey(entry.feedbackId)) {
            byId.put(entry.feedbackId, entry);
            changed.add(entry.feedbackId);
            evict(entry.dbId, changed);
        }
        expire(changed);
        if (!changed.isEmpty()) {
            indexed = false;
        }
        return changed;
    }

    public Optional<LiveEntry> get(String feedbackId) {
        return Optional.ofNullable(byId.get(feedbackId));
    }

    /** Every stored entry (tombstones included), by id. */
    public Map<String, LiveEntry> entries() {
        return java.util.Collections.unmodifiableMap(byId);
    }

    /** The examples (verified pairs and corrections) of a database, oldest first. */
    public List<LiveEntry> examplesOf(String dbId) {
        index();
        return examplesByDb.getOrDefault(dbId, List.of());
    }

    /**
     * What a request on {@code dbId} carries: the examples and repairs of that database only, younger than the age
     * bound at {@code nowMillis}, the most alike the question first (word overlap; ties by id), at most as many as the
     * limits say. The agents then rank these with the file library by their own retrieval.
     */
    public Selection select(String dbId, String question, long nowMillis) {
        return select(dbId, question, nowMillis, e -> true);
    }

    /**
     * As {@link #select(String, String, long)}, among the entries {@code visible} accepts (the asker's access: an
     * entry whose SQL reads a table the asker may not read is never shown to it).
     */
    public Selection select(String dbId, String question, long nowMillis, Predicate<LiveEntry> visible) {
        long oldest = nowMillis - limits.maxAge().toMillis();
        Set<String> words = words(question);
        List<LiveEntry> fresh = examplesOf(dbId).stream().filter(e -> e.timestampMillis >= oldest).filter(visible).toList();
        Comparator<LiveEntry> order = Comparator.<LiveEntry>comparingDouble(e -> -overlap(words, words(e.question)))
                .thenComparing(e -> e.feedbackId);
        List<LiveFeedback.Example> examples = fresh.stream().sorted(order).limit(limits.examplesPerRequest())
                .map(e -> new LiveFeedback.Example(e.feedbackId, e.dbId, e.question, e.evidence, e.sql)).toList();
        List<LiveFeedback.Repair> repairs = fresh.stream().filter(LiveEntry::isRepair).sorted(order)
                .limit(limits.repairsPerRequest())
                .map(e -> new LiveFeedback.Repair(e.feedbackId, e.dbId, e.question, e.wrongSql, e.sql,
                        "corrected by feedback " + e.feedbackId))
                .toList();
        return new Selection(examples, repairs);
    }

    /** What one request carries. */
    public record Selection(List<LiveFeedback.Example> examples, List<LiveFeedback.Repair> repairs) {}

    private void evict(String dbId, Set<String> changed) {
        List<LiveEntry> live = byId.values().stream().filter(e -> java.util.Objects.equals(dbId, e.dbId) && e.isExample())
                .sorted(AGE).collect(Collectors.toCollection(ArrayList::new));
        long bytes = live.stream().mapToLong(LiveEntry::bytes).sum();
        while (!live.isEmpty() && (live.size() > limits.maxEntriesPerDatabase() || bytes > limits.maxBytesPerDatabase())) {
            LiveEntry oldest = live.remove(0);
            bytes -= oldest.bytes();
            byId.put(oldest.feedbackId, LiveEntry.tombstone(oldest.feedbackId, dbId, oldest.timestampMillis));
            changed.add(oldest.feedbackId);
        }
        List<LiveEntry> tombstones = byId.values().stream()
                .filter(e -> java.util.Objects.equals(dbId, e.dbId) && LiveEntry.TOMBSTONE.equals(e.kind)).sorted(AGE).toList();
        for (int i = 0; i < tombstones.size() - limits.maxEntriesPerDatabase(); i++) {
            byId.remove(tombstones.get(i).feedbackId);
            changed.add(tombstones.get(i).feedbackId);
        }
    }

    private void expire(Set<String> changed) {
        long oldest = clock - limits.maxAge().toMillis();
        List<String> old = byId.values().stream().filter(e -> e.timestampMillis < oldest).map(e -> e.feedbackId).toList();
        old.forEach(byId::remove);
        changed.addAll(old);
    }

    private void index() {
        if (indexed) {
            return;
        }
        examplesByDb.clear();
        byId.values().stream().filter(LiveEntry::isExample).sorted(AGE)
                .forEach(e -> examplesByDb.computeIfAbsent(e.dbId, k -> new ArrayList<>()).add(e));
        indexed = true;
    }

    private static final Comparator<LiveEntry> AGE = Comparator.<LiveEntry>comparingLong(e -> e.timestampMillis)
            .thenComparing(e -> e.feedbackId);

    private static Set<String> words(String text) {
        if (text == null) {
            return Set.of();
        }
        return new HashSet<>(Arrays.asList(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")));
    }

    private static double overlap(Set<String> a, Set<String> b) {
        long shared = a.stream().filter(w -> !w.isEmpty() && b.contains(w)).count();
        return a.isEmpty() || b.isEmpty() ? 0 : (double) shared / (a.size() + b.size() - shared);
    }
}
