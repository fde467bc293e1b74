package io.flowsql.benchmarks.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The string literals of a gold SQL query (LIKE wildcards removed): what value retrieval should surface. */
final class GoldLiterals {

    private static final Pattern LITERAL = Pattern.compile("'((?:[^']|'')*)'|\"([^\"]*)\"");

    private GoldLiterals() {}

    static List<String> of(String sql) {
        List<String> out = new ArrayList<>();
        Matcher m = LITERAL.matcher(sql);
        while (m.find()) {
            String text = m.group(1) != null ? m.group(1).replace("''", "'") : m.group(2);
            text = text.replace("%", "").trim();
            if (!text.isEmpty()) {
                out.add(text);
            }
        }
        return out;
    }
}
