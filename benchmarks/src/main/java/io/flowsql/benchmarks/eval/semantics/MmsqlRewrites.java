package io.flowsql.benchmarks.eval.semantics;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The text handling of MMSQL's evaluation script, one method per step. */
public final class MmsqlRewrites {
    private static final Pattern FENCE = Pattern.compile("```(?:sql|SQL|sqlite)?\\s*\\n?(.*?)```", Pattern.DOTALL);

    private MmsqlRewrites() {}

    /**
     * What the script executes: {@code ```} and {@code ;} removed, backticks and double quotes to single quotes,
     * the "▁" and no-break space to spaces, then one space on each side of the first {@code =}.
     */
    public static String forExecution(String sql) {
        String s = sql.replace("```", "").replace(";", "").replace("`", "'").replace('\u2581', ' ')
                .replace('\u00a0', ' ').replace("\"", "'");
        int eq = s.indexOf('=');
        return eq < 0 ? s : s.substring(0, eq) + " = " + s.substring(eq + 1);
    }

    /**
     * The SQL inside a free-text answer (MMSQL output files carry {@code predict}, often with a fenced block): the
     * first fenced block if there is one, else from the first SELECT up to the next {@code ;} (the script's
     * {@code parse_sql}); empty when there is no SELECT.
     */
    public static String sqlOf(String answer) {
        if (answer == null) {
            return "";
        }
        Matcher fence = FENCE.matcher(answer);
        String text = fence.find() ? fence.group(1) : answer;
        int select = text.toUpperCase(java.util.Locale.ROOT).indexOf("SELECT");
        if (select < 0) {
            return "";
        }
        int semicolon = text.indexOf(';', select);
        return (semicolon < 0 ? text.substring(select) : text.substring(select, semicolon)).replace('\n', ' ').strip();
    }
}
