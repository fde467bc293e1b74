package io.flowsql.agents.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.access.AccessPolicies;
import io.flowsql.access.DataDoors;
import io.flowsql.agents.CountingWorkPool;
import io.flowsql.agents.SpiderAgentParts;
import io.flowsql.agents.common.HistoryRenderer;
import io.flowsql.agents.common.SchemaContext;
import io.flowsql.agents.opensearch.extract.RetrievalStage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ChatResponse;
import io.flowsql.llm.EmbeddingRequest;
import io.flowsql.llm.EmbeddingResponse;
import io.flowsql.llm.LlmClient;
import io.flowsql.llm.TokenUsage;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.retrieval.EmbeddingRetriever;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * {@code opensearch.retrieve} searches only what the question's tenant may see: tenant {@code team} may read
 * {@code singer} of {@code concert_singer} only. The embedding endpoint (a recording client whose vectors are
 * letter-trigram counts) never receives a hidden table's column (the question's own words it does), and the request is given none; the admin's
 * index, built first for the same database, is not reused for the team.
 */
class RetrievalScopeTest {
    private static final String DB = "concert_singer";
    private static final AccessPolicies POLICIES = AccessPolicies.fromOptions(Map.of(
            "team.databases", DB, "team.tables." + DB, "singer", "admin.databases", DB), "");

    /** Embeds by letter trigrams and records every text it is sent; its answers complete on {@code replies}. */
    private static final class RecordingEmbeddings implements LlmClient {
        final List<String> sent = new ArrayList<>();
        final List<EmbeddingRequest> requests = new ArrayList<>();
        private final Executor replies;
        /** The model it says it embeds every use with; null: it does not say. */
        private final String model;

        RecordingEmbeddings() {
            this(Runnable::run);
        }

        RecordingEmbeddings(Executor replies) {
            this(replies, null);
        }

        RecordingEmbeddings(Executor replies, String model) {
            this.replies = replies;
            this.model = model;
        }

        @Override
        public String embeddingModelOf(String use) {
            return model;
        }

        @Override
        public CompletableFuture<ChatResponse> chat(ChatRequest request) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException());
        }

        @Override
        public synchronized CompletableFuture<EmbeddingResponse> embed(EmbeddingRequest request) {
            sent.addAll(request.inputs());
            requests.add(request);
            List<float[]> vectors = request.inputs().stream().map(RecordingEmbeddings::vector).toList();
            EmbeddingResponse response = new EmbeddingResponse(vectors, new TokenUsage(1, 0, false, 0), "test", true, 0,
                    0, false);
            return CompletableFuture.supplyAsync(() -> response, replies);
        }

        private static float[] vector(String text) {
            float[] v = new float[256];
            String t = " " + text.toLowerCase(Locale.ROOT) + " ";
            for (int i = 0; i + 3 <= t.length(); i++) {
                v[Math.floorMod(t.substring(i, i + 3).hashCode(), v.length)] += 1;
            }
            return v;
        }
    }

    private static RequestContext ask(String tenant) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r-" + tenant;
        ctx.dbId = DB;
        ctx.tenant = tenant;
        ctx.question = "Which stadium in Raith Rovers has the highest capacity and which singer is from Netherlands?";
        return ctx;
    }

    @Test
    void retrievalSeesOnlyTheTenantsTables() {
        RecordingEmbeddings llm = new RecordingEmbeddings();
        SchemaContext schemas = new SchemaContext(new DataDoors(SpiderAgentParts.EXECUTOR, SpiderAgentParts.CATALOG,
                SpiderAgentParts.VALUES, POLICIES).holding(new EmbeddingRetriever(llm)), SpiderAgentParts.VIEWS,
                new HistoryRenderer());
        RetrievalStage stage = new RetrievalStage(schemas, 4, 0.3, 0.3, 8);
        RequestContext admin = ask("admin");
        stage.run(admin, new StageTrace("opensearch.retrieve")).join();
        assertThat(String.join("\n", llm.sent).toLowerCase(Locale.ROOT)).as("the admin's retrieval embeds the stadium table").contains("stadium capacity");
        assertThat(admin.matchedValues.toString()).contains("Raith Rovers");

        llm.sent.clear();
        RequestContext team = ask("team");
        stage.run(team, new StageTrace("opensearch.retrieve")).join();
        String sent = String.join("\n", llm.sent).toLowerCase(Locale.ROOT);
        assertThat(sent).contains("singer").doesNotContain("stadium capacity").doesNotContain("stadium location")
                .doesNotContain("concert name");
        assertThat(team.notes.toString().toLowerCase(Locale.ROOT)).doesNotContain("stadium.").doesNotContain("raith");
        assertThat(team.matchedValues.toString()).doesNotContain("Raith").contains("Netherlands");
    }

    /**
     * A client that embeds the columns' and the values' uses with one model gets one request for both (after the
     * column index's own), named for the stage and carrying that model; the stage finds what two requests found.
     */
    @Test
    void oneRequestCarriesThePhrasesAndTheValuesWhenOneModelEmbedsBoth() {
        RecordingEmbeddings apart = new RecordingEmbeddings();
        RecordingEmbeddings together = new RecordingEmbeddings(Runnable::run, "embedder");
        RequestContext byTwo = ask("admin");
        RequestContext byOne = ask("admin");
        for (int run = 0; run < 2; run++) {
            apart.requests.clear();
            together.requests.clear();
            byTwo.notes.clear();
            byOne.notes.clear();
            stageOver(apart).run(byTwo, new StageTrace("opensearch.retrieve")).join();
            StageTrace trace = new StageTrace("opensearch.retrieve");
            stageOver(together).run(byOne, trace).join();
            assertThat(byOne.notes).isEqualTo(byTwo.notes);
            assertThat(byOne.matchedValues).isEqualTo(byTwo.matchedValues).isNotEmpty();
            // each run builds its own door's column index here (a new retriever): one request for it in both
            assertThat(apart.requests).hasSize(3);
            assertThat(together.requests).hasSize(2);
            EmbeddingRequest both = together.requests.stream()
                    .filter(r -> r.stage().equals(EmbeddingRetriever.COLUMNS_AND_VALUES_USE)).findFirst().orElseThrow();
            assertThat(both.model()).isEqualTo("embedder");
            assertThat(both.inputs()).contains("Raith Rovers").contains("Netherlands");
            assertThat(trace.embeddingCalls).as("the trace counts the requests the stage made").isEqualTo(2);
        }
    }

    private static RetrievalStage stageOver(LlmClient llm) {
        return new RetrievalStage(new SchemaContext(new DataDoors(SpiderAgentParts.EXECUTOR, SpiderAgentParts.CATALOG,
                SpiderAgentParts.VALUES, POLICIES).holding(new EmbeddingRetriever(llm)), SpiderAgentParts.VIEWS,
                new HistoryRenderer()), 4, 0.3, 0.3, 8);
    }

    /**
     * The embeddings complete on a reply thread (as the LLM client's callback pool completes them); the scoring of
     * columns and values against them is handed to the stage's work pool, with the same result as scored in place.
     */
    @Test
    void scoringRunsOnTheStagesWorkPool() {
        ExecutorService replies = Executors.newSingleThreadExecutor(r -> new Thread(r, "flowsql-llm-callback-test"));
        try (CountingWorkPool pool = new CountingWorkPool()) {
            LlmClient onReplies = new RecordingEmbeddings(replies);
            RetrievalStage stage = new RetrievalStage(new SchemaContext(new DataDoors(SpiderAgentParts.EXECUTOR,
                    SpiderAgentParts.CATALOG, SpiderAgentParts.VALUES, POLICIES).holding(new EmbeddingRetriever(onReplies)),
                    SpiderAgentParts.VIEWS, new HistoryRenderer()), 4, 0.3, 0.3, 8);
            RequestContext inPlace = ask("admin");
            stage.run(inPlace, new StageTrace("opensearch.retrieve")).join();
            RequestContext onPool = ask("admin");
            StageTrace trace = new StageTrace("opensearch.retrieve");
            trace.work = pool;
            stage.run(onPool, trace).join();

            assertThat(pool.handed()).as("scoring steps handed to the work pool (columns, values)").isEqualTo(2);
            assertThat(onPool.notes).isEqualTo(inPlace.notes);
            assertThat(onPool.matchedValues).isEqualTo(inPlace.matchedValues).isNotEmpty();
        } finally {
            replies.shutdownNow();
        }
    }
}
