package io.flowsql.agents.opensearch.align.model;

import io.flowsql.agents.common.SqlOneLine;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Text helpers the alignment checks share: aliases read back to table names, whitespace folded. */
final class SqlText {
    private static final Pattern TABLE_AS = Pattern.compile("(?i)\\b(\\w+)\\s+AS\\s+(\\w+)\\b");
    /** A word followed by a dot: a qualifier, which may be an alias. */
    private static final Pattern QUALIFIER = Pattern.compile("\\b(\\w+)\\.");

    private SqlText() {}

    /**
     * {@code T1.name} read as {@code singer.name} when the query says {@code singer AS T1} (the authors' "retable").
     * One pass over the qualifiers, each taken through the aliases in the order the query declares them: what
     * replacing each alias's qualifiers in turn gives, without a pattern compiled per alias.
     */
    static String withoutAliases(String sql) {
        List<String[]> aliases = new ArrayList<>();
        Matcher declared = TABLE_AS.matcher(sql);
        while (declared.find()) {
            aliases.add(new String[] {declared.group(2), declared.group(1)});
        }
        if (aliases.isEmpty()) {
            return sql;
        }
        Matcher qualifier = QUALIFIER.matcher(sql);
        StringBuilder out = new StringBuilder(sql.length());
        while (qualifier.find()) {
            String name = qualifier.group(1);
            for (String[] alias : aliases) {
                if (name.equals(alias[0])) {
                    name = alias[1];
                }
            }
            qualifier.appendReplacement(out, Matcher.quoteReplacement(name + "."));
        }
        return qualifier.appendTail(out).toString();
    }

    static String oneLine(String sql) {
        return SqlOneLine.of(sql);
    }
}
