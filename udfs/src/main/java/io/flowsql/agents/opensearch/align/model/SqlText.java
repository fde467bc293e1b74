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
     * replacing each alias's qualifiers in turn gives, without a pattern compiled per alias. An ASCII query (every
     * query of Spider and BIRD) is read by scanning its words, which finds what the two patterns find there; a query
     * with other characters goes through the patterns, whose word boundaries know Unicode letters.
     */
    static String withoutAliases(String sql) {
        return ascii(sql) ? withoutAliasesScanned(sql) : withoutAliasesByPattern(sql);
    }

    static String withoutAliasesByPattern(String sql) {
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
            qualifier.appendReplacement(out, Matcher.quoteReplacement(tableOf(qualifier.group(1), aliases) + "."));
        }
        return qualifier.appendTail(out).toString();
    }

    /**
     * The same on ASCII text: {@code word<blanks>AS<blanks>word} declares an alias (the next declaration is looked
     * for after it), and a whole word right before a dot is a qualifier.
     */
    static String withoutAliasesScanned(String sql) {
        List<String[]> aliases = new ArrayList<>();
        int i = 0;
        while ((i = nextWordStart(sql, i)) >= 0) {
            int end = wordEnd(sql, i);
            int as = blanksEnd(sql, end);
            int afterAs = as + 2;
            int alias = blanksEnd(sql, afterAs);
            if (as > end && afterAs <= sql.length() && (sql.charAt(as) | 0x20) == 'a' && (sql.charAt(as + 1) | 0x20) == 's'
                    && alias > afterAs && alias < sql.length() && word(sql.charAt(alias))) {
                int aliasEnd = wordEnd(sql, alias);
                aliases.add(new String[] {sql.substring(alias, aliasEnd), sql.substring(i, end)});
                i = aliasEnd;
            } else {
                i = end;
            }
        }
        if (aliases.isEmpty()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length());
        int copied = 0;
        i = 0;
        while ((i = nextWordStart(sql, i)) >= 0) {
            int end = wordEnd(sql, i);
            if (end < sql.length() && sql.charAt(end) == '.') {
                out.append(sql, copied, i).append(tableOf(sql.substring(i, end), aliases));
                copied = end;
            }
            i = end;
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    private static String tableOf(String qualifier, List<String[]> aliases) {
        String name = qualifier;
        for (String[] alias : aliases) {
            if (name.equals(alias[0])) {
                name = alias[1];
            }
        }
        return name;
    }

    private static boolean ascii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** {@code \w} in ASCII. */
    private static boolean word(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    /** The first word character at or after {@code from} that starts a word; -1 when none. */
    private static int nextWordStart(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            if (word(text.charAt(i)) && (i == 0 || !word(text.charAt(i - 1)))) {
                return i;
            }
        }
        return -1;
    }

    private static int wordEnd(String text, int start) {
        int i = start;
        while (i < text.length() && word(text.charAt(i))) {
            i++;
        }
        return i;
    }

    /** After {@code \s*} (space, tab, LF, VT, FF, CR) from {@code from}. */
    private static int blanksEnd(String text, int from) {
        int i = from;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) - '\t' < 5 && text.charAt(i) >= '\t')) {
            i++;
        }
        return i;
    }

    static String oneLine(String sql) {
        return SqlOneLine.of(sql);
    }
}
