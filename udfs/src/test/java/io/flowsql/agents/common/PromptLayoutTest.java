package io.flowsql.agents.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.llm.ChatMessage;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every prompt pair on the classpath is laid out for a server's prefix cache: the system text does not change
 * with the question, every user message starts with the same database block (id and schema, closed by the
 * end-of-schema line), and the question comes after it. A new prompt that puts the schema in its own user file,
 * or a per-question field into its system file, fails here.
 */
class PromptLayoutTest {
    private static final String SCHEMA = "# Table: singer\n(Singer_ID, number, primary key)\n(Name, text, examples: ['Joe Sharp'])\n";

    @Test
    void everyPairSharesTheDatabaseBlockAndKeepsTheQuestionAfterIt() throws Exception {
        List<String> bases = pairBases();
        assertThat(bases).hasSizeGreaterThan(10).contains("opensearch/generate", "mmsql/detect");
        String sharedHead = null;
        for (String base : bases) {
            PromptPair pair = PromptPair.load(base);
            assertThat(pair.userTemplate().placeholders()).as(base).doesNotContain("schema", "db_id");
            assertThat(pair.userTemplate().text().lines()).as(base)
                    .noneMatch(line -> line.startsWith("Database:") || line.equals("Schema:"));

            List<ChatMessage> first = pair.render(vars(pair, "How many singers are there?"));
            List<ChatMessage> second = pair.render(vars(pair, "What is the name of the oldest singer?"));
            assertThat(first.get(0).content()).as(base + ": system text may not depend on the question")
                    .isEqualTo(second.get(0).content());
            String user = first.get(1).content();
            int end = user.indexOf("\n" + PromptPair.END_OF_SCHEMA + "\n");
            assertThat(end).as(base).isPositive();
            String head = user.substring(0, end);
            assertThat(head).as(base).isEqualTo("Database: concert_singer\nSchema:\n" + SCHEMA);
            assertThat(second.get(1).content()).as(base).startsWith(head);
            if (sharedHead != null) {
                assertThat(head).as(base + " shares the database block byte for byte").isEqualTo(sharedHead);
            }
            sharedHead = head;
            if (pair.placeholders().contains("question")) {
                assertThat(user.indexOf("Question: How many singers are there?")).as(base).isGreaterThan(end);
            }
        }
    }

    private static PromptFields vars(PromptPair pair, String question) {
        PromptFields vars = PromptFields.none();
        for (String p : pair.placeholders()) {
            vars = vars.with(p, "(none)");
        }
        return vars.with("db_id", "concert_singer").with("schema", SCHEMA).with("question", question);
    }

    /** "paper/agent" of every system prompt file under prompts/. */
    private static List<String> pairBases() throws IOException, URISyntaxException {
        Path root = Path.of(PromptLayoutTest.class.getClassLoader().getResource("prompts").toURI());
        try (Stream<Path> files = Files.walk(root)) {
            return files.map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(name -> name.endsWith(".system.txt"))
                    .map(name -> name.substring(0, name.length() - ".system.txt".length()))
                    .sorted().toList();
        }
    }
}
