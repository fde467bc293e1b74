package io.flowsql.agents.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.opensearch.fewshot.FewShotExample;
import io.flowsql.agents.opensearch.fewshot.FewShotStage;
import io.flowsql.agents.opensearch.fewshot.QuestionMasker;
import io.flowsql.llm.ScriptedLlmClient;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.SpiderData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dynamic few-shot on Spider dev: a library built from the first half of the dev databases (by name), retrieval
 * for questions of the other half, so no question can see its own database.
 */
class FewShotTest {
    private static final List<String> SHAPE_WORDS = List.of("COUNT", "GROUP BY", "ORDER BY", "JOIN", "WHERE", "LIMIT",
            "HAVING", "INTERSECT", "UNION", "EXCEPT", "NOT IN", "AVG", "MAX", "MIN", "SUM", "DISTINCT", "LIKE");
    private static final List<String[]> LIBRARY_ITEMS = new ArrayList<>();
    private static final List<String[]> QUESTIONS = new ArrayList<>();
    private static final Set<String> LIBRARY_DBS = new TreeSet<>();

    @BeforeAll
    static void split() throws Exception {
        JsonNode dev = new ObjectMapper().readTree(SpiderData.sharedData().resolve("spider/dev.json").toFile());
        TreeSet<String> dbs = new TreeSet<>();
        for (JsonNode q : dev) {
            if (SpiderAgentParts.LOCATOR.sqliteFile(q.path("db_id").asText()).isPresent()) {
                dbs.add(q.path("db_id").asText());
            }
        }
        List<String> sorted = new ArrayList<>(dbs);
        LIBRARY_DBS.addAll(sorted.subList(0, sorted.size() / 2));
        for (int i = 0; i < dev.size(); i++) {
            JsonNode q = dev.get(i);
            String db = q.path("db_id").asText();
            String[] item = {"spider-dev#" + i, db, q.path("question").asText(), q.path("query").asText()};
            if (LIBRARY_DBS.contains(db)) {
                LIBRARY_ITEMS.add(item);
            } else if (dbs.contains(db)) {
                QUESTIONS.add(item);
            }
        }
    }

    private static Set<String> shape(String sql) {
        String upper = sql.toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        Set<String> out = new HashSet<>();
        SHAPE_WORDS.stream().filter(upper::contains).forEach(out::add);
        return out;
    }

    private static double jaccard(Set<String> a, Set<String> b) {
        Set<String> union = new HashSet<>(a);
        union.addAll(b);
        Set<String> both = new HashSet<>(a);
        both.retainAll(b);
        return union.isEmpty() ? 1 : (double) both.size() / union.size();
    }

    @Test
    void masksSchemaWordsAndValues() {
        String masked = QuestionMasker.mask("What are the names of the singers from France older than 30?",
                SpiderAgentParts.CATALOG.schema("concert_singer"));
        assertThat(masked).isEqualTo("what are the <schema> of the <schema> from <value> older than <value>");
    }

    @Test
    void theOtherHalfRetrievesExamplesOfTheSameShapeFarMoreOftenThanChance(@TempDir Path dir) {
        Path file = dir.resolve("library.jsonl");
        ExampleLibrary.write(ExampleLibrary.build(LIBRARY_ITEMS, SpiderAgentParts.CATALOG), file);
        ExampleLibrary library = ExampleLibrary.load(file);
        assertThat(library.size()).isEqualTo(LIBRARY_ITEMS.size());

        double retrieved = 0;
        double chance = 0;
        for (int i = 0; i < QUESTIONS.size(); i++) {
            String[] q = QUESTIONS.get(i);
            String masked = QuestionMasker.mask(q[2], SpiderAgentParts.CATALOG.schema(q[1]));
            List<ExampleLibrary.Hit> hits = library.similar(masked, q[1], q[2], 3);
            assertThat(hits).hasSize(3).allSatisfy(h -> assertThat(LIBRARY_DBS).contains(h.example().dbId()))
                    .noneSatisfy(h -> assertThat(h.example().dbId()).isEqualTo(q[1]));
            retrieved += jaccard(shape(q[3]), shape(hits.get(0).example().sql()));
            chance += jaccard(shape(q[3]), shape(LIBRARY_ITEMS.get((i * 7919) % LIBRARY_ITEMS.size())[3]));
        }
        retrieved /= QUESTIONS.size();
        chance /= QUESTIONS.size();
        System.out.printf(Locale.ROOT, "few-shot: %d library examples, %d questions; SQL-shape Jaccard of the top example %.3f vs %.3f by chance%n",
                LIBRARY_ITEMS.size(), QUESTIONS.size(), retrieved, chance);
        assertThat(retrieved).isGreaterThan(chance + 0.15);
    }

    @Test
    void theStageRetrievesAndTheGeneratorShowsTheExamples() {
        ExampleLibrary library = new ExampleLibrary(ExampleLibrary.build(LIBRARY_ITEMS, SpiderAgentParts.CATALOG));
        String[] q = QUESTIONS.stream().filter(x -> x[2].startsWith("How many")).findFirst().orElseThrow();
        RequestContext ctx = new RequestContext();
        ctx.dbId = q[1];
        ctx.question = q[2];
        new FewShotStage(SpiderAgentParts.ROOM.holding(library), 2, false).applyAs("opensearch.fewshot", ctx).join();
        assertThat(ctx.notes.get(FewShotStage.NOTE)).matches("spider-dev#\\d+=\\d\\.\\d\\d,spider-dev#\\d+=\\d\\.\\d\\d");
        assertThat(ctx.trace.get(0).stage).isEqualTo("opensearch.fewshot");

        ScriptedLlmClient llm = ScriptedLlmClient.alwaysResponds("#SQL:\n```sql\nSELECT 1\n```");
        new OpenSearchGenerateStage(new ProgressiveGenerator(new AgentCall(llm), 1, 0.0),
                SpiderAgentParts.schemasHolding(library), 6).applyAs("opensearch.generate", ctx).join();
        String prompt = llm.requests().get(0).messages().get(1).content();
        FewShotExample top = library.byId(ctx.notes.get(FewShotStage.NOTE).split("=")[0]).orElseThrow();
        assertThat(prompt).contains("Example question: " + top.question(), "Example SQL: " + top.sql().replaceAll("\\s+", " "));
        assertThat(top.question().toLowerCase(Locale.ROOT)).startsWith("how many");

        RequestContext none = new RequestContext();
        none.dbId = q[1];
        none.question = q[2];
        new FewShotStage(SpiderAgentParts.ROOM, 2, false).applyAs("opensearch.fewshot", none).join();
        assertThat(none.notes).doesNotContainKey(FewShotStage.NOTE);
        assertThat(FewShotStage.promptText(none, SpiderAgentParts.ROOM.holding(library))).isEqualTo("(none)");
    }

    /** An example with a reasoning step shows question, reasoning and SQL in that order (OpenSearch-SQL's question → CoT → SQL). */
    @Test
    void anExampleWithAReasoningShowsItBetweenQuestionAndSql() {
        FewShotExample example = new FewShotExample("lib#1", "concert_singer", "How many singers are from France?",
                "how many <schema> are from <value>", null, "SELECT count(*) FROM singer WHERE Country = 'France'")
                .withReasoning("#reason: one number; \"from France\" is a filtering condition.\n#SQL-like: Show count(*) where "
                        + "singer.Country = 'France'", "sim", true);
        ExampleLibrary library = new ExampleLibrary(List.of(example));
        RequestContext ctx = new RequestContext();
        ctx.notes.put(FewShotStage.NOTE, "lib#1=0.91");
        String text = FewShotStage.promptText(ctx, SpiderAgentParts.ROOM.holding(library));
        assertThat(text).containsSubsequence("Example question: How many singers are from France?",
                "Example reasoning: #reason: one number;", "#SQL-like: Show count(*)",
                "Example SQL: SELECT count(*) FROM singer WHERE Country = 'France'");
        assertThat(example.reasoningSimulated()).isTrue();
    }
}
