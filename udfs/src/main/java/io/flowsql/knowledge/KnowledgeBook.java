package io.flowsql.knowledge;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The business definitions the job has been given, per database, as plain Java (a broadcast operator keeps one per
 * instance and mirrors each change into its state, as the live library does).
 *
 * <p>Applying is idempotent: an id already present (entry or tombstone) is never replaced, so a record applied twice
 * (a replay after a restore) changes nothing; a retraction leaves a tombstone that blocks its target whether the
 * target comes before or after it. Per database at most {@link KnowledgeLimits#maxPerDatabase} definitions and
 * {@link KnowledgeLimits#maxBytesPerDatabase} bytes: the oldest (timestamp, then id) is evicted and tombstoned.
 *
 * <p>A question sees a definition when it is on the definition's database (and tenant, when the definition names
 * one) and mentions its term: the term's words, in order, or all of them (plurals folded). A definition scoped to a
 * schema (a warehouse's namespace) needs that schema: given by the caller, or else named in the question.
 */
public final class KnowledgeBook {
    private final KnowledgeLimits limits;
    private final TreeMap<String, KnowledgeEntry> byId = new TreeMap<>();

    public KnowledgeBook(KnowledgeLimits limits) {
        this.limits = limits;
    }

    /** A book restored from state (entries as they were stored). */
    public static KnowledgeBook restore(KnowledgeLimits limits, Iterable<Map.Entry<String, KnowledgeEntry>> stored) {
        KnowledgeBook book = new KnowledgeBook(limits);
        for (Map.Entry<String, KnowledgeEntry> e : stored) {
            book.byId.put(e.getKey(), e.getValue());
        }
        return book;
    }

    /** Applies one record; returns the ids whose entry changed (put or removed), for the caller's state. */
    public Set<String> apply(KnowledgeEntry entry) {
        Set<String> changed = new TreeSet<>();
        if (entry == null || entry.knowledgeId == null || byId.containsKey(entry.knowledgeId)) {
            return changed;
        }
        if (KnowledgeEntry.RETRACT.equals(entry.action)) {
            KnowledgeEntry target = entry.retracts == null ? null : byId.get(entry.retracts);
            if (entry.retracts != null && (target == null || !KnowledgeEntry.TOMBSTONE.equals(target.action))) {
                byId.put(entry.retracts, KnowledgeEntry.tombstone(entry.retracts,
                        target == null ? null : target.dbId, entry.timestampMillis));
                changed.add(entry.retracts);
            }
            byId.put(entry.knowledgeId, KnowledgeEntry.tombstone(entry.knowledgeId, null, entry.timestampMillis));
            changed.add(entry.knowledgeId);
            return changed;
        }
        if (!entry.isDefinition()) {
            return changed;
        }
        byId.put(entry.knowledgeId, entry);
        changed.add(entry.knowledgeId);
        changed.addAll(evict(entry.dbId));
        return changed;
    }

    public Optional<KnowledgeEntry> get(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The definitions in force (no tombstones), by id. */
    public List<KnowledgeEntry> definitions() {
        return byId.values().stream().filter(KnowledgeEntry::isDefinition).toList();
    }

    /**
     * The definitions a question may use: its database's (and, when they name one, its schema's and its tenant's)
     * whose term it mentions; longer terms first, then the newest; at most {@link KnowledgeLimits#perQuestion}.
     */
    public List<KnowledgeEntry> select(String dbId, String schema, String tenant, String question) {
        if (dbId == null || question == null || limits.perQuestion() == 0) {
            return List.of();
        }
        List<String> words = words(question);
        return visible(dbId, schema, tenant, words)
                .filter(e -> mentions(words, words(e.term)))
                .sorted(Comparator.comparingInt((KnowledgeEntry e) -> -e.term.length())
                        .thenComparingLong(e -> -e.timestampMillis).thenComparing(e -> e.knowledgeId))
                .limit(limits.perQuestion())
                .toList();
    }

    /**
     * The definitions a question may use but whose term it does not mention (not in {@code chosen}), newest first, at
     * most {@code max}: what an embedding match ({@link SimilarKnowledge}) weighs against the question, bounded so a
     * request never carries a whole book.
     */
    public List<KnowledgeEntry> candidates(String dbId, String schema, String tenant, String question,
            List<KnowledgeEntry> chosen, int max) {
        if (dbId == null || question == null || max <= 0 || limits.perQuestion() <= chosen.size()) {
            return List.of();
        }
        Set<String> taken = new TreeSet<>(chosen.stream().map(e -> e.knowledgeId).toList());
        return visible(dbId, schema, tenant, words(question))
                .filter(e -> !taken.contains(e.knowledgeId))
                .sorted(Comparator.comparingLong((KnowledgeEntry e) -> -e.timestampMillis).thenComparing(e -> e.knowledgeId))
                .limit(max)
                .toList();
    }

    /** The definitions of the question's database (and, when they name one, its schema and its tenant). */
    private java.util.stream.Stream<KnowledgeEntry> visible(String dbId, String schema, String tenant, List<String> words) {
        return byId.values().stream()
                .filter(KnowledgeEntry::isDefinition)
                .filter(e -> dbId.equals(e.dbId))
                .filter(e -> e.schema == null || (schema != null ? e.schema.equalsIgnoreCase(schema)
                        : mentions(words, words(e.schema))))
                .filter(e -> e.tenant == null || e.tenant.equals(tenant));
    }

    /** The question's words mention the term: its words in a row, or (for a term of several words) all of them. */
    static boolean mentions(List<String> question, List<String> term) {
        if (term.isEmpty()) {
            return false;
        }
        if ((" " + String.join(" ", question) + " ").contains(" " + String.join(" ", term) + " ")) {
            return true;
        }
        return term.size() > 1 && new LinkedHashSet<>(question).containsAll(term);
    }

    /** Lower-case words, plurals folded ({@code customers} → {@code customer}), punctuation dropped. */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (w.isEmpty()) {
                continue;
            }
            out.add(w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.substring(0, w.length() - 1) : w);
        }
        return out;
    }

    /** Evicts the oldest definitions of {@code dbId} beyond the bounds, leaving tombstones; returns the changed ids. */
    private Set<String> evict(String dbId) {
        Set<String> changed = new TreeSet<>();
        List<KnowledgeEntry> ofDb = new ArrayList<>(byId.values().stream()
                .filter(e -> e.isDefinition() && Objects.equals(dbId, e.dbId))
                .sorted(Comparator.comparingLong((KnowledgeEntry e) -> e.timestampMillis).thenComparing(e -> e.knowledgeId))
                .toList());
        long bytes = ofDb.stream().mapToLong(KnowledgeEntry::bytes).sum();
        while (!ofDb.isEmpty() && (ofDb.size() > limits.maxPerDatabase() || bytes > limits.maxBytesPerDatabase())) {
            KnowledgeEntry oldest = ofDb.remove(0);
            bytes -= oldest.bytes();
            byId.put(oldest.knowledgeId, KnowledgeEntry.tombstone(oldest.knowledgeId, dbId, oldest.timestampMillis));
            changed.add(oldest.knowledgeId);
        }
        dropOldTombstones(changed);
        return changed;
    }

    /** At most as many tombstones as the bound on definitions per database times the databases seen, oldest dropped. */
    private void dropOldTombstones(Set<String> changed) {
        long databases = byId.values().stream().map(e -> e.dbId).distinct().count();
        long cap = (long) limits.maxPerDatabase() * Math.max(1, databases);
        List<KnowledgeEntry> tombstones = byId.values().stream()
                .filter(e -> KnowledgeEntry.TOMBSTONE.equals(e.action))
                .sorted(Comparator.comparingLong((KnowledgeEntry e) -> e.timestampMillis).thenComparing(e -> e.knowledgeId))
                .toList();
        for (int i = 0; i < tombstones.size() - cap; i++) {
            byId.remove(tombstones.get(i).knowledgeId);
            changed.add(tombstones.get(i).knowledgeId);
        }
    }
}
