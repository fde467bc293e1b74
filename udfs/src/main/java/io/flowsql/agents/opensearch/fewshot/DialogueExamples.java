package io.flowsql.agents.opensearch.fewshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.sql.catalog.SchemaCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Few-shot examples taken from multi-turn dev sets in the SParC/CoSQL layout ({@code {"db_name", "turns": [{"isUser":
 * true, "text"}, {"query"}, ...]}}): each dialogue's first question with its gold SQL, the only turn that reads on its
 * own (later turns lean on the ones before). Their databases are Spider dev's, so retrieval for a Spider question must
 * skip the question's own database ({@link ExampleLibrary#similar(String, String, String, int, boolean)}), as the
 * authors' training examples never share a database with the dev set.
 */
public final class DialogueExamples {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DialogueExamples() {}

    /**
     * The first turns of every file, masked with their database's schema; ids {@code <file stem>#d<dialogue>}. A turn
     * whose database the catalog lacks, or which repeats an earlier (database, question), is left out.
     */
    public static List<FewShotExample> build(List<Path> files, SchemaCatalog catalog) {
        List<String[]> items = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Path file : files) {
            JsonNode root = read(file);
            String stem = file.getFileName().toString().replaceFirst("\\.json$", "");
            for (int d = 0; d < root.size(); d++) {
                String[] first = firstTurn(root.get(d));
                if (first != null && catalog.contains(first[0])
                        && seen.add(first[0] + "\n" + first[1].toLowerCase(Locale.ROOT))) {
                    items.add(new String[] {stem + "#d" + d, first[0], first[1], first[2]});
                }
            }
        }
        return ExampleLibrary.build(items, catalog);
    }

    /** {db, question, sql} of a dialogue's first user turn answered with SQL, or null. */
    private static String[] firstTurn(JsonNode dialogue) {
        JsonNode turns = dialogue.path("turns");
        if (turns.size() < 2 || !isUser(turns.get(0)) || isUser(turns.get(1))) {
            return null;
        }
        String question = turns.get(0).path("text").asText("").strip();
        String sql = untokenised(turns.get(1).path("query").asText(""));
        if (question.isEmpty() || !sql.toUpperCase(Locale.ROOT).startsWith("SELECT")) {
            return null;
        }
        return new String[] {dialogue.path("db_name").asText(), question, sql};
    }

    private static boolean isUser(JsonNode turn) {
        return turn.path("isUser").asBoolean(false) || turn.path("isuser").asBoolean(false);
    }

    /** The release's tokenised spacing undone ({@code ! =}, {@code > =}, {@code < =} break SQLite), whitespace collapsed. */
    static String untokenised(String sql) {
        return sql.strip().replaceAll("([!<>])\\s+=", "$1=").replaceAll("\\s+", " ");
    }

    private static JsonNode read(Path file) {
        try {
            JsonNode root = JSON.readTree(file.toFile());
            if (root == null || !root.isArray()) {
                throw new IllegalArgumentException(file + ": expected a list of dialogues in the SParC/CoSQL layout");
            }
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the few-shot source " + file, e);
        }
    }
}
