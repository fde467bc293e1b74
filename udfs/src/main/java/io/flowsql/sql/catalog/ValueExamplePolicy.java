package io.flowsql.sql.catalog;

import java.io.Serializable;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * MAG-SQL's rules for which columns get value examples in a prompt: the most frequent few values,
 * but none for id-like columns, URLs, e-mail addresses, long strings, or numeric columns with many
 * distinct values (examples there cost tokens and teach the model nothing).
 *
 * @param maxExamples how many of the most frequent values to show
 * @param maxValueLength a column whose examples are longer than this gets none
 * @param maxDistinctNumeric a numeric column with more distinct values than this gets none
 */
public record ValueExamplePolicy(int maxExamples, int maxValueLength, int maxDistinctNumeric) implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Pattern ID_NAME = Pattern.compile("(?i:^id$|.*[_\\s]id$)|.*[a-z](Id|ID)$");
    private static final Pattern URL_OR_MAIL_NAME = Pattern.compile("(?i).*(url|e-?mail|website|link|homepage).*");
    private static final Pattern URL = Pattern.compile("(?i)^(https?://|ftp://|www\\.).*");
    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");
    private static final Pattern NUMBER = Pattern.compile("^-?\\d+(\\.\\d+)?$");

    public static ValueExamplePolicy defaults() {
        return new ValueExamplePolicy(3, 50, 10);
    }

    /** Whether the column's name or key role already rules examples out. */
    public boolean skipsByName(String column, boolean key) {
        return key || ID_NAME.matcher(column).matches() || URL_OR_MAIL_NAME.matcher(column).matches();
    }

    /**
     * The examples to keep, given the most frequent values (most frequent first) and the column's
     * distinct count; empty when a rule rules them out.
     */
    public List<String> choose(String declaredType, List<String> mostFrequent, long distinctValues) {
        if (mostFrequent.isEmpty()) {
            return List.of();
        }
        boolean numeric = isNumericType(declaredType) || mostFrequent.stream().allMatch(v -> NUMBER.matcher(v).matches());
        if (numeric && distinctValues > maxDistinctNumeric) {
            return List.of();
        }
        for (String value : mostFrequent) {
            if (value.length() > maxValueLength || URL.matcher(value).matches() || EMAIL.matcher(value).matches()) {
                return List.of();
            }
        }
        return mostFrequent.subList(0, Math.min(maxExamples, mostFrequent.size()));
    }

    static boolean isNumericType(String declaredType) {
        String t = declaredType.toLowerCase(Locale.ROOT);
        return t.contains("int") || t.contains("real") || t.contains("num") || t.contains("dec") || t.contains("float")
                || t.contains("double");
    }
}
