package io.flowsql.knowledge;

import io.flowsql.access.DataDoors;
import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ChatResponse;
import io.flowsql.llm.EmbeddingRequest;
import io.flowsql.llm.EmbeddingResponse;
import io.flowsql.llm.LlmClient;
import io.flowsql.llm.LlmErrorKind;
import io.flowsql.llm.LlmException;
import io.flowsql.llm.TokenUsage;
import io.flowsql.pipeline.KnowledgeInPrompts;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.retrieval.EmbeddingRetriever;
import io.flowsql.simulator.embed.NgramEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Knowledge matched by embedding: a definition whose term the question does not name is used when the question is
 * near it, after the term matches and within the per-question bound; entries' vectors are cached by id; a failed
 * embedding call leaves the term matches alone. Vectors are the simulator's trigram embedding.
 */
class SimilarKnowledgeTest {
    private static final String DB = "concert_singer";
    private static final KnowledgeEntry VETERAN = KnowledgeEntry.add("k-veteran", DB, "veteran singer",
            "a singer older than 40", 1L);
    private static final KnowledgeEntry RECENT = KnowledgeEntry.add("k-recent", DB, "recent concert",
            "a concert held in 2014 or later", 2L);
    private static final KnowledgeEntry LARGE = KnowledgeEntry.add("k-large", DB, "large stadium",
            "a stadium whose capacity is above 10000", 3L);

    /** Embeds with the simulator's trigram embedder and records every batch it is sent; fails while {@code down}. */
    private static final class Embeddings implements LlmClient {
        final List<List<String>> batches = new ArrayList<>();
        boolean down;

        @Override
        public CompletableFuture<ChatResponse> chat(ChatRequest request) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException());
        }

        @Override
        public synchronized CompletableFuture<EmbeddingResponse> embed(EmbeddingRequest request) {
            batches.add(request.inputs());
            if (down) {
                return CompletableFuture.failedFuture(new LlmException(LlmErrorKind.SERVER_ERROR, "down", 500, null));
            }
            return CompletableFuture.completedFuture(new EmbeddingResponse(
                    request.inputs().stream().map(NgramEmbedder::embed).toList(), new TokenUsage(1, 0, false), "ngram",
                    true, 0, 0, false));
        }
    }

    private static RequestContext question(String text, KnowledgeBook book, int candidates) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r-" + text.hashCode();
        ctx.dbId = DB;
        ctx.question = text;
        List<KnowledgeEntry> chosen = book.select(DB, null, null, text);
        KnowledgeEvidence.attach(ctx, chosen);
        KnowledgeCandidates.offer(ctx, book.candidates(DB, null, null, text, chosen, candidates));
        return ctx;
    }

    private static KnowledgeBook book() {
        KnowledgeBook book = new KnowledgeBook(new KnowledgeLimits(10, 10_000, 2));
        for (KnowledgeEntry e : List.of(VETERAN, RECENT, LARGE)) {
            book.apply(e);
        }
        book.apply(KnowledgeEntry.add("k-other-db", "pets_1", "recent concert", "a concert of pets", 4L));
        return book;
    }

    @Test
    void aNearDefinitionJoinsTheTermMatchesAndItsVectorIsCached() {
        Embeddings llm = new Embeddings();
        SimilarKnowledge similar = new SimilarKnowledge(DataDoors.open(null, null).holding(new EmbeddingRetriever(llm)), 0.3, 2);
        KnowledgeBook book = book();
        // "recently" is not the term "recent concert" (no term match); the trigram vectors are near (0.39)
        RequestContext ctx = question("How many veteran singers sang in concerts held recently?", book, 32);
        assertThat(KnowledgeEvidence.used(ctx)).containsExactly("k-veteran");
        assertThat(ctx.notes.get(KnowledgeCandidates.NOTE)).contains("k-recent").contains("k-large")
                .doesNotContain("k-other-db").doesNotContain("k-veteran");

        StageTrace trace = new StageTrace("schema.retrieve");
        similar.resolve(ctx, trace).join();

        assertThat(KnowledgeEvidence.used(ctx)).as("term match first, then the near one; the far one not")
                .containsExactly("k-veteran", "k-recent");
        assertThat(ctx.evidence).contains("\"veteran singer\" means: a singer older than 40")
                .contains("\"recent concert\" means: a concert held in 2014 or later").doesNotContain("10000");
        assertThat(ctx.notes).doesNotContainKey(KnowledgeCandidates.NOTE);
        assertThat(ctx.notes.get(KnowledgeInPrompts.LINES_NOTE)).contains("k-veteran\t").contains("k-recent\t");
        assertThat(trace.embeddingCalls).isEqualTo(1);
        assertThat(llm.batches.get(0)).hasSize(3).startsWith(ctx.question);

        RequestContext again = question("Which concerts were held recently?", book, 32);
        similar.resolve(again, new StageTrace("schema.retrieve")).join();
        assertThat(llm.batches.get(1)).as("the entries seen before come from the cache: only the new one is sent")
                .containsExactly(again.question, "veteran singer: a singer older than 40");
        assertThat(KnowledgeEvidence.used(again)).containsExactly("k-recent");
    }

    @Test
    void theBoundHoldsAndAFailedCallLeavesTheTermMatches() {
        Embeddings llm = new Embeddings();
        SimilarKnowledge similar = new SimilarKnowledge(DataDoors.open(null, null).holding(new EmbeddingRetriever(llm)), 0.3, 1);
        KnowledgeBook book = book();
        RequestContext full = question("How many veteran singers sang in concerts held recently?", book, 32);
        similar.resolve(full, new StageTrace("s")).join();
        assertThat(llm.batches).as("the term match fills the bound: nothing to embed").isEmpty();
        assertThat(KnowledgeEvidence.used(full)).containsExactly("k-veteran");

        llm.down = true;
        SimilarKnowledge wide = new SimilarKnowledge(DataDoors.open(null, null).holding(new EmbeddingRetriever(llm)), 0.3, 3);
        RequestContext ctx = question("How many veteran singers sang in concerts held recently?", book, 32);
        String evidence = ctx.evidence;
        StageTrace trace = new StageTrace("s");
        wide.resolve(ctx, trace).join();
        assertThat(KnowledgeEvidence.used(ctx)).containsExactly("k-veteran");
        assertThat(ctx.evidence).isEqualTo(evidence);
        assertThat(trace.note).contains("knowledge by similarity skipped");
    }

    @Test
    void theFirstStageResolvesAndItsPromptsAreMatchedAgainstTheNewLines() {
        Embeddings llm = new Embeddings();
        SimilarKnowledge similar = new SimilarKnowledge(DataDoors.open(null, null).holding(new EmbeddingRetriever(llm)), 0.3, 3);
        RequestContext ctx = question("Which concerts were held recently?", book(), 32);
        List<String> evidenceSeen = new ArrayList<>();
        NamedStage first = new NamedStage("schema.retrieve", new KnowledgeFirst((c, trace) -> {
            evidenceSeen.add(c.evidence);
            evidenceSeen.add(String.join(",", trace.knowledgeOffered.keySet()));
            return CompletableFuture.completedFuture(null);
        }, similar));
        first.apply(ctx).join();
        first.apply(ctx).join();
        assertThat(evidenceSeen.get(0)).contains("\"recent concert\" means: a concert held in 2014 or later");
        assertThat(evidenceSeen.get(1)).isEqualTo("k-recent");
        assertThat(llm.batches).as("the second stage finds no candidates left").hasSize(1);
        assertThat(ctx.trace.get(0).embeddingCalls).isEqualTo(1);
    }
}
