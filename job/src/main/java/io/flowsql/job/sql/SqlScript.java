package io.flowsql.job.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Flink SQL script with {@code ${NAME}} placeholders: filled in from a map (a placeholder without a value is an
 * error naming it) and split into statements at each {@code ;} that ends a line outside a quoted string; lines that
 * are only a {@code --} comment are dropped.
 */
public final class SqlScript {
    /** The script shipped in the job jar: the questions topic answered into the answers and dead-letters topics. */
    public static final String BUNDLED = "/sql/flowsql.sql";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z_]+)}");

    private final String text;

    public SqlScript(String text) {
        this.text = text;
    }

    public static SqlScript bundled() {
        try (InputStream in = SqlScript.class.getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new IllegalStateException(BUNDLED + " is not on the classpath");
            }
            return new SqlScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The script with every placeholder replaced by its value as is. */
    public SqlScript fill(Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("the SQL script's placeholder ${" + m.group(1) + "} has no value");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return new SqlScript(out.toString());
    }

    public String text() {
        return text;
    }

    /** The statements, without their terminating semicolons, in order. */
    public List<String> statements() {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (String line : text.split("\n", -1)) {
            if (!quoted && line.strip().startsWith("--")) {
                continue;
            }
            for (int i = 0; i < line.length(); i++) {
                if (line.charAt(i) == '\'') {
                    quoted = !quoted;
                }
            }
            String stripped = line.stripTrailing();
            if (!quoted && stripped.endsWith(";")) {
                current.append(stripped, 0, stripped.length() - 1);
                if (!current.toString().isBlank()) {
                    statements.add(current.toString().strip());
                }
                current.setLength(0);
            } else {
                current.append(line).append('\n');
            }
        }
        if (!current.toString().isBlank()) {
            statements.add(current.toString().strip());
        }
        return statements;
    }
}
