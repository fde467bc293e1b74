package io.flowsql.agents.opensearch.fewshot;

import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenSearch-SQL's masked question: the words that name the database's tables and columns become
 * {@code <schema>}, quoted text, numbers and capitalised words inside the sentence (values such as "France")
 * become {@code <value>}, so two questions compare by what they ask, not by the database they ask it of.
 */
public final class QuestionMasker {
    public static final String SCHEMA = "<schema>";
    public static final String VALUE = "<value>";
    private static final Pattern TOKEN = Pattern.compile("'[^']*'|\"[^\"]*\"|[A-Za-z][A-Za-z0-9]*|\\d+(?:\\.\\d+)?");

    private QuestionMasker() {}

    /** The masked question as space-separated lower-case tokens. */
    public static String mask(String question, DatabaseSchema schema) {
        Set<String> schemaWords = schemaWords(schema);
        List<String> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(question == null ? "" : question);
        boolean first = true;
        while (m.find()) {
            String token = m.group();
            char c = token.charAt(0);
            String lower = token.toLowerCase(Locale.ROOT);
            if (c == '\'' || c == '"' || Character.isDigit(c) || (!first && Character.isUpperCase(c))) {
                out.add(VALUE);
            } else if (singulars(lower).stream().anyMatch(schemaWords::contains)) {
                out.add(SCHEMA);
            } else {
                out.add(lower);
            }
            first = false;
        }
        return String.join(" ", out);
    }

    private static Set<String> schemaWords(DatabaseSchema schema) {
        Set<String> words = new HashSet<>();
        for (TableSchema table : schema.tables()) {
            addName(words, table.name());
            for (ColumnSchema column : table.columns()) {
                addName(words, column.name());
            }
        }
        // words every question uses would otherwise be masked on schemas that name a column after them
        words.removeAll(Set.of("id", "the", "of", "a", "in", "by", "to", "and", "or", "is", "for"));
        return words;
    }

    private static void addName(Set<String> words, String name) {
        for (String part : name.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (part.length() > 1) {
                words.add(part);
            }
        }
    }

    /** The word and its possible singulars (singers → singer, countries → country, classes → class). */
    private static List<String> singulars(String word) {
        List<String> forms = new ArrayList<>(List.of(word));
        if (word.length() > 3 && word.endsWith("s")) {
            forms.add(word.substring(0, word.length() - 1));
        }
        if (word.length() > 4 && word.endsWith("es")) {
            forms.add(word.substring(0, word.length() - 2));
        }
        if (word.length() > 4 && word.endsWith("ies")) {
            forms.add(word.substring(0, word.length() - 3) + "y");
        }
        return forms;
    }
}
