package io.flowsql.sql.retrieve;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Splits names and text into comparable words: identifiers at underscores, digits and camel-case humps
 * ({@code StuID} → stu, id; {@code country_name} → country, name), everything lower-cased and reduced to a crude
 * stem (plural endings off), so "singers" in a question meets the table {@code singer}.
 */
public final class Words {
    private static final Set<String> STOP = Set.of("a", "an", "the", "of", "in", "on", "for", "to", "and", "or", "by",
            "with", "is", "are", "was", "were", "be", "what", "which", "who", "whom", "whose", "how", "many", "much",
            "do", "does", "did", "have", "has", "had", "all", "each", "every", "that", "this", "these", "those", "there",
            "their", "it", "its", "as", "at", "from", "than", "more", "most", "less", "least", "show", "list", "give",
            "find", "return", "me", "we", "us", "our", "you", "your", "please", "tell", "name", "names", "number",
            "count", "total", "average", "id", "ids", "also", "any", "not", "no", "both", "between", "when",
            "where", "order", "sorted", "sort", "descending", "ascending", "top", "one", "two", "three", "only");

    private Words() {}

    /** The words of an identifier or description, stemmed; stop words are kept (a column may be called "name"). */
    public static Set<String> ofName(String name) {
        Set<String> out = new LinkedHashSet<>();
        split(name, out, false);
        return out;
    }

    /** The words of a question, stemmed, without stop words. */
    public static Set<String> ofText(String text) {
        Set<String> out = new LinkedHashSet<>();
        split(text, out, true);
        return out;
    }

    /**
     * The words of a question plus each pair of neighbouring words run together ("high schoolers" also gives
     * highschooler), so a question meets names written as one word; not with a stop word ("the youngest" gives no
     * theyoungest, which only matches by chance: on the tuning half 0.967 of the gold tables with those, 0.970
     * without).
     */
    public static Set<String> withCompounds(String text) {
        Set<String> out = ofText(text);
        Set<String> all = new LinkedHashSet<>();
        split(text, all, false);
        String previous = null;
        for (String w : all) {
            if (previous != null && !STOP.contains(previous) && !STOP.contains(w)) {
                out.add(stem(previous + w));
            }
            previous = w;
        }
        return out;
    }

    private static void split(String text, Set<String> out, boolean dropStopWords) {
        if (text == null) {
            return;
        }
        StringBuilder word = new StringBuilder();
        char previous = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ' ';
            boolean letter = Character.isLetter(c);
            boolean hump = letter && Character.isUpperCase(c) && Character.isLowerCase(previous)
                    || letter && Character.isLetter(previous) && Character.isUpperCase(previous) && Character.isLowerCase(c)
                    && word.length() > 1;
            if (!letter || hump) {
                if (hump && !(Character.isUpperCase(c) && Character.isLowerCase(previous))) {
                    // "IDName": the last capital starts the next word
                    char last = word.charAt(word.length() - 1);
                    word.setLength(word.length() - 1);
                    add(word, out, dropStopWords);
                    word.setLength(0);
                    word.append(last);
                } else {
                    add(word, out, dropStopWords);
                    word.setLength(0);
                }
            }
            if (letter) {
                word.append(c);
            }
            previous = c;
        }
    }

    private static void add(StringBuilder word, Set<String> out, boolean dropStopWords) {
        if (word.isEmpty()) {
            return;
        }
        String w = word.toString().toLowerCase(Locale.ROOT);
        if (dropStopWords && (STOP.contains(w) || w.length() < 2)) {
            return;
        }
        out.add(stem(w));
    }

    /** Plural endings off: countries → country, classes → class, singers → singer; short words stay. */
    static String stem(String w) {
        if (w.length() > 4 && w.endsWith("ies")) {
            return w.substring(0, w.length() - 3) + "y";
        }
        if (w.length() > 4 && (w.endsWith("ses") || w.endsWith("xes") || w.endsWith("ches") || w.endsWith("shes"))) {
            return w.substring(0, w.length() - 2);
        }
        if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }

    /** How well a question word meets a name word: 1 for the same stem, 0.6 when one starts the other (≥ 4 letters). */
    static double match(String questionWord, String nameWord) {
        if (questionWord.equals(nameWord)) {
            return 1.0;
        }
        int shorter = Math.min(questionWord.length(), nameWord.length());
        if (shorter >= 4 && (questionWord.startsWith(nameWord) || nameWord.startsWith(questionWord))) {
            return 0.6;
        }
        return 0.0;
    }
}
