package io.flowsql.agents.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.simulator.agents.OpenSearchGenerateResponder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link TagLines} against the pattern it replaced, {@code (?im)^[ \t]*#+[ \t]*(tag|...)[ \t]*:} with the tags longest
 * first: the same sections on generated texts full of the characters that decide a match, and on real replies.
 */
class TagLinesTest {
    private static final List<String> PROGRESSIVE = List.of("reason", "columns", "values", "SELECT", "SQL-like", "SQL");
    private static final List<String> REFINER = List.of("choice", "wrong");
    /** Line terminators of every kind, blanks, hashes, colons, tag letters in both cases and letters that fold in Unicode only. */
    private static final String[] PIECES = {"#", "##", " ", "\t", ":", "\n", "\r", "\r\n", "\u0085", "\u2028", "\u2029",
        "SQL", "sql", "Sql", "-like", "-LIKE", "SELECT", "select", "reason", "REASON", "columns", "values", "choice",
        "WRONG", "wrong", "s", "l", "x", "\u017F", "\u212A", "\u0131", "\u0130", "SQL-likes", "```sql\nSELECT 1\n```", "é"};

    @Test
    void findsTheSameSectionsAsThePatternOnGeneratedTexts() {
        Random random = new Random(56);
        int withSections = 0;
        for (int i = 0; i < 40_000; i++) {
            StringBuilder text = new StringBuilder();
            int pieces = random.nextInt(24);
            for (int p = 0; p < pieces; p++) {
                // half the pieces are lines shaped like an opening: blanks, hashes, blanks, a tag, blanks, a colon,
                // each part sometimes left out or swapped for another piece
                text.append(random.nextBoolean() ? PIECES[random.nextInt(PIECES.length)] : openingLike(random));
            }
            for (List<String> tags : List.of(PROGRESSIVE, REFINER, List.of("sql", "SQL"))) {
                Map<String, String> expected = byPattern(text.toString(), tags);
                assertThat(ModelOutput.tagged(text.toString(), tags)).as("%s in %s", tags, Escaped.text(text.toString()))
                        .containsExactlyEntriesOf(expected);
                withSections += expected.isEmpty() ? 0 : 1;
            }
        }
        // the generator reaches the interesting cases: a good share of texts open sections
        assertThat(withSections).isGreaterThan(15_000);
    }

    @Test
    void findsTheSameSectionsAsThePatternOnRealReplies() {
        List<String> replies = new ArrayList<>();
        for (String sql : List.of("SELECT count(*) FROM singer", "SELECT T2.name , count(*) FROM concert AS T1 JOIN "
                + "stadium AS T2 ON T1.stadium_id = T2.stadium_id\nWHERE T1.year >= 2014 GROUP BY T1.stadium_id")) {
            replies.add(OpenSearchGenerateResponder.progressive(sql));
        }
        replies.add("  ## Reason :  the question asks for a count\r\n#SQL-like: SELECT count(singer)\r\n"
                + "# SQL:\r\n```sql\r\nSELECT count(*) FROM singer\r\n```\r\n#SQL-like: again");
        replies.add("#choice: B\n#wrong: the join drops rows\n#choice : A");
        for (String reply : replies) {
            for (List<String> tags : List.of(PROGRESSIVE, REFINER)) {
                assertThat(ModelOutput.tagged(reply, tags)).containsExactlyEntriesOf(byPattern(reply, tags));
            }
        }
        Map<String, String> sections = ModelOutput.tagged(replies.get(2), PROGRESSIVE);
        assertThat(sections).containsEntry("reason", "the question asks for a count").containsEntry("SQL-like", "again");
        assertThat(sections.get("SQL")).contains("SELECT count(*) FROM singer");
    }

    private static String openingLike(Random random) {
        String[][] parts = {{"", " ", "\t", "  "}, {"#", "##", "", "# #"}, {"", " ", "\t"},
            {"SQL", "sql", "SQL-like", "SQL-LIKE", "reason", "Reason", "choice", "wrong", "SELECT", "columns", "values", "SQL-l\u0130ke", "SQL-li\u212Ae", "cho\u0130ce"},
            {"", " ", "\t "}, {":", ":", ": x", ";"}, {"\n", "\r\n", "\r", "\u2028", " text\n", ""}};
        StringBuilder line = new StringBuilder();
        for (String[] choices : parts) {
            line.append(random.nextInt(8) == 0 ? PIECES[random.nextInt(PIECES.length)] : choices[random.nextInt(choices.length)]);
        }
        return line.toString();
    }

    /** ModelOutput.tagged as it was, with the pattern. */
    private static Map<String, String> byPattern(String text, List<String> tags) {
        List<String> byLength = new ArrayList<>(tags);
        byLength.sort(Comparator.comparingInt(String::length).reversed());
        String alternatives = byLength.stream().map(Pattern::quote).collect(Collectors.joining("|"));
        Matcher m = Pattern.compile("(?im)^[ \\t]*#+[ \\t]*(" + alternatives + ")[ \\t]*:").matcher(text);
        Map<String, String> sections = new LinkedHashMap<>();
        String currentTag = null;
        int contentStart = 0;
        while (m.find()) {
            if (currentTag != null) {
                sections.put(currentTag, text.substring(contentStart, m.start()).trim());
            }
            String found = m.group(1);
            currentTag = tags.stream().filter(t -> t.equalsIgnoreCase(found)).findFirst().orElse(found);
            contentStart = m.end();
        }
        if (currentTag != null) {
            sections.put(currentTag, text.substring(contentStart).trim());
        }
        return sections;
    }
}
