package io.flowsql.simulator.agents;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the parts of an agent prompt the SQLFixAgent and MMSQL responders need (the SQL under review, the schema's table names), so each responder stays a few lines. */
final class PromptText {
    private static final Pattern SQL_FENCE = Pattern.compile("```sql\\s*\\R(.*?)```", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    /** A table's name, schema-qualified in a warehouse ({@code ns.table}: the whole name, not the schema). */
    private static final Pattern TABLE = Pattern.compile(
            "(?im)(?:create\\s+table\\s+[`\"\\[]?|^#?\\s*table\\s*:?\\s*[`\"]?)([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*)");

    private static final Pattern COUNTING = Pattern.compile("\\b(how many|number of|count)\\b");
    private static final Pattern TABLE_LINE = Pattern.compile("^#\\s*Table:\\s*[`\"]?([A-Za-z_][A-Za-z0-9_ ]*?)[`\"]?\\s*$");
    private static final Pattern COLUMN_WITH_EXAMPLES = Pattern.compile("^\\s*\\(([^,]+),.*?examples:\\s*\\[(.*?)\\]");
    private static final Pattern QUOTED = Pattern.compile("'((?:[^']|'')*)'");

    private PromptText() {}

    /** The first ```sql fence of the text. */
    static Optional<String> firstSql(String text) {
        Matcher m = SQL_FENCE.matcher(text);
        return m.find() ? Optional.of(m.group(1).strip()) : Optional.empty();
    }

    /** The line that closes the schema block of the project's prompts (docs/CONVENTIONS.md). */
    static final String END_OF_SCHEMA = "\n-- end of schema --";

    /** The text after the "Schema:" line, up to the end-of-schema line (or the end of the message when there is none). */
    static String schema(String userMessage) {
        int at = userMessage.indexOf("\nSchema:");
        if (at < 0) {
            return "";
        }
        int start = at + "\nSchema:".length();
        int end = userMessage.indexOf(END_OF_SCHEMA, start);
        return end < 0 ? userMessage.substring(start) : userMessage.substring(start, end);
    }

    /** Table names the schema text declares, in order. */
    static List<String> tables(String schema) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = TABLE.matcher(schema);
        while (m.find()) {
            names.add(m.group(1));
        }
        return new ArrayList<>(names);
    }

    /**
     * A query that runs on the schema, for questions the oracle does not know: it filters on a value example the
     * question quotes (e.g. "singers from France" → {@code WHERE Country = 'France'}), counts when the question asks how
     * many, and otherwise lists the rows of the table the question names. A rule, not a language model.
     */
    static String plausibleSql(String question, String schema) {
        List<String> tables = tables(schema);
        if (tables.isEmpty()) {
            return "SELECT 1";
        }
        String lower = question.toLowerCase(Locale.ROOT);
        boolean counts = COUNTING.matcher(lower).find();
        Optional<String[]> filter = mentionedExample(lower, schema);
        if (filter.isPresent()) {
            String[] f = filter.get();
            return (counts ? "SELECT count(*)" : "SELECT *") + " FROM " + f[0] + " WHERE " + f[1] + " = '"
                    + f[2].replace("'", "''") + "'";
        }
        String table = tables.stream().filter(t -> lower.contains(singular(t.toLowerCase(Locale.ROOT))))
                .findFirst().orElse(tables.get(0));
        return counts ? "SELECT count(*) FROM " + table : "SELECT * FROM " + table;
    }

    /** The longest value example of the rendered schema that the question mentions, as {table, column, value}. */
    private static Optional<String[]> mentionedExample(String lowerQuestion, String schema) {
        String table = null;
        String[] best = null;
        for (String line : schema.split("\\R")) {
            Matcher t = TABLE_LINE.matcher(line);
            if (t.find()) {
                table = t.group(1);
                continue;
            }
            Matcher column = COLUMN_WITH_EXAMPLES.matcher(line);
            if (table == null || !column.find()) {
                continue;
            }
            Matcher value = QUOTED.matcher(column.group(2));
            while (value.find()) {
                String v = value.group(1);
                if (v.length() >= 3 && lowerQuestion.contains(v.toLowerCase(Locale.ROOT))
                        && (best == null || v.length() > best[2].length())) {
                    best = new String[] {table, column.group(1), v};
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /** The SQL with case and all spacing removed, to compare two queries as the same text. */
    static String canonical(String sql) {
        String s = sql.strip();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1);
        }
        return s.replaceAll("\\s+", "").toLowerCase(Locale.ROOT);
    }

    static String singular(String word) {
        return word.endsWith("s") && word.length() > 3 ? word.substring(0, word.length() - 1) : word;
    }

    static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
