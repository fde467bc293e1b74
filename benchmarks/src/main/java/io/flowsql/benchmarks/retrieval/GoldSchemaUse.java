package io.flowsql.benchmarks.retrieval;

import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tables and columns a gold query uses, read from its words: a table whose name is a word of the query, and a
 * column of such a table whose name is a word of the query. Spider's gold SQL names tables directly (aliases are
 * T1, T2, …), so this finds what the query reads; a column name shared by two used tables counts for both.
 */
public record GoldSchemaUse(Set<String> tables, Set<ColumnRef> columns) {
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|\"[^\"]+\"|`[^`]+`|\\[[^]]+]");

    public static GoldSchemaUse of(String sql, DatabaseSchema schema) {
        Set<String> words = new LinkedHashSet<>();
        String withoutStrings = sql.replaceAll("'[^']*'", "''");
        Matcher m = WORD.matcher(withoutStrings);
        while (m.find()) {
            String w = m.group();
            if (w.length() > 1 && "\"`[".indexOf(w.charAt(0)) >= 0) {
                w = w.substring(1, w.length() - 1);
            }
            words.add(w.toLowerCase(Locale.ROOT));
        }
        Set<String> tables = new LinkedHashSet<>();
        Set<ColumnRef> columns = new LinkedHashSet<>();
        for (TableSchema t : schema.tables()) {
            if (words.contains(t.name().toLowerCase(Locale.ROOT))) {
                tables.add(t.name());
                for (ColumnSchema c : t.columns()) {
                    if (words.contains(c.name().toLowerCase(Locale.ROOT))) {
                        columns.add(c.ref());
                    }
                }
            }
        }
        return new GoldSchemaUse(tables, columns);
    }

    /** The gold query with its tables qualified by the namespace ({@code FROM singer} → {@code FROM concert_singer.singer}). */
    public static String qualified(String sql, String namespace, Set<String> tables) {
        String out = sql;
        for (String t : tables) {
            out = out.replaceAll("(?i)(\\b(?:FROM|JOIN)\\s+|,\\s*)" + Pattern.quote(t) + "\\b", "$1" + namespace + "." + t);
        }
        return out;
    }
}
