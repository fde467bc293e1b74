package io.flowsql.agents.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.simulator.agents.OpenSearchGenerateResponder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@link CodeFences} against the patterns it replaced in {@link ModelOutput}: the same contents, in the same order,
 * on generated texts full of the characters that decide a fence, and on real replies.
 */
class CodeFencesTest {
    private static final Map<CodeFences, Pattern> REPLACED = Map.of(
            CodeFences.SQL, Pattern.compile("```[ \\t]*(?:sql|sqlite)[ \\t]*\\R(.*?)```", Pattern.CASE_INSENSITIVE | Pattern.DOTALL),
            CodeFences.PLAIN, Pattern.compile("```[ \\t]*\\R(.*?)```", Pattern.DOTALL),
            CodeFences.JSON, Pattern.compile("```[ \\t]*json[ \\t]*\\R(.*?)```", Pattern.CASE_INSENSITIVE | Pattern.DOTALL));
    /** Backticks of every count, blanks, every line terminator \R knows, info words in all cases and near misses, letters that fold only in Unicode. */
    private static final String[] PIECES = {"```", "``", "`", "````", " ", "\t", "sql", "SQL", "Sql", "sqlite", "SQLite",
        "sqlit", "sqlitex", "json", "JSON", "Json", "jsonx", "\n", "\r", "\r\n", "\u000B", "\f", "\u0085", "\u2028", "\u2029",
        "SELECT 1", "x", "\u017Fql", "\u0130", "\u212A", "j\u017Fon", "\u00E9", "```sql\n", "``` json\r\n", "```\n", "```SQL \t\r",
        "```sqlite\u2028", "\n```"};

    @Test
    void findsTheSameContentsAsThePatternsOnGeneratedTexts() {
        Random random = new Random(57);
        int withFences = 0;
        for (int i = 0; i < 50_000; i++) {
            StringBuilder text = new StringBuilder();
            int pieces = random.nextInt(30);
            for (int p = 0; p < pieces; p++) {
                text.append(PIECES[random.nextInt(PIECES.length)]);
            }
            for (Map.Entry<CodeFences, Pattern> fence : REPLACED.entrySet()) {
                List<String> expected = byPattern(fence.getValue(), text.toString());
                assertThat(fence.getKey().contents(text.toString())).as("%s in %s", fence.getValue(), Escaped.text(text.toString()))
                        .containsExactlyElementsOf(expected);
                withFences += expected.isEmpty() ? 0 : 1;
            }
        }
        // the generator reaches the interesting cases: a good share of texts hold fences
        assertThat(withFences).isGreaterThan(20_000);
    }

    @Test
    void findsTheSameContentsAsThePatternsOnRealReplies() {
        List<String> replies = new ArrayList<>();
        replies.add(OpenSearchGenerateResponder.progressive("SELECT count(*) FROM singer"));
        replies.add("Here you go:\r\n```SQL\r\nSELECT name FROM singer;\r\n```\r\nand as JSON:\n```json\n{\"sql\": \"SELECT 1\"}\n```\n"
                + "```\nSELECT 2\n``` trailing ```sqlite\nWITH t AS (SELECT 1) SELECT * FROM t\n```");
        for (String reply : replies) {
            for (Map.Entry<CodeFences, Pattern> fence : REPLACED.entrySet()) {
                assertThat(fence.getKey().contents(reply)).containsExactlyElementsOf(byPattern(fence.getValue(), reply));
            }
        }
        assertThat(CodeFences.SQL.contents(replies.get(1)))
                .containsExactly("SELECT name FROM singer;\r\n", "WITH t AS (SELECT 1) SELECT * FROM t\n");
        assertThat(ModelOutput.sql(replies.get(1))).hasValue("WITH t AS (SELECT 1) SELECT * FROM t");
    }

    private static List<String> byPattern(Pattern fence, String text) {
        List<String> out = new ArrayList<>();
        Matcher m = fence.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
