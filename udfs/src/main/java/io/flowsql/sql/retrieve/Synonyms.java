package io.flowsql.sql.retrieve;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The few question words a schema usually names by another word ("nations" for a {@code country} table, "speak" for a
 * {@code language} column), from the resource {@code retrieve/synonyms.txt}: a question's words gain the schema's
 * words, so routing and ranking meet the table. Loaded once; a map lookup per question word.
 */
final class Synonyms {
    static final String RESOURCE = "/retrieve/synonyms.txt";
    private static final Map<String, List<String>> WORDS = load();

    private Synonyms() {}

    /** {@code words} plus the schema words their synonyms give (stemmed). */
    static Set<String> expand(Set<String> words) {
        Set<String> out = new LinkedHashSet<>(words);
        for (String w : words) {
            out.addAll(WORDS.getOrDefault(w, List.of()));
        }
        return out;
    }

    private static Map<String, List<String>> load() {
        Map<String, List<String>> out = new HashMap<>();
        try (InputStream in = Synonyms.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String s = line.strip();
                int eq = s.indexOf('=');
                if (s.isEmpty() || s.startsWith("#") || eq < 0) {
                    continue;
                }
                String word = Words.stem(s.substring(0, eq).strip().toLowerCase(java.util.Locale.ROOT));
                out.put(word, List.copyOf(Words.ofName(s.substring(eq + 1))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.copyOf(out);
    }
}
