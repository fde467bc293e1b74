package io.flowsql.benchmarks.retrieval;

import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.ValueIndex;
import io.flowsql.sql.ValueMatch;
import io.flowsql.sql.retrieve.RetrievalQuery;
import io.flowsql.sql.retrieve.RetrievedSchema;
import io.flowsql.sql.retrieve.SchemaRetriever;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Asks a warehouse's retrieval a list of questions and scores what it kept: the gold query's tables present in the
 * retrieved schema (table recall), the gold query's columns present as columns of a retrieved table (column recall,
 * each column parsed from the gold SQL by {@link GoldSchemaUse}), whether the best-routed schema is the question's
 * (routing top-1), the retrieved schema's tokens, and the CPU time of the asking thread per question (value lookup +
 * ranking + cut; a loaded machine inflates wall time, not this). Questions marked held out are also summed apart.
 */
final class RetrievalMeasure {
    static final int VALUE_MATCHES = io.flowsql.sql.retrieve.SchemaRetriever.VALUE_MATCHES;
    /** How many missed questions of each half to print ({@code --misses N}; see {@link Misses}). */
    static final String MISSES_PROPERTY = "flowsql.retrieval.misses";

    /** One question: its text and evidence, the schema (namespace) its gold SQL is written against, unqualified. */
    record Asked(String id, String question, String evidence, String schema, String sql, boolean heldOut) {}

    /** The figures over all questions, and over the held-out ones (NaN when none is held out). */
    record Figures(int questions, double tableRecall, double columnRecall, double routingTop1, int tokensMedian,
                   double cpuP50Millis, double cpuP95Millis, int heldOut, double heldOutTableRecall,
                   double heldOutColumnRecall, int budget) {

        /** The one machine-readable line every run ends with. */
        String summaryLine() {
            String line = String.format(Locale.ROOT, "summary: questions=%d table_recall=%.3f column_recall=%.3f routing_top1=%.3f "
                    + "tokens_median=%d cpu_p50_ms=%.2f cpu_p95_ms=%.2f", questions, tableRecall, columnRecall, routingTop1,
                    tokensMedian, cpuP50Millis, cpuP95Millis);
            return heldOut == 0 ? line : line + String.format(Locale.ROOT, " held_out_table_recall=%.3f held_out_column_recall=%.3f",
                    heldOutTableRecall, heldOutColumnRecall);
        }
    }

    private RetrievalMeasure() {}

    /** Each namespace's tables with unqualified names, as its gold SQL names them. */
    static Map<String, DatabaseSchema> namespaces(DatabaseSchema warehouse) {
        Map<String, List<TableSchema>> tables = new LinkedHashMap<>();
        for (TableSchema t : warehouse.tables()) {
            int dot = t.name().lastIndexOf('.');
            String ns = dot < 0 ? "" : t.name().substring(0, dot).toLowerCase(Locale.ROOT);
            String bare = t.name().substring(dot + 1);
            tables.computeIfAbsent(ns, k -> new ArrayList<>()).add(new TableSchema(bare, t.description(), t.columns().stream()
                    .map(c -> new ColumnSchema(bare, c.name(), c.type(), "", c.nullable(), c.primaryKey(), List.of())).toList(),
                    t.primaryKey()));
        }
        Map<String, DatabaseSchema> out = new LinkedHashMap<>();
        tables.forEach((ns, list) -> out.put(ns, new DatabaseSchema(ns, list, List.of())));
        return out;
    }

    /**
     * Asks every question; prints one line per question when {@code perQuestion}, then the sums.
     *
     * @param index the warehouse's value index (null: none)
     */
    static Figures run(DatabaseSchema warehouse, ValueIndex index, List<Asked> asked, SchemaRetriever retriever,
            boolean perQuestion) {
        return run(warehouse, index, asked, retriever, perQuestion, true, false);
    }

    /**
     * @param losses    print where table recall was lost
     * @param perSchema print the recall of each schema's questions apart
     */
    static Figures run(DatabaseSchema warehouse, ValueIndex index, List<Asked> asked, SchemaRetriever retriever,
            boolean perQuestion, boolean losses, boolean perSchema) {
        Map<String, DatabaseSchema> byNamespace = namespaces(warehouse);
        retriever.retrieve(warehouse, RetrievalQuery.of("warm up", null, List.of()));  // per-schema costs, once
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int n = asked.size();
        long[] cpu = new long[n];
        int[] tokens = new int[n];
        double[] sums = new double[6];  // table, column, routing; held-out table, column; held-out count
        Losses lost = new Losses();
        PerSchemaRecall bySchema = new PerSchemaRecall();
        Misses misses = new Misses(losses ? Integer.getInteger(MISSES_PROPERTY, 0) : 0);
        for (int i = 0; i < n; i++) {
            Asked a = asked.get(i);
            String ns = a.schema().toLowerCase(Locale.ROOT);
            DatabaseSchema own = byNamespace.get(ns);
            if (own == null) {
                throw new IllegalArgumentException(a.id() + ": no schema " + a.schema() + " in the warehouse");
            }
            GoldSchemaUse gold = GoldSchemaUse.of(a.sql(), own);
            String text = a.evidence() == null || a.evidence().isBlank() ? a.question() : a.question() + " " + a.evidence();
            long c0 = threads.getCurrentThreadCpuTime();
            List<ValueMatch> found = index == null ? List.of() : index.find(text, VALUE_MATCHES);
            RetrievedSchema got = retriever.retrieve(warehouse, RetrievalQuery.of(a.question(), a.evidence(), found));
            cpu[i] = threads.getCurrentThreadCpuTime() - c0;
            tokens[i] = got.tokens();
            Set<String> keptTables = new HashSet<>();
            Set<String> keptColumns = new HashSet<>();
            for (TableSchema t : got.schema().tables()) {
                String name = t.name().toLowerCase(Locale.ROOT);
                keptTables.add(name);
                t.columns().forEach(c -> keptColumns.add(name + "." + c.name().toLowerCase(Locale.ROOT)));
            }
            long tablesHit = gold.tables().stream().filter(t -> keptTables.contains(qualified(ns, t))).count();
            long columnsHit = gold.columns().stream().filter(c -> keptColumns.contains(qualified(ns, c.table()) + "."
                    + c.column().toLowerCase(Locale.ROOT))).count();
            double tableRecall = gold.tables().isEmpty() ? 1 : (double) tablesHit / gold.tables().size();
            double columnRecall = gold.columns().isEmpty() ? 1 : (double) columnsHit / gold.columns().size();
            boolean routed = got.cut() ? !got.schemas().isEmpty() && got.schemas().get(0).equals(ns)
                    : keptTables.stream().anyMatch(t -> t.startsWith(ns + "."));
            lost.add(tableRecall, got.cut() ? got.schemas().indexOf(ns) : 0);
            if (misses.wanted() && tableRecall < 1) {
                misses.add(a, ns, List.copyOf(gold.tables()), keptTables, got);
            }
            bySchema.add(ns, tableRecall, columnRecall, routed);
            sums[0] += tableRecall;
            sums[1] += columnRecall;
            sums[2] += routed ? 1 : 0;
            if (a.heldOut()) {
                sums[3] += tableRecall;
                sums[4] += columnRecall;
                sums[5]++;
            }
            if (perQuestion) {
                System.out.printf(Locale.ROOT, "%-6s %-26s tables %d/%d columns %d/%d routed %-24s tokens %5d (%3d tables) %7.2f ms cpu%s%n",
                        a.id(), ns, tablesHit, gold.tables().size(), columnsHit, gold.columns().size(),
                        got.schemas().isEmpty() ? "(whole)" : got.schemas().get(0), got.tokens(), got.tableNames().size(),
                        cpu[i] / 1e6, tableRecall < 1 ? "  MISSED " + missing(gold, ns, keptTables)
                                + " (own schema routed " + (got.schemas().indexOf(ns) + 1) + ")" : "");
            }
        }
        if (losses) {
            lost.print(n);
        }
        if (misses.wanted()) {
            misses.print();
        }
        if (perSchema) {
            bySchema.print();
        }
        int[] sortedTokens = tokens.clone();
        Arrays.sort(sortedTokens);
        int held = (int) sums[5];
        return new Figures(n, sums[0] / n, sums[1] / n, sums[2] / n, n == 0 ? 0 : sortedTokens[n / 2],
                percentile(cpu, 50) / 1e6, percentile(cpu, 95) / 1e6, held, held == 0 ? Double.NaN : sums[3] / held,
                held == 0 ? Double.NaN : sums[4] / held, retriever.budget());
    }

    /**
     * Where table recall is lost, by where the question's own schema was routed: first (then the ranking within it or
     * the budget dropped a gold table), second to last of the routed schemas (its tables competed with the first's for
     * the budget), or not routed at all (none of its tables could be offered).
     */
    static final class Losses {
        private final double[] lost = new double[3];
        private final int[] questions = new int[3];

        void add(double tableRecall, int rank) {
            if (tableRecall < 1) {
                int k = rank == 0 ? 0 : rank > 0 ? 1 : 2;
                lost[k] += 1 - tableRecall;
                questions[k]++;
            }
        }

        void print(int n) {
            if (n > 0) {
                System.out.printf(Locale.ROOT, "  table recall lost: own schema routed first %.3f (%d questions), routed 2nd or later "
                        + "%.3f (%d), not routed %.3f (%d)%n", lost[0] / n, questions[0], lost[1] / n, questions[1],
                        lost[2] / n, questions[2]);
            }
        }
    }

    /** Only the table recall of the questions at another budget (a sweep beside the main figures). */
    static double tableRecall(DatabaseSchema warehouse, ValueIndex index, List<Asked> asked, SchemaRetriever retriever) {
        Map<String, DatabaseSchema> byNamespace = namespaces(warehouse);
        double sum = 0;
        for (Asked a : asked) {
            String ns = a.schema().toLowerCase(Locale.ROOT);
            GoldSchemaUse gold = GoldSchemaUse.of(a.sql(), byNamespace.get(ns));
            String text = a.evidence() == null || a.evidence().isBlank() ? a.question() : a.question() + " " + a.evidence();
            List<ValueMatch> found = index == null ? List.of() : index.find(text, VALUE_MATCHES);
            Set<String> kept = new HashSet<>();
            retriever.retrieve(warehouse, RetrievalQuery.of(a.question(), a.evidence(), found)).tableNames()
                    .forEach(t -> kept.add(t.toLowerCase(Locale.ROOT)));
            sum += gold.tables().isEmpty() ? 1
                    : (double) gold.tables().stream().filter(t -> kept.contains(qualified(ns, t))).count() / gold.tables().size();
        }
        return asked.isEmpty() ? 0 : sum / asked.size();
    }

    static String qualified(String namespace, String table) {
        return (namespace.isEmpty() ? "" : namespace + ".") + table.toLowerCase(Locale.ROOT);
    }

    static double percentile(long[] values, double p) {
        if (values.length == 0) {
            return 0;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static String missing(GoldSchemaUse gold, String ns, Set<String> kept) {
        return Arrays.toString(gold.tables().stream().filter(t -> !kept.contains(qualified(ns, t))).toArray());
    }
}
