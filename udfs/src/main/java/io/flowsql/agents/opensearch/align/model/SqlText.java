package io.flowsql.agents.opensearch.align.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Text helpers the alignment checks share: aliases read back to table names, whitespace folded. */
final class SqlText {
    private static final Pattern TABLE_AS = Pattern.compile("(?i)\\b(\\w+)\\s+AS\\s+(\\w+)\\b");

    private SqlText() {}

    /** {@code T1.name} read as {@code singer.name} when the query says {@code singer AS T1} (the authors' "retable"). */
    static String withoutAliases(String sql) {
        String out = sql;
        Matcher m = TABLE_AS.matcher(sql);
        while (m.find()) {
            out = out.replaceAll("\\b" + Pattern.quote(m.group(2)) + "\\.", Matcher.quoteReplacement(m.group(1) + "."));
        }
        return out;
    }

    static String oneLine(String sql) {
        return sql.strip().replaceAll("\\s+", " ");
    }
}
