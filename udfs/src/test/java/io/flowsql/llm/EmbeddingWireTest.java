package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The embeddings answer as the streaming reader takes it: vectors put back by {@code index} (in any field order), the
 * numbers exactly what reading each as a double and narrowing gives, usage and model read, and every answer the client
 * must refuse (not JSON, no data list, a per-token vector, a missing or unusable item, mixed dimensions) refused as
 * MALFORMED_RESPONSE.
 */
class EmbeddingWireTest {
    private final EmbeddingWire wire = new EmbeddingWire(new ObjectMapper());
    private final EmbeddingRequest twoInputs = new EmbeddingRequest("schema.retrieve", List.of("a", "b"), "embed-model");

    private WireCompletion decode(String body, EmbeddingRequest request) {
        return wire.decode(body.getBytes(StandardCharsets.UTF_8), request, false);
    }

    @Test
    void vectorsComeBackByIndexWithUsageAndModel() {
        WireCompletion answer = decode("""
                {"object":"list","data":[
                  {"embedding":[0.5,-1,2.25e-3],"object":"embedding","index":1,"extra":{"x":[1,2]}},
                  {"index":0,"embedding":[1.0,0,-0.125]}],
                 "model":"simulated/embed","usage":{"prompt_tokens":7,"total_tokens":7}}""", twoInputs);

        assertThat(answer.vectors()).hasSize(2);
        assertThat(answer.vectors().get(0)).containsExactly(1.0f, 0f, -0.125f);
        assertThat(answer.vectors().get(1)).containsExactly(0.5f, -1f, 2.25e-3f);
        assertThat(answer.reportedUsage()).hasValueSatisfying(u -> assertThat(u.promptTokens()).isEqualTo(7));
        assertThat(answer.model()).isEqualTo("simulated/embed");
        assertThat(answer.simulated()).isTrue();
    }

    @Test
    void itemsWithoutAnIndexTakeTheirPlaceAndTheRequestsModelStandsInForAMissingOne() {
        WireCompletion answer = decode("{\"data\":[{\"embedding\":[1]},{\"embedding\":[2]}]}", twoInputs);

        assertThat(answer.vectors().get(0)).containsExactly(1f);
        assertThat(answer.vectors().get(1)).containsExactly(2f);
        assertThat(answer.reportedUsage()).isEmpty();
        assertThat(answer.model()).isEqualTo("embed-model");
        assertThat(answer.simulated()).isFalse();
    }

    @Test
    void longVectorsKeepEveryNumberAsADoubleNarrowedToAFloat() {
        Random random = new Random(41);
        double[] numbers = random.doubles(1000, -1, 1).toArray();
        StringBuilder body = new StringBuilder("{\"data\":[{\"index\":0,\"embedding\":[");
        for (int i = 0; i < numbers.length; i++) {
            body.append(i == 0 ? "" : ",").append(numbers[i]);
        }
        body.append("]}]}");

        float[] vector = decode(body.toString(), new EmbeddingRequest("s", List.of("a"), "m")).vectors().get(0);

        assertThat(vector).hasSize(numbers.length);
        for (int i = 0; i < numbers.length; i++) {
            assertThat(vector[i]).isEqualTo((float) numbers[i]);
        }
    }

    @Test
    void answersTheClientCannotUseAreMalformed() {
        assertMalformed("not json", "is not JSON");
        assertMalformed("[1,2]", "no data list");
        assertMalformed("{\"data\":{\"embedding\":[1]}}", "no data list");
        assertMalformed("{\"model\":\"m\"}", "no data list");
        assertMalformed("{\"data\":[{\"index\":0,\"embedding\":[[1,2],[3,4]]},{\"index\":1,\"embedding\":[1]}]}",
                "is not a list of numbers");
        assertMalformed("{\"data\":[{\"index\":0,\"embedding\":[\"1\"]},{\"index\":1,\"embedding\":[1]}]}",
                "is not a list of numbers");
        assertMalformed("{\"data\":[{\"index\":0,\"embedding\":[]},{\"index\":1,\"embedding\":[1]}]}",
                "unusable item at 0");
        assertMalformed("{\"data\":[{\"index\":5,\"embedding\":[1]}]}", "unusable item at 5");
        assertMalformed("{\"data\":[{\"index\":0,\"embedding\":\"1,2\"}]}", "unusable item at 0");
        assertMalformed("{\"data\":[7]}", "unusable item at 0");
        assertMalformed("{\"data\":[{\"index\":0,\"embedding\":[1]}]}", "lacks a vector of 1 numbers for input 1");
        assertMalformed("{\"data\":[{\"index\":0,\"embedding\":[1,2]},{\"index\":1,\"embedding\":[1]}]}",
                "lacks a vector of 2 numbers for input 1");
    }

    private void assertMalformed(String body, String message) {
        assertThatThrownBy(() -> decode(body, twoInputs))
                .isInstanceOfSatisfying(LlmException.class,
                        e -> assertThat(e.kind()).isEqualTo(LlmErrorKind.MALFORMED_RESPONSE))
                .hasMessageContaining(message);
    }
}
