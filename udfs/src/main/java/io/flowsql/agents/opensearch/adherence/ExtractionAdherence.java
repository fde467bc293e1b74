package io.flowsql.agents.opensearch.adherence;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenSearch-SQL's instruction-adherence check of the extraction step: a progressive answer first declares
 * the columns ({@code #columns}) and the values ({@code #values: table.column = 'v'}) it will use, then writes
 * the SQL; this lists the declared columns the SQL never names and the declared values it never uses.
 */
public final class ExtractionAdherence {
    private static final Pattern VALUE = Pattern.compile("([A-Za-z_][\\w.\"`\\[\\] ]*?)\\s*(=|IN|LIKE)\\s*('(?:[^']|'')*'|\"[^\"]*\"|-?\\d+(?:\\.\\d+)?)",
            Pattern.CASE_INSENSITIVE);

    private ExtractionAdherence() {}

    /** The declared items the SQL does not use, e.g. {@code column singer.Country}, {@code value 'France'}; empty when it adheres. */
    public static List<String> missed(String sql, String declaredColumns, String declaredValues) {
        List<String> missed = new ArrayList<>();
        String lowerSql = sql.toLowerCase(Locale.ROOT).replaceAll("[\"`\\[\\]]", "");
        for (String column : items(declaredColumns)) {
            String name = column.contains(".") ? column.substring(column.lastIndexOf('.') + 1) : column;
            name = name.replaceAll("[\"`\\[\\]]", "").strip().toLowerCase(Locale.ROOT);
            if (!name.isEmpty() && name.matches("[\\w ]+")
                    && !Pattern.compile("(?<![\\w])" + Pattern.quote(name) + "(?![\\w])").matcher(lowerSql).find()) {
                missed.add("column " + column.strip());
            }
        }
        if (declaredValues != null) {
            Matcher m = VALUE.matcher(declaredValues);
            while (m.find()) {
                String literal = m.group(3);
                String bare = literal.startsWith("'") || literal.startsWith("\"") ? literal.substring(1, literal.length() - 1) : literal;
                if (!bare.isBlank() && !sql.contains(bare)) {
                    missed.add("value " + literal);
                }
            }
        }
        return missed;
    }

    /** Comma-separated declared items; "none", "see ..." and blanks are not items. */
    private static List<String> items(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        for (String part : text.split(",")) {
            String item = part.strip();
            String lower = item.toLowerCase(Locale.ROOT);
            if (!item.isEmpty() && !lower.equals("none") && !lower.startsWith("see ") && !item.contains(" ")) {
                out.add(item);
            }
        }
        return out;
    }
}
