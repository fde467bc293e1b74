package io.flowsql.sql.retrieve;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import io.flowsql.sql.ValueMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Scores tables and columns by the question's words: how much of a column's name (split into words) or description
 * the question covers, the table's own name, its schema namespace (the part before the last dot of a qualified name,
 * e.g. {@code concert_singer} in {@code concert_singer.singer}), and the columns holding values the value index found
 * in the question. The words of a schema are split once per schema object.
 */
public final class LexicalScorer implements RelevanceScorer {
    static final double TABLE_NAME_WEIGHT = 2.0;
    static final double NAMESPACE_WEIGHT = 1.0;
    static final double DESCRIPTION_WEIGHT = 0.7;
    static final double OTHER_COLUMNS_WEIGHT = 0.2;
    /** A value the question quotes names its column more surely than a word does. */
    static final double VALUE_WEIGHT = 1.0;
    /**
     * The value hits (the index's best first) that raise their columns: as many as a prompt shows by default; the
     * further hits a retrieval asks for ({@link SchemaRetriever#VALUE_MATCHES}) only route (all 20 here kept 0.955
     * of the tuning half's gold tables against 0.967 with these 6: fuzzy hits raise tables everywhere).
     */
    public static final int COLUMN_VALUES = 6;

    private final Cache<DatabaseSchema, List<TableWords>> words = Caffeine.newBuilder().weakKeys().build();

    @Override
    public Relevance score(DatabaseSchema schema, RetrievalQuery query) {
        Relevance out = new Relevance();
        List<ValueMatch> values = query.values().subList(0, Math.min(COLUMN_VALUES, query.values().size()));
        for (TableWords table : words.get(schema, LexicalScorer::split)) {
            double best = 0;
            double others = 0;
            for (ColumnWords column : table.columns) {
                double score = Math.max(coverage(query.words(), column.name),
                        DESCRIPTION_WEIGHT * coverage(query.words(), column.description));
                for (ValueMatch v : values) {
                    if (v.table().equalsIgnoreCase(table.table.name()) && v.column().equalsIgnoreCase(column.column.name())) {
                        score += VALUE_WEIGHT * v.score();
                    }
                }
                out.addColumn(column.column.ref(), score);
                others += score;
                best = Math.max(best, score);
            }
            double tableScore = TABLE_NAME_WEIGHT * coverage(query.words(), table.name)
                    + NAMESPACE_WEIGHT * coverage(query.words(), table.namespace)
                    + DESCRIPTION_WEIGHT * coverage(query.words(), table.description)
                    + best + OTHER_COLUMNS_WEIGHT * Math.min(1.0, others - best);
            out.addTable(table.table.name(), tableScore);
        }
        return out;
    }

    /** The share of {@code nameWords} the question's words meet (each name word by its best match). */
    static double coverage(Set<String> questionWords, Set<String> nameWords) {
        if (nameWords.isEmpty() || questionWords.isEmpty()) {
            return 0;
        }
        double sum = 0;
        for (String n : nameWords) {
            if (questionWords.contains(n)) {
                sum += 1.0;
                continue;
            }
            if (n.length() < 4) {
                continue;  // only a word of four letters or more meets another by prefix (Words.match)
            }
            double best = 0;
            for (String q : questionWords) {
                best = Math.max(best, Words.match(q, n));
                if (best == 1.0) {
                    break;
                }
            }
            sum += best;
        }
        return sum / nameWords.size();
    }

    private static List<TableWords> split(DatabaseSchema schema) {
        List<TableWords> out = new ArrayList<>(schema.tables().size());
        for (TableSchema t : schema.tables()) {
            List<ColumnWords> columns = new ArrayList<>(t.columns().size());
            for (ColumnSchema c : t.columns()) {
                columns.add(new ColumnWords(c, content(Words.ofName(c.name())), Words.ofText(c.description())));
            }
            int dot = t.name().lastIndexOf('.');
            Set<String> namespace = dot < 0 ? Set.of() : content(Words.ofName(t.name().substring(0, dot)));
            out.add(new TableWords(t, content(Words.ofName(t.name().substring(dot + 1))), namespace,
                    Words.ofText(t.description()), columns));
        }
        return out;
    }

    /** A name's words without the filler ("singer_in_concert" → singer, concert), unless that leaves none. */
    private static Set<String> content(Set<String> words) {
        Set<String> kept = Words.ofText(String.join(" ", words));
        return kept.isEmpty() ? words : kept;
    }

    private record TableWords(TableSchema table, Set<String> name, Set<String> namespace, Set<String> description,
                              List<ColumnWords> columns) {}

    private record ColumnWords(ColumnSchema column, Set<String> name, Set<String> description) {}
}
