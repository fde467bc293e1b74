package io.flowsql.sql.retrieve;

import io.flowsql.sql.ValueMatch;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the value-index hits say about a question's schema namespace. A hit counts only when the value stands in the
 * question as a name: whole words ("Aruba", "Port Chelsea"; not "EST" inside "youngest", which the trigram index also
 * returns at full score), capitalised or starting with a digit, not only as the first word (a plain "dog" or
 * "student" is a value of some database and a word of many questions), matched at least {@value #THRESHOLD}. A value
 * found in several namespaces is split among them (Kabul in three databases names none of them surely), and a
 * namespace sums its values' shares.
 */
final class NamespaceValues {
    static final double THRESHOLD = 0.9;

    private NamespaceValues() {}

    /** Each namespace's summed share of the values the question quotes (lower-cased namespace → score). */
    static Map<String, Double> of(String question, List<ValueMatch> values) {
        String text = question.toLowerCase(Locale.ROOT);
        Map<String, Set<String>> namespacesOfValue = new HashMap<>();
        for (ValueMatch v : values) {
            String value = v.value().strip().toLowerCase(Locale.ROOT);
            if (v.score() >= THRESHOLD && value.length() >= 3 && named(question, text, value)) {
                namespacesOfValue.computeIfAbsent(value, k -> new HashSet<>()).add(SchemaRetriever.namespace(v.table()));
            }
        }
        Map<String, Double> out = new HashMap<>();
        namespacesOfValue.forEach((value, namespaces) -> {
            for (String ns : namespaces) {
                out.merge(ns, 1.0 / namespaces.size(), Double::sum);
            }
        });
        return out;
    }

    /**
     * Whether {@code value} stands in the question as a name: as whole words, capitalised or with a digit, and not
     * only as the question's first word ("Aruba", "Port Chelsea", "2008"; not "dogs" or "What").
     */
    static boolean named(String question, String lowered, String value) {
        for (int at = quoted(lowered, value, 0); at >= 0; at = quoted(lowered, value, at + 1)) {
            char first = question.charAt(at);
            if (at > 0 && (Character.isUpperCase(first) || Character.isDigit(first))) {
                return true;
            }
        }
        return false;
    }

    /** Where {@code value} occurs in {@code text} from {@code from} with no letter or digit right before or after it, or -1. */
    static int quoted(String text, String value, int from) {
        for (int at = text.indexOf(value, from); at >= 0; at = text.indexOf(value, at + 1)) {
            int end = at + value.length();
            if ((at == 0 || !Character.isLetterOrDigit(text.charAt(at - 1)))
                    && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)))) {
                return at;
            }
        }
        return -1;
    }

}
