package io.flowsql.agents.opensearch.align.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenSearch-SQL's agent alignment (the authors' {@code values_check}): the values a candidate compares columns with,
 * against the values retrieval found in the database for the question. Fixed rewrite: a literal that is not one of
 * those values but is nearly the same text as one (embedding cosine above 0.95, computed by the caller) takes that
 * value. Problem for the model: a value the database holds under another column than the one the SQL compares.
 * Literals that are mostly digits are left alone, as in the authors' code.
 */
public final class AgentChecks {
    /** Embedding cosine above which a literal is taken to be the database value (the authors' code: 0.95). */
    public static final double SAME_VALUE = 0.95;
    private static final GatedPattern QUALIFIED = GatedPattern.of("(\\w+\\.(?:\\w+|`[^`]*`|\"[^\"]*\"))\\s*=\\s*'((?:''|[^'])+)'", ".", "=", "'");
    private static final GatedPattern UNQUALIFIED = GatedPattern.of("[\\s(](\\w+)\\s*=\\s*'((?:''|[^'])+)'", "=", "'");
    private static final Pattern VALUE_LINE = Pattern.compile("^\\s*(\\w+\\.\\S.*?)\\s*=\\s*'((?:''|[^'])*)'\\s*$");

    private AgentChecks() {}

    /** A database value retrieval found: {@code table.column} and the value. */
    public record KnownValue(String column, String value) {
        /** Reads a {@code table.column = 'value'} line (ValueText's form); null when the line is not one. */
        public static KnownValue parse(String line) {
            Matcher m = VALUE_LINE.matcher(line);
            return m.matches() ? new KnownValue(m.group(1), m.group(2).replace("''", "'")) : null;
        }
    }

    /** A comparison of a column with a text literal in the candidate: the column as {@code table.column}, the value. */
    record Comparison(String column, String value) {}

    /**
     * Whether the text names the table as a whole word, case-insensitively: what {@code (?i)\btable\b} finds,
     * without compiling a pattern per table and candidate (stop 47's profile showed those compilations).
     */
    static boolean mentions(String text, String table) {
        int n = table.length();
        if (n == 0) {
            return false;
        }
        for (int i = 0; i + n <= text.length(); i++) {
            if (text.regionMatches(true, i, table, 0, n) && boundary(text, i) && boundary(text, i + n)) {
                return true;
            }
        }
        return false;
    }

    /** A word boundary at {@code at} as the regular expressions' {@code \b} sees it (word characters: letters, digits, _). */
    private static boolean boundary(String text, int at) {
        return word(text, at - 1) != word(text, at);
    }

    private static boolean word(String text, int at) {
        if (at < 0 || at >= text.length()) {
            return false;
        }
        char c = text.charAt(at);
        return c == '_' || Character.isLetterOrDigit(c);
    }

    /** The candidate's column = 'text' comparisons, aliases read back; unqualified ones when one table is used. */
    static Set<Comparison> comparisons(String sql, Set<String> tables) {
        String plain = SqlText.withoutAliases(SqlText.oneLine(sql));
        String upper = GatedPattern.upper(plain);
        Set<Comparison> out = new LinkedHashSet<>();
        Matcher q = QUALIFIED.matcher(plain, upper);
        while (q.find()) {
            out.add(new Comparison(q.group(1), q.group(2).replace("''", "'")));
        }
        Set<String> used = new LinkedHashSet<>();
        for (String table : tables) {
            if (mentions(plain, table)) {
                used.add(table);
            }
        }
        if (used.size() == 1) {
            String table = used.iterator().next();
            Matcher u = UNQUALIFIED.matcher(plain, upper);
            while (u.find()) {
                out.add(new Comparison(table + "." + u.group(1), u.group(2).replace("''", "'")));
            }
        }
        out.removeIf(c -> mostlyDigits(c.value()));
        return out;
    }

    /** The literals of {@code sql} that are not among {@code known} (those the caller embeds to find a near value). */
    public static List<String> unknownLiterals(String sql, Set<String> tables, List<KnownValue> known) {
        Set<String> values = new LinkedHashSet<>();
        known.forEach(k -> values.add(k.value()));
        return comparisons(sql, tables).stream().map(Comparison::value).filter(v -> !values.contains(v)).distinct().toList();
    }

    /**
     * @param nearest for an unknown literal, the database value it is nearly the same as (cosine above {@link #SAME_VALUE})
     */
    public static AlignFindings check(String candidate, Set<String> tables, List<KnownValue> known,
                                      Map<String, String> nearest) {
        String sql = SqlText.oneLine(candidate);
        List<String> rewrites = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> columnsOf = new LinkedHashMap<>();
        for (KnownValue k : known) {
            columnsOf.computeIfAbsent(k.value(), v -> new ArrayList<>()).add(k.column());
        }
        for (Comparison c : comparisons(sql, tables)) {
            String value = c.value();
            if (!columnsOf.containsKey(value) && nearest.containsKey(value)) {
                String near = nearest.get(value);
                sql = sql.replace(quoted(value), quoted(near));
                rewrites.add("value '" + value + "' -> '" + near + "'");
                value = near;
            }
            String held = value;
            List<String> holders = columnsOf.getOrDefault(held, List.of());
            if (!holders.isEmpty() && holders.stream().noneMatch(h -> h.equalsIgnoreCase(c.column()))) {
                List<String> instead = new ArrayList<>();
                holders.forEach(h -> instead.add(h + " = " + quoted(held)));
                known.stream().filter(k -> k.column().equalsIgnoreCase(c.column()))
                        .forEach(k -> instead.add(k.column() + " = " + quoted(k.value())));
                problems.add("`" + c.column() + " = " + quoted(held) + "` does not exist in the database; it holds "
                        + String.join(", ", instead));
            }
        }
        return new AlignFindings(sql, rewrites, problems);
    }

    private static String quoted(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    private static boolean mostlyDigits(String value) {
        long digits = value.chars().filter(Character::isDigit).count();
        return value.isEmpty() || digits / (double) value.length() > 0.6;
    }
}
