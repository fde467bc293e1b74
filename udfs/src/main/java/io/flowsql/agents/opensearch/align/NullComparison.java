package io.flowsql.agents.opensearch.align;

import io.flowsql.sql.DatabaseSchema;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Correctness alignment we add to the paper's rules: {@code x = NULL} and {@code x <> NULL} are never true
 * in SQL (the query silently returns nothing), while the author plainly meant {@code IS NULL} /
 * {@code IS NOT NULL}. Quoted text is left untouched.
 */
public final class NullComparison implements AlignmentRule {
    private static final Pattern QUOTED = Pattern.compile("'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"");
    private static final Pattern EQUALS_NULL = Pattern.compile("(?i)\\s*(!=|<>|==|=)\\s*NULL\\b");

    @Override
    public String name() {
        return "null-comparison";
    }

    @Override
    public Optional<String> apply(String sql, DatabaseSchema schema) {
        StringBuilder out = new StringBuilder();
        Matcher quoted = QUOTED.matcher(sql);
        int last = 0;
        boolean changed = false;
        while (quoted.find()) {
            String plain = sql.substring(last, quoted.start());
            String fixed = fix(plain);
            changed |= !fixed.equals(plain);
            out.append(fixed).append(quoted.group());
            last = quoted.end();
        }
        String tail = sql.substring(last);
        String fixedTail = fix(tail);
        changed |= !fixedTail.equals(tail);
        out.append(fixedTail);
        return changed ? Optional.of(out.toString()) : Optional.empty();
    }

    private static String fix(String plain) {
        Matcher m = EQUALS_NULL.matcher(plain);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String operator = m.group(1);
            m.appendReplacement(out, operator.startsWith("=") ? " IS NULL" : " IS NOT NULL");
        }
        m.appendTail(out);
        return out.toString();
    }
}
