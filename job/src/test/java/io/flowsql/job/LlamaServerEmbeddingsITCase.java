package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.devstack.llama.LlamaServer;
import io.flowsql.llm.EmbeddingRequest;
import io.flowsql.llm.EmbeddingResponse;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.llm.StageUsage;
import io.flowsql.retrieval.EmbeddingRetriever;
import io.flowsql.retrieval.VectorIndex;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client's {@code /v1/embeddings} against llama.cpp's own server started with {@code --embeddings} (mean pooling:
 * llama.cpp refuses OpenAI-style embeddings without a pooled vector) on the same tiny random-weight model: one pooled
 * vector per input, in input order across batches, the server's usage, the same text giving the same vector; and the
 * retrieval stage's joined request (two lists of texts in one) split back into each list's vectors.
 */
class LlamaServerEmbeddingsITCase {
    private static LlamaServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = TinyModel.start("embeddings", "--embeddings", "--pooling", "mean", "-c", "2048", "--parallel", "2",
                "-b", "512", "-ub", "512");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static OpenAiCompatibleClient client(int batch) {
        return OpenAiCompatibleClient.builder(LlmClientConfig.builder(server.baseUrl()).defaultModel("tiny")
                .embeddingBatch(batch).callTimeout(Duration.ofSeconds(60)).totalBudget(Duration.ofSeconds(120))
                .build()).build();
    }

    @Test
    void batchesComeBackAsOnePooledVectorPerInputInOrder() {
        List<String> texts = IntStream.range(0, 7).mapToObj(i -> "singer " + i + " from France").toList();
        try (OpenAiCompatibleClient batched = client(3); OpenAiCompatibleClient single = client(1)) {
            EmbeddingResponse all = batched.embed(EmbeddingRequest.of("opensearch.retrieve.columns", texts)).join();
            assertThat(all.vectors()).hasSize(7);
            int dimensions = all.vectors().get(0).length;
            assertThat(dimensions).as("the tiny model's hidden size").isPositive();
            assertThat(all.vectors()).allSatisfy(v -> assertThat(v).hasSize(dimensions));
            assertThat(all.usage().estimated()).as("llama.cpp reports usage").isFalse();
            assertThat(all.usage().promptTokens()).isPositive();
            assertThat(all.simulated()).isFalse();
            StageUsage usage = batched.meter().stage("opensearch.retrieve.columns");
            assertThat(usage.calls()).isEqualTo(1);
            assertThat(usage.failures()).isZero();
            // in order: each text's vector, asked alone, is the one at its place in the batched answer
            for (int i = 0; i < texts.size(); i++) {
                float[] alone = single.embed(EmbeddingRequest.of("x", List.of(texts.get(i)))).join().vectors().get(0);
                assertThat(VectorIndex.cosine(alone, all.vectors().get(i))).as("text " + i).isGreaterThan(0.999);
            }
        }
    }

    @Test
    void theJoinedRequestOfTwoListsComesBackAsEachListsOwnVectors() {
        List<String> phrases = List.of("singer name", "concert year");
        List<String> values = List.of("France", "Netherlands", "2014");
        try (OpenAiCompatibleClient joined = client(16); OpenAiCompatibleClient apart = client(16)) {
            EmbeddingRetriever.TwoLists both = new EmbeddingRetriever(joined).embedBoth(EmbeddingRetriever.COLUMNS_USE, phrases,
                    EmbeddingRetriever.VALUES_USE, values, EmbeddingRetriever.COLUMNS_AND_VALUES_USE, null);
            List<float[]> phraseVectors = both.first().join();
            List<float[]> valueVectors = both.second().join();
            assertThat(joined.meter().stage(EmbeddingRetriever.COLUMNS_AND_VALUES_USE).calls()).as("one request").isEqualTo(1);
            assertThat(joined.meter().stage(EmbeddingRetriever.COLUMNS_USE).calls()).isZero();
            assertThat(joined.meter().stage(EmbeddingRetriever.VALUES_USE).calls()).isZero();

            EmbeddingRetriever separately = new EmbeddingRetriever(apart);
            List<float[]> phrasesAlone = separately.embed(EmbeddingRetriever.COLUMNS_USE, phrases, null).join();
            List<float[]> valuesAlone = separately.embed(EmbeddingRetriever.VALUES_USE, values, null).join();
            assertThat(phraseVectors).hasSize(phrases.size());
            assertThat(valueVectors).hasSize(values.size());
            for (int i = 0; i < phrases.size(); i++) {
                assertThat(VectorIndex.cosine(phrasesAlone.get(i), phraseVectors.get(i))).as("phrase " + i).isGreaterThan(0.999);
            }
            for (int i = 0; i < values.size(); i++) {
                assertThat(VectorIndex.cosine(valuesAlone.get(i), valueVectors.get(i))).as("value " + i).isGreaterThan(0.999);
            }
        }
    }
}
