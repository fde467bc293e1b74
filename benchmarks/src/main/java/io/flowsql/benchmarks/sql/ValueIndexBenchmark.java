package io.flowsql.benchmarks.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.benchmarks.SmallInputs;
import io.flowsql.sql.ValueIndex;
import io.flowsql.sql.ValueMatch;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.LcsScanValueIndex;
import io.flowsql.sql.index.LcsValueScorer;
import io.flowsql.sql.index.NgramValueIndex;
import io.flowsql.sql.index.TextValues;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Measures value retrieval: recall of the gold SQL's string literals and per-question latency of the
 * trigram index beside the plain LCS scan on the Spider dev databases, then build time, heap and
 * latency of the index on a generated database of one million distinct values.
 * Usage: ValueIndexBenchmark [shared-data-dir (default ../shared/data)] [work-dir (default target/value-index-bench)]
 */
public final class ValueIndexBenchmark {

    private static final int TOP_K = 10;
    /** Spider dev databases under FLOWSQL_BENCH_SMALL. */
    private static final int SMALL_DATABASES = 3;

    public static void main(String[] args) throws Exception {
        Path data = Paths.get(args.length > 0 ? args[0] : "../shared/data");
        Path work = Paths.get(args.length > 1 ? args[1] : "target/value-index-bench");
        int values = SmallInputs.cap(1_000_000, 20_000);
        SmallInputs.announce("Spider dev's first " + SMALL_DATABASES + " databases, " + values + " values instead of 1M");
        spiderDev(data);
        million(work.resolve("million.sqlite"), values);
    }

    /** One dev question with the literals the index should find. */
    private record Question(String db, String text, List<String> literals) {}

    private static void spiderDev(Path data) throws Exception {
        DatabaseLocator locator = DatabaseLocator.forSharedData(data);
        LcsValueScorer scorer = LcsValueScorer.defaults();
        JsonNode dev = new ObjectMapper().readTree(data.resolve("spider/dev.json").toFile());
        Map<String, List<Question>> byDb = new LinkedHashMap<>();
        Map<String, Set<String>> allValues = new LinkedHashMap<>();
        int literalsSeen = 0;
        int questionsWithDb = 0;
        for (JsonNode q : dev) {
            String db = q.get("db_id").asText();
            if (locator.sqliteFile(db).isEmpty()
                    || SmallInputs.on() && !allValues.containsKey(db) && allValues.size() >= SMALL_DATABASES) {
                continue;
            }
            questionsWithDb++;
            Set<String> values = allValues.computeIfAbsent(db, d -> lowered(TextValues.load(locator.sqliteFile(d).get(), 1, 100_000)));
            List<String> literals = new ArrayList<>();
            for (String literal : GoldLiterals.of(q.get("query").asText())) {
                literalsSeen++;
                if (values.contains(literal.toLowerCase(Locale.ROOT))) {
                    literals.add(literal);
                }
            }
            byDb.computeIfAbsent(db, d -> new ArrayList<>()).add(new Question(db, q.get("question").asText(), literals));
        }
        int found = 0;
        int foundScan = 0;
        int total = 0;
        int totalIndexable = 0;
        long buildNanos = 0;
        long valueCount = 0;
        LatencyStats indexLatency = new LatencyStats();
        LatencyStats scanLatency = new LatencyStats();
        for (Map.Entry<String, List<Question>> entry : byDb.entrySet()) {
            TextValues values = CachingValueIndexProvider.loadValues(locator, entry.getKey());
            valueCount += values.size();
            long start = System.nanoTime();
            NgramValueIndex index = new NgramValueIndex(values, scorer);
            buildNanos += System.nanoTime() - start;
            LcsScanValueIndex scan = new LcsScanValueIndex(values, scorer);
            for (Question q : entry.getValue()) {
                index.find(q.text(), TOP_K);
                scan.find(q.text(), TOP_K);
            }
            for (Question q : entry.getValue()) {
                List<ValueMatch> fromIndex = timed(index, q.text(), indexLatency);
                List<ValueMatch> fromScan = timed(scan, q.text(), scanLatency);
                for (String literal : q.literals()) {
                    total++;
                    totalIndexable += literal.length() >= CachingValueIndexProvider.MIN_VALUE_LENGTH ? 1 : 0;
                    found += contains(fromIndex, literal) ? 1 : 0;
                    foundScan += contains(fromScan, literal) ? 1 : 0;
                }
            }
        }
        System.out.printf(Locale.ROOT, "Spider dev: %d questions on %d databases (%d text values), %d gold literals, %d of them stored in the database (%d of 3+ characters)%n",
                questionsWithDb, byDb.size(), valueCount, literalsSeen, total, totalIndexable);
        System.out.printf(Locale.ROOT, "  trigram index: recall@%d %.3f (%d/%d), p50 %.3f ms, p95 %.3f ms per question; build %.0f ms for all databases%n",
                TOP_K, (double) found / total, found, total, indexLatency.percentileMillis(50), indexLatency.percentileMillis(95), buildNanos / 1e6);
        System.out.printf(Locale.ROOT, "  LCS scan:      recall@%d %.3f (%d/%d), p50 %.3f ms, p95 %.3f ms per question%n",
                TOP_K, (double) foundScan / total, foundScan, total, scanLatency.percentileMillis(50), scanLatency.percentileMillis(95));
    }

    private static void million(Path file, int count) throws Exception {
        long start = System.nanoTime();
        MillionValueDatabase.create(file, count);
        System.out.printf(Locale.ROOT, "Generated %s with %d distinct values in %.1f s%n", file, count, (System.nanoTime() - start) / 1e9);
        long heapBefore = usedHeapAfterGc();
        start = System.nanoTime();
        TextValues values = TextValues.load(file, CachingValueIndexProvider.MIN_VALUE_LENGTH, CachingValueIndexProvider.MAX_VALUE_LENGTH);
        long loaded = System.nanoTime();
        NgramValueIndex index = new NgramValueIndex(values, LcsValueScorer.defaults());
        long built = System.nanoTime();
        long heapAfter = usedHeapAfterGc();
        System.out.printf(Locale.ROOT, "1M values: load %.1f s + index build %.1f s; heap used after GC %.0f MB (values and index)%n",
                (loaded - start) / 1e9, (built - loaded) / 1e9, (heapAfter - heapBefore) / 1e6);
        Random random = new Random(7);
        String[] templates = {"Which orders did %s place last year?", "Show the address of customer %s.",
            "How many purchases were made by %s in total, and when was the last one?"};
        List<String> questions = new ArrayList<>();
        List<String> targets = new ArrayList<>();
        for (int i = 0; i < 220; i++) {
            String target = MillionValueDatabase.value(random.nextInt(count));
            targets.add(target);
            questions.add(String.format(templates[i % templates.length], target));
        }
        LatencyStats latency = new LatencyStats();
        int hits = 0;
        for (int i = 0; i < questions.size(); i++) {
            List<ValueMatch> matches = timed(index, questions.get(i), i < 20 ? new LatencyStats() : latency);
            hits += i >= 20 && contains(matches, targets.get(i)) ? 1 : 0;
        }
        System.out.printf(Locale.ROOT, "  trigram index on 1M values: p50 %.1f ms, p95 %.1f ms per question, target value in top %d for %d/200%n",
                latency.percentileMillis(50), latency.percentileMillis(95), TOP_K, hits);
        LcsScanValueIndex scan = new LcsScanValueIndex(values, LcsValueScorer.defaults());
        LatencyStats scanLatency = new LatencyStats();
        for (int i = 20; i < 30; i++) {
            timed(scan, questions.get(i), scanLatency);
        }
        System.out.printf(Locale.ROOT, "  LCS scan on 1M values (10 questions): p50 %.0f ms%n", scanLatency.percentileMillis(50));
    }

    private static List<ValueMatch> timed(ValueIndex index, String question, LatencyStats stats) {
        long start = System.nanoTime();
        List<ValueMatch> matches = index.find(question, TOP_K);
        stats.add(System.nanoTime() - start);
        return matches;
    }

    private static boolean contains(List<ValueMatch> matches, String literal) {
        return matches.stream().anyMatch(m -> m.value().equalsIgnoreCase(literal));
    }

    private static Set<String> lowered(TextValues values) {
        Set<String> out = new HashSet<>();
        for (String v : values.values()) {
            out.add(v.toLowerCase(Locale.ROOT));
        }
        return out;
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
