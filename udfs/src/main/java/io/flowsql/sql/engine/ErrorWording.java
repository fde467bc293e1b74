package io.flowsql.sql.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How one engine words its errors: an ordered list of patterns over the lower-cased message, read from the engine's
 * resource {@code engines/<id>.errors} (one {@code <fault> <regex>} a line); the first that matches names the
 * {@link StatementFault}. Lines {@code <fault> state <SQLSTATE>} name the fault of a SQLState, read before any message:
 * a state that names one fault is surer than wording that may change between versions or languages. After the engine's own lines come the project's messages, worded the same on every engine
 * (the access gate's hidden table, the guard's parse errors).
 */
public final class ErrorWording {
    /** The project's own messages, the same on every engine; read after the engine's. */
    private static final List<Rule> PROJECT = List.of(
            // a table the question's access policy hides (io.flowsql.pipeline.StageSql), read as a missing one
            new Rule(Pattern.compile("\\btable \\S+ is not available"), StatementFault.UNKNOWN_NAME),
            new Rule(Pattern.compile("syntax error|parse error|could not be read as one select"), StatementFault.FORM));

    private record Rule(Pattern pattern, StatementFault fault) {}

    private final List<Rule> rules;
    private final java.util.Map<String, StatementFault> states;

    private ErrorWording(List<Rule> rules, java.util.Map<String, StatementFault> states) {
        this.rules = List.copyOf(rules);
        this.states = java.util.Map.copyOf(states);
    }

    /** The wording in resource {@code engines/<engineId>.errors}; fails at once on a missing file or a bad line. */
    public static ErrorWording load(String engineId) {
        String path = "engines/" + engineId + ".errors";
        try (InputStream in = ErrorWording.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + path);
            }
            return parse(path, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    /** Lines of {@code <fault> <regex>} ({@code form}, {@code unknown_column}, {@code unknown_name}); {@code #} comments. */
    static ErrorWording parse(String source, String text) {
        List<Rule> rules = new ArrayList<>();
        java.util.Map<String, StatementFault> states = new java.util.HashMap<>();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] parts = l.split("\\s+", 2);
            if (parts.length < 2) {
                throw new IllegalStateException(source + ": a line needs a fault and a pattern: " + l);
            }
            StatementFault fault = StatementFault.valueOf(parts[0].toUpperCase(Locale.ROOT));
            if (parts[1].startsWith("state ")) {
                states.put(parts[1].substring("state ".length()).strip().toUpperCase(Locale.ROOT), fault);
            } else {
                rules.add(new Rule(Pattern.compile(parts[1]), fault));
            }
        }
        return new ErrorWording(rules, states);
    }

    /** The fault the message names, {@link StatementFault#OTHER} when no rule matches (or no message). */
    public StatementFault read(String message) {
        return read(null, message);
    }

    /** The fault the SQLState names when one of the engine's lines names it, else the fault the message names. */
    public StatementFault read(String sqlState, String message) {
        StatementFault byState = sqlState == null ? null : states.get(sqlState.toUpperCase(Locale.ROOT));
        if (byState != null) {
            return byState;
        }
        if (message == null) {
            return StatementFault.OTHER;
        }
        String m = message.toLowerCase(Locale.ROOT);
        for (List<Rule> list : List.of(rules, PROJECT)) {
            for (Rule r : list) {
                if (r.pattern().matcher(m).find()) {
                    return r.fault();
                }
            }
        }
        return StatementFault.OTHER;
    }
}
