package io.flowsql.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.pipeline.RequestContext;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KnowledgeBookTest {
    private static final KnowledgeLimits LIMITS = new KnowledgeLimits(3, 10_000, 2);

    @Test
    void aQuestionMentioningTheTermOnItsDatabaseGetsTheDefinition() {
        KnowledgeBook book = new KnowledgeBook(LIMITS);
        book.apply(KnowledgeEntry.add("k1", "concert_singer", "veteran singer", "a singer older than 40", 1));
        assertThat(ids(book.select("concert_singer", null, null, "How many veteran singers are there?"))).containsExactly("k1");
        assertThat(ids(book.select("concert_singer", null, null, "Which singers are veterans?"))).as("all the words, plurals folded")
                .containsExactly("k1");
        assertThat(book.select("concert_singer", null, null, "How many singers are there?")).isEmpty();
        assertThat(book.select("pets_1", null, null, "How many veteran singers are there?")).as("another database").isEmpty();
    }

    @Test
    void aTenantOrSchemaScopedDefinitionReachesOnlyThatTenantOrSchema() {
        KnowledgeBook book = new KnowledgeBook(LIMITS);
        KnowledgeEntry e = KnowledgeEntry.add("k1", "shop", "active customer", "a customer with an order in the last 90 days", 1);
        e.tenant = "acme";
        e.schema = "sales";
        book.apply(e);
        String q = "How many active customers are there?";
        assertThat(ids(book.select("shop", "sales", "acme", q))).containsExactly("k1");
        assertThat(book.select("shop", "sales", "globex", q)).isEmpty();
        assertThat(book.select("shop", "sales", null, q)).isEmpty();
        assertThat(book.select("shop", "hr", "acme", q)).isEmpty();
        assertThat(book.select("shop", null, "acme", q)).as("no schema given or named").isEmpty();
        assertThat(ids(book.select("shop", null, "acme", q + " In sales?"))).containsExactly("k1");
    }

    @Test
    void candidatesForSimilarityAreTheQuestionsScopeLessTheTermMatchesNewestFirstAndBounded() {
        KnowledgeBook book = new KnowledgeBook(new KnowledgeLimits(10, 10_000, 3));
        book.apply(KnowledgeEntry.add("k1", "shop", "active customer", "an order in the last 90 days", 1));
        book.apply(KnowledgeEntry.add("k2", "shop", "net revenue", "price minus discount", 2));
        book.apply(KnowledgeEntry.add("k3", "shop", "churned", "no order for a year", 3));
        KnowledgeEntry acme = KnowledgeEntry.add("k4", "shop", "big order", "over 1000 euros", 4);
        acme.tenant = "acme";
        book.apply(acme);
        book.apply(KnowledgeEntry.add("k5", "pets_1", "old pet", "older than 10", 5));
        String q = "How many active customers are there?";
        List<KnowledgeEntry> chosen = book.select("shop", null, "globex", q);
        assertThat(ids(book.candidates("shop", null, "globex", q, chosen, 10))).as("not the term match, another tenant's, another database's")
                .containsExactly("k3", "k2");
        assertThat(ids(book.candidates("shop", null, "acme", q, chosen, 2))).containsExactly("k4", "k3");
        assertThat(book.candidates("shop", null, "acme", q, chosen, 0)).as("off").isEmpty();
        assertThat(book.candidates("shop", null, "acme", q, book.definitions().subList(0, 3), 10)).as("the bound is full").isEmpty();
    }

    @Test
    void applyingTwiceChangesNothingAndARetractionBlocksItsTargetBeforeOrAfter() {
        KnowledgeBook book = new KnowledgeBook(LIMITS);
        KnowledgeEntry e = KnowledgeEntry.add("k1", "db", "big stadium", "capacity above 10000", 1);
        assertThat(book.apply(e)).containsExactly("k1");
        assertThat(book.apply(e)).isEmpty();
        KnowledgeEntry changed = KnowledgeEntry.add("k1", "db", "big stadium", "something else", 2);
        assertThat(book.apply(changed)).as("the first one wins").isEmpty();
        assertThat(book.apply(KnowledgeEntry.retraction("r1", "k1", 3))).containsExactlyInAnyOrder("k1", "r1");
        assertThat(book.select("db", null, null, "Which big stadiums are there?")).isEmpty();
        assertThat(book.apply(e)).as("a retracted id is never applied again").isEmpty();

        book.apply(KnowledgeEntry.retraction("r2", "k2", 4));
        assertThat(book.apply(KnowledgeEntry.add("k2", "db", "small stadium", "capacity below 5000", 5))).isEmpty();
        assertThat(book.definitions()).isEmpty();
    }

    @Test
    void theOldestAreEvictedBeyondTheBoundsAndOnlyAFewReachOneQuestion() {
        KnowledgeBook book = new KnowledgeBook(LIMITS);
        for (int i = 1; i <= 4; i++) {
            book.apply(KnowledgeEntry.add("k" + i, "db", "term" + i, "definition " + i, i));
        }
        assertThat(ids(book.definitions())).containsExactly("k2", "k3", "k4");
        assertThat(book.get("k1")).get().extracting(x -> x.action).isEqualTo(KnowledgeEntry.TOMBSTONE);
        assertThat(book.select("db", null, null, "term2 term3 term4")).as("per question").hasSize(2);

        KnowledgeBook small = new KnowledgeBook(new KnowledgeLimits(100, 600, 5));
        small.apply(KnowledgeEntry.add("a", "db", "alpha", "x".repeat(100), 1));
        small.apply(KnowledgeEntry.add("b", "db", "beta", "y".repeat(100), 2));
        small.apply(KnowledgeEntry.add("c", "db", "gamma", "z".repeat(100), 3));
        assertThat(ids(small.definitions())).as("bytes bound").containsExactly("b", "c");
    }

    @Test
    void aRestoredBookSelectsAsBefore() {
        KnowledgeBook book = new KnowledgeBook(LIMITS);
        book.apply(KnowledgeEntry.add("k1", "db", "big stadium", "capacity above 10000", 1));
        book.apply(KnowledgeEntry.retraction("r1", "k0", 2));
        Map<String, KnowledgeEntry> state = new LinkedHashMap<>();
        book.definitions().forEach(e -> state.put(e.knowledgeId, e));
        book.get("k0").ifPresent(e -> state.put("k0", e));
        KnowledgeBook restored = KnowledgeBook.restore(LIMITS, state.entrySet());
        assertThat(ids(restored.select("db", null, null, "big stadiums"))).containsExactly("k1");
        assertThat(restored.apply(KnowledgeEntry.add("k0", "db", "x", "y", 3))).isEmpty();
    }

    @Test
    void theDefinitionsGoIntoTheEvidenceAfterTheQuestionsOwnAndAreNamed() {
        RequestContext ctx = new RequestContext();
        ctx.evidence = "age is in years";
        KnowledgeEvidence.attach(ctx, List.of(KnowledgeEntry.add("k1", "db", "veteran singer", "a singer older than 40", 1)));
        assertThat(ctx.evidence).isEqualTo("age is in years; \"veteran singer\" means: a singer older than 40");
        assertThat(KnowledgeEvidence.used(ctx)).containsExactly("k1");
        RequestContext none = new RequestContext();
        KnowledgeEvidence.attach(none, List.of());
        assertThat(none.evidence).isNull();
        assertThat(KnowledgeEvidence.used(none)).isEmpty();
    }

    @Test
    void recordsAreReadAsFeedbackIs() {
        KnowledgeRecords records = new KnowledgeRecords("concert_singer"::equals, 4096);
        KnowledgeRecords.Read ok = records.read(bytes("{\"action\":\"add\",\"knowledge_id\":\"k1\",\"db_id\":\"concert_singer\","
                + "\"term\":\"veteran singer\",\"definition\":\"a singer older than 40\",\"tenant\":\"acme\"}"), 7);
        assertThat(ok.isValid()).isTrue();
        assertThat(ok.entry().tenant).isEqualTo("acme");
        assertThat(ok.entry().timestampMillis).isEqualTo(7);
        assertThat(records.read(bytes("{\"action\":\"retract\",\"knowledge_id\":\"r1\",\"retracts\":\"k1\"}"), 8).entry().retracts)
                .isEqualTo("k1");
        assertThat(records.read(bytes("{\"action\":\"add\",\"knowledge_id\":\"k1\",\"db_id\":\"nope\",\"term\":\"ab\",\"definition\":\"c\"}"), 1)
                .refusal()).startsWith("unknown_database");
        assertThat(records.read(bytes("{\"action\":\"add\",\"knowledge_id\":\"k1\",\"db_id\":\"concert_singer\",\"term\":\"ab\"}"), 1)
                .refusal()).startsWith("schema");
        assertThat(records.read(bytes("{\"action\":\"add\"} trailing"), 1).refusal()).startsWith("not_json");
        assertThat(records.read(bytes("{\"action\":\"add\",\"knowledge_id\":\"k1\",\"db_id\":\"concert_singer\",\"term\":\"ab\","
                + "\"definition\":\"" + "x".repeat(5000) + "\"}"), 1).refusal()).startsWith("too_large");
        assertThat(records.read(bytes("{\"action\":\"add\",\"knowledge_id\":\"k1\",\"db_id\":\"concert_singer\",\"term\":\"ab\","
                + "\"definition\":\"" + "x".repeat(1001) + "\"}"), 1).refusal()).as("definition too long").startsWith("schema");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> ids(List<KnowledgeEntry> entries) {
        return entries.stream().map(e -> e.knowledgeId).toList();
    }
}
