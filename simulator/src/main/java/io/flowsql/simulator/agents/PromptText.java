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
    private static final Pattern TABLE = Pattern.compile(
            "(?im)(?:create\\s+table\\s+[`\"\\[]?|^#?\\s*table\\s*:?\\s*[`\"]?)([A-Za-z_][A-Za-z0-9_]*)");

    private PromptText() {}

    /** The first ```sql fence of the text. */
    static Optional<String> firstSql(String text) {
        Matcher m = SQL_FENCE.matcher(text);
        return m.find() ? Optional.of(m.group(1).strip()) : Optional.empty();
    }

    /** The text after the "Schema:" line. */
    static String schema(String userMessage) {
        int at = userMessage.indexOf("\nSchema:");
        return at < 0 ? "" : userMessage.substring(at + "\nSchema:".length());
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

    /** A query that runs on the schema and touches the table the question names, for questions the oracle does not know. */
    static String plausibleSql(String question, String schema) {
        List<String> tables = tables(schema);
        if (tables.isEmpty()) {
            return "SELECT 1";
        }
        String lower = question.toLowerCase(Locale.ROOT);
        String table = tables.stream().filter(t -> lower.contains(singular(t.toLowerCase(Locale.ROOT))))
                .findFirst().orElse(tables.get(0));
        return "SELECT count(*) FROM " + table;
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
