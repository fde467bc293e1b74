package io.flowsql.agents.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.opensearch.fewshot.DialogueExamples;
import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.opensearch.fewshot.FewShotExample;
import io.flowsql.agents.opensearch.fewshot.FewShotStage;
import io.flowsql.agents.opensearch.fewshot.QuestionMasker;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.sql.SpiderData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The few-shot library built from SParC's and CoSQL's dev dialogues (their first turns), evaluated on Spider dev: the
 * same twenty databases, so the examples are chosen only from the other databases, as the authors' training examples
 * never share one with the dev set; and the masked question, not its entities, decides which examples come first.
 */
class DialogueFewShotTest {
    private static final List<Path> SOURCES = List.of(
            SpiderData.sharedData().resolve("cosql/sparc_dev_SQLonly.json"),
            SpiderData.sharedData().resolve("cosql/cosql_dev_SQLonly.json"));
    private static List<FewShotExample> examples;

    @BeforeAll
    static void build() {
        examples = DialogueExamples.build(SOURCES, SpiderAgentParts.CATALOG);
    }

    @Test
    void theLibraryHoldsEachDialoguesFirstQuestionWithItsSqlUntokenised() {
        assertThat(examples).hasSizeGreaterThan(500).allSatisfy(e -> {
            assertThat(e.id()).matches("(sparc|cosql)_dev_SQLonly#d\\d+");
            assertThat(e.sql()).startsWithIgnoringCase("SELECT").doesNotContain("! =", "> =", "< =");
            assertThat(e.maskedQuestion()).isNotBlank();
        });
        FewShotExample first = examples.get(0);
        assertThat(first.question()).isEqualTo("What are all the airlines?");
        assertThat(first.sql()).isEqualTo("SELECT * FROM AIRLINES");
        assertThat(first.maskedQuestion()).isEqualTo("what are all the <schema>");
        assertThat(examples.stream().map(e -> e.dbId() + "\n" + e.question().toLowerCase(Locale.ROOT)).distinct())
                .hasSameSizeAs(examples);
    }

    @Test
    void noSpiderDevQuestionIsShownAnExampleOfItsOwnDatabaseNorItself() throws Exception {
        ExampleLibrary library = new ExampleLibrary(examples);
        JsonNode dev = new ObjectMapper().readTree(SpiderData.sharedData().resolve("spider/dev.json").toFile());
        int asked = 0;
        int ownDatabaseOnTopWithoutTheRule = 0;
        for (JsonNode q : dev) {
            String db = q.path("db_id").asText();
            if (!SpiderAgentParts.CATALOG.contains(db)) {
                continue;
            }
            RequestContext ctx = new RequestContext();
            ctx.dbId = db;
            ctx.question = q.path("question").asText();
            new FewShotStage(SpiderAgentParts.ROOM.holding(library), 3, true).applyAs("opensearch.fewshot", ctx).join();
            String[] chosen = ctx.notes.get(FewShotStage.NOTE).split(",");
            assertThat(chosen).hasSize(3);
            for (String entry : chosen) {
                FewShotExample e = library.byId(entry.substring(0, entry.lastIndexOf('='))).orElseThrow();
                assertThat(e.dbId()).as("example for \"%s\"", ctx.question).isNotEqualToIgnoringCase(db);
                assertThat(e.question().strip()).isNotEqualToIgnoringCase(ctx.question.strip());
            }
            String masked = QuestionMasker.mask(ctx.question, SpiderAgentParts.CATALOG.schema(db));
            if (library.similar(masked, db, ctx.question, 1, false).get(0).example().dbId().equals(db)) {
                ownDatabaseOnTopWithoutTheRule++;
            }
            asked++;
        }
        System.out.printf(Locale.ROOT, "few-shot from SParC+CoSQL first turns: %d examples, %d Spider dev questions; "
                + "without the other-databases rule %d would be shown an example of their own database first%n",
                examples.size(), asked, ownDatabaseOnTopWithoutTheRule);
        assertThat(asked).isGreaterThan(900);
        // the rule matters: the dialogues paraphrase many dev questions on the same databases
        assertThat(ownDatabaseOnTopWithoutTheRule).isGreaterThan(asked / 10);
    }

    @Test
    void maskingRanksTheSameQuestionShapeAboveTheSameEntities() {
        String question = "How many singers are from France?";
        FewShotExample sameEntities = example("singer", "Which singers are from France?");
        FewShotExample sameShape = example("world_1", "How many countries are in Europe?");
        ExampleLibrary masked = new ExampleLibrary(List.of(sameEntities, sameShape));
        List<ExampleLibrary.Hit> byMask = masked.similar(
                QuestionMasker.mask(question, SpiderAgentParts.CATALOG.schema("concert_singer")), "concert_singer", question, 2, true);
        assertThat(byMask.get(0).example()).isEqualTo(sameShape);

        ExampleLibrary plain = new ExampleLibrary(List.of(unmasked(sameEntities), unmasked(sameShape)));
        List<ExampleLibrary.Hit> byWords = plain.similar(words(question), "concert_singer", question, 2, true);
        assertThat(byWords.get(0).example().id()).isEqualTo(sameEntities.id());
    }

    @Test
    void aMissingLibraryFileIsBuiltAtFirstStartAndReadBackAfterwards(@TempDir Path dir) {
        Path file = dir.resolve("libs/fewshot.jsonl");
        ExampleLibrary built = ExampleLibrary.sharedOrBuilt(file, SOURCES, SpiderAgentParts.CATALOG);
        assertThat(file).exists();
        assertThat(built.size()).isEqualTo(examples.size());
        assertThat(ExampleLibrary.sharedOrBuilt(file, SOURCES, SpiderAgentParts.CATALOG)).isSameAs(built);
        assertThat(ExampleLibrary.load(file).examples()).isEqualTo(built.examples());
        try (var listing = Files.list(file.getParent())) {
            assertThat(listing).containsExactly(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static FewShotExample example(String db, String question) {
        return new FewShotExample(db + "#1", db, question, QuestionMasker.mask(question, SpiderAgentParts.CATALOG.schema(db)),
                null, "SELECT 1");
    }

    private static FewShotExample unmasked(FewShotExample e) {
        return new FewShotExample(e.id(), e.dbId(), e.question(), words(e.question()), null, e.sql());
    }

    private static String words(String question) {
        return question.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 ]", "").strip();
    }
}
