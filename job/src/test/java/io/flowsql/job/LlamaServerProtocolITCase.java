package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import io.flowsql.agents.common.AgentCall;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.devstack.llama.LlamaServer;
import io.flowsql.devstack.llama.TinyGguf;
import io.flowsql.llm.ChatMessage;
import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ChatResponse;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.llm.LlmErrorKind;
import io.flowsql.llm.LlmException;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.llm.ReplyOverlay;
import io.flowsql.llm.ReplySchema;
import io.flowsql.config.llm.StructuredOutput;
import io.flowsql.pipeline.StageTrace;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The LLM client against llama.cpp's own server (a real third-party OpenAI-compatible server) on a tiny
 * random-weight model: n within and above --parallel, usage, finish_reason, json_schema and GBNF replies,
 * the server's errors, and an outage ridden out.
 */
class LlamaServerProtocolITCase {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Reply shapes that need nothing of the request (link and summarize are filled in per database). */
    private static final List<String> REPLIES = List.of("magsql/decompose", "magsql/generate_first", "mmsql/detect",
            "opensearch/generate", "sqlfix/craft-paraphrase", "sqlfix/review", "sqlfix/refine");
    private static final long REPLY_SEED = 20261127L;
    private static LlamaServer server;

    @BeforeAll
    static void startServer() throws Exception {
        // 4 slots of 1,024 tokens each, as the reproduction had them.
        server = TinyModel.start("protocol", "-c", "4096", "--parallel", "4");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void nWithinParallelIsOneRequestWithTheServersUsage() {
        try (OpenAiCompatibleClient client = client(b -> b)) {
            ChatResponse response = client.chat(question("test.n").withSampling(0.8, 3).withMaxTokens(8)).join();
            assertThat(response.choices()).hasSize(3);
            assertThat(response.retries()).isZero();
            assertThat(response.usage().estimated()).as("llama.cpp always sends usage").isFalse();
            assertThat(response.usage().promptTokens()).isPositive();
            assertThat(response.usage().completionTokens()).isPositive();
            assertThat(response.finishReasons()).containsOnly("length");
        }
    }

    @Test
    void nAboveParallelIsSplitIntoRequestsTheServerAccepts() {
        try (OpenAiCompatibleClient client = client(b -> b)) {
            ChatResponse first = client.chat(question("test.n").withSampling(0.8, 5).withMaxTokens(8)).join();
            assertThat(first.choices()).as("5 candidates from a server that serves at most 4 per request").hasSize(5);
            assertThat(first.retries()).as("the refused request (HTTP 400 naming n) counts as a retry").isEqualTo(1);
            ChatResponse second = client.chat(question("test.n").withSampling(0.8, 5).withMaxTokens(8)).join();
            assertThat(second.choices()).hasSize(5);
            assertThat(second.retries()).as("the limit is remembered").isZero();
        }
    }

    @Test
    void aModelThatNeverStopsIsCutAtMaxTokensAndReportedAsSuch() {
        try (OpenAiCompatibleClient client = client(b -> b)) {
            ChatResponse cut = client.chat(question("test.length").withMaxTokens(12)).join();
            assertThat(cut.finishReasons()).containsExactly("length");
            assertThat(cut.usage().completionTokens()).isEqualTo(12);

            StageTrace trace = new StageTrace("test.length");
            CompletableFuture<String> sql = new AgentCall(client).ask(question("test.length").withMaxTokens(12),
                    ModelOutput::sql, trace);
            assertThatThrownBy(sql::join).isInstanceOf(CompletionException.class).cause()
                    .isInstanceOfSatisfying(LlmException.class, e -> {
                        assertThat(e.kind()).isEqualTo(LlmErrorKind.TRUNCATED_OUTPUT);
                        assertThat(e.getMessage()).contains("finish_reason: length");
                    });
            assertThat(trace.llmCalls).as("the cut reply, then one re-ask with a larger budget").isEqualTo(2);
            assertThat(trace.completionTokens).isEqualTo(12 + 256);
        }
    }

    @Test
    void everyReplySchemaConstrainsTheReplyAsJsonSchemaAndAsGrammar() throws Exception {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        // the tiny model never stops on its own: its tests lay bounds over the shipped schemas (llm.reply-overlay)
        ReplyOverlay overlay = ReplyOverlay.parse(TinyGguf.replyOverlay());
        for (StructuredOutput mode : List.of(StructuredOutput.JSON_SCHEMA, StructuredOutput.GRAMMAR)) {
            try (OpenAiCompatibleClient client = client(b -> b.structuredOutput(mode).replyOverlay(TinyGguf.replyOverlay()))) {
                for (String base : REPLIES) {
                    ReplySchema reply = ReplySchema.loadOptional(base, "prompts/" + base + ".reply.json").orElseThrow();
                    // a fixed seed: the tiny model's noise is drawn the same way on every run. Unseeded, its widest
                    // bounded reply (mmsql/detect's ambiguous turn: two texts, eight match lines, an answer and three
                    // rewrites) can outgrow the shipped 600-token budget when the noise runs at one token per character
                    ChatResponse response = client.chat(question("test." + base).withReply(reply).withSeed(REPLY_SEED)).join();
                    String text = response.text();
                    assertThat(response.finishReasons()).as(mode + " " + base + ": " + text).containsExactly("stop");
                    JsonNode parsed = JSON.readTree(text);
                    assertThat(factory.getSchema(overlay.apply(reply).schema()).validate(parsed)).as(mode + " " + base + ": " + text)
                            .isEmpty();
                    if (reply.schema().path("properties").has("sql")) {
                        assertThat(ModelOutput.sql(text)).as("the parser reads the structured reply").isPresent();
                    }
                }
            }
        }
    }

    @Test
    void everyShippedReplySchemaIsTakenByTheServerAsJsonSchemaAndAsGrammar() throws Exception {
        // the shipped schemas as they are (no overlay): llama.cpp converts each to a grammar (json_schema) or parses the
        // project's own GBNF (grammar); a schema it cannot take fails the request with HTTP 400
        List<String> bases;
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of(System.getProperty("flowsql.project.dir"),
                "udfs/src/main/resources/prompts"))) {
            bases = files.flatMap(dir -> {
                try {
                    return java.nio.file.Files.list(dir);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).map(f -> f.getParent().getFileName() + "/" + f.getFileName()).filter(f -> f.endsWith(".reply.json"))
                    .map(f -> f.substring(0, f.length() - ".reply.json".length())).sorted().toList();
        }
        assertThat(bases).hasSizeGreaterThanOrEqualTo(24);
        for (StructuredOutput mode : List.of(StructuredOutput.JSON_SCHEMA, StructuredOutput.GRAMMAR)) {
            try (OpenAiCompatibleClient client = client(b -> b.structuredOutput(mode))) {
                for (String base : bases) {
                    ReplySchema reply = ReplySchema.loadOptional(base, "prompts/" + base + ".reply.json").orElseThrow();
                    ChatResponse response = client.chat(question("test." + base).withReply(reply).withMaxTokens(8)).join();
                    assertThat(response.text()).as(mode + " " + base).startsWith("{");
                }
            }
        }
    }

    @Test
    void aPromptBeyondTheSlotFailsFastWithTheServersReasonNamedOnce() {
        String longQuestion = "How many singers are there in each country of the world? ".repeat(150);
        try (OpenAiCompatibleClient client = client(b -> b)) {
            assertThatThrownBy(() -> client.chat(ChatRequest.of("test.overflow",
                    List.of(ChatMessage.user(longQuestion))).withMaxTokens(16)).join())
                    .cause().isInstanceOfSatisfying(LlmException.class, e -> {
                        assertThat(e.kind()).isEqualTo(LlmErrorKind.CONTEXT_OVERFLOW);
                        assertThat(e.attempts()).as("not retried").isEqualTo(1);
                        assertThat(e.getMessage()).startsWith("CONTEXT_OVERFLOW: HTTP 400: ")
                                .doesNotContain("CONTEXT_OVERFLOW: CONTEXT_OVERFLOW").doesNotContain("{\"error\"");
                    });
        }
        try (OpenAiCompatibleClient client = client(b -> b.contextTokens(1024))) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.chat(ChatRequest.of("test.overflow",
                    List.of(ChatMessage.user(longQuestion))).withMaxTokens(16)).join())
                    .cause().isInstanceOfSatisfying(LlmException.class, e -> {
                        assertThat(e.kind()).isEqualTo(LlmErrorKind.CONTEXT_OVERFLOW);
                        assertThat(e.attempts()).as("nothing sent").isZero();
                        assertThat(e.getMessage()).contains("llm.context-tokens");
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void aServerRestartIsRiddenOutByRetries() throws Exception {
        try (OpenAiCompatibleClient client = client(b -> b)) {
            server.stop();
            Thread restart = new Thread(() -> {
                try {
                    Thread.sleep(4_000);
                    server.start();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            restart.start();
            ChatResponse response = client.chat(question("test.restart").withMaxTokens(4)).join();
            restart.join();
            assertThat(response.choices()).hasSize(1);
            assertThat(response.retries()).as("connection refused while the server was down").isPositive();
        }
    }

    @Test
    void aRepeatedPromptPrefixIsReadAsCachedTokensFromTheServersTimings() {
        // the prompt tokens llama.cpp reused from the slot's cache: this build reports them in
        // usage.prompt_tokens_details.cached_tokens (the client also reads timings.cache_n, where older builds put them)
        String schema = "Database: concert_singer\nSchema:\n" + "# Table: singer\n(Name, text, examples: ['Joe Sharp'])\n".repeat(20);
        try (OpenAiCompatibleClient client = client(b -> b)) {
            ChatResponse first = client.chat(withSchema(schema, "How many singers are there?")).join();
            ChatResponse second = client.chat(withSchema(schema, "Who is the oldest singer?")).join();
            assertThat(second.usage().cachedPromptTokens()).as("the schema prefix the first request left in the slot")
                    .isGreaterThan(first.usage().promptTokens() / 2).isLessThan(second.usage().promptTokens());
        }
    }

    private static ChatRequest withSchema(String schema, String question) {
        return ChatRequest.of("test.cache", List.of(ChatMessage.system("### Task: test.cache\nAnswer briefly."),
                ChatMessage.user(schema + "Question: " + question))).withMaxTokens(8);
    }

    private static ChatRequest question(String stage) {
        return ChatRequest.of(stage, List.of(ChatMessage.system("### Task: " + stage + "\nAnswer briefly."),
                ChatMessage.user("Question: How many singers are there?")));
    }

    private static OpenAiCompatibleClient client(UnaryOperator<LlmClientConfig.Builder> tweak) {
        LlmClientConfig.Builder builder = LlmClientConfig.builder(server.baseUrl()).defaultModel("tiny")
                .callTimeout(Duration.ofSeconds(120)).totalBudget(Duration.ofMinutes(3))
                .retryWindow(Duration.ofSeconds(60));
        return OpenAiCompatibleClient.builder(tweak.apply(builder).build()).build();
    }

}
