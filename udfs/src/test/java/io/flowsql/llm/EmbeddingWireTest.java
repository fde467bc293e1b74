package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.config.llm.EmbeddingEncoding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The embeddings answer as the streaming reader takes it: vectors put back by {@code index} (in any field order), the
 * numbers exactly what reading each as a double and narrowing gives, usage and model read, and every answer the client
 * must refuse (not JSON, no data list, a per-token vector, a missing or unusable item, mixed dimensions, base64 that is
 * not whole floats) refused as MALFORMED_RESPONSE; base64 vectors read bit for bit.
 */
class EmbeddingWireTest {
    private final EmbeddingWire wire = new EmbeddingWire(new ObjectMapper(), EmbeddingEncoding.BASE64);
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
    void base64VectorsAreTheLittleEndianFloatsTheServerWrote() {
        Random random = new Random(56);
        float[] first = new float[384];
        float[] second = new float[384];
        for (int i = 0; i < first.length; i++) {
            first[i] = (float) random.nextGaussian();
            second[i] = i % 7 == 0 ? -0.0f : random.nextFloat() * 1e-6f;
        }
        second[1] = Float.MIN_VALUE;
        second[2] = -Float.MAX_VALUE;

        WireCompletion answer = decode("{\"data\":[{\"index\":1,\"embedding\":\"" + base64(second) + "\"},"
                + "{\"index\":0,\"embedding\":\"" + base64(first) + "\"}],\"usage\":{\"prompt_tokens\":3}}", twoInputs);

        assertThat(answer.vectors().get(0)).containsExactly(first);
        assertThat(answer.vectors().get(1)).containsExactly(second);
        // a server that ignores encoding_format answers with numbers: read all the same, and the two agree
        assertThat(decode("{\"data\":[{\"embedding\":[0.5,-2]},{\"embedding\":\"" + base64(new float[] {0.5f, -2f})
                + "\"}]}", twoInputs).vectors()).containsExactly(new float[] {0.5f, -2f}, new float[] {0.5f, -2f});
    }

    @Test
    void asksForTheConfiguredEncodingAndKeysCachesOnTheFloatForm() throws Exception {
        ObjectMapper json = new ObjectMapper();
        EmbeddingWire floats = new EmbeddingWire(json, EmbeddingEncoding.FLOAT);

        assertThat(json.readTree(wire.encode(twoInputs)).path("encoding_format").asText()).isEqualTo("base64");
        assertThat(json.readTree(floats.encode(twoInputs)).path("encoding_format").asText()).isEqualTo("float");
        assertThat(wire.toJson(twoInputs)).isEqualTo(floats.toJson(twoInputs));
        assertThat(wire.toJson(twoInputs).path("encoding_format").asText()).isEqualTo("float");
    }

    private static String base64(float[] vector) {
        ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : vector) {
            bytes.putFloat(v);
        }
        return Base64.getEncoder().encodeToString(bytes.array());
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
        assertMalformed("{\"data\":[{\"index\":0,\"embedding\":\"1,2\"}]}", "embedding 0 is not base64");
        assertMalformed("{\"data\":[{\"index\":0,\"embedding\":\"AAA=\"},{\"index\":1,\"embedding\":[1]}]}",
                "embedding 0 has 2 bytes, not a whole number of 32-bit floats");
        assertMalformed("{\"data\":[{\"index\":0,\"embedding\":\"\"},{\"index\":1,\"embedding\":[1]}]}",
                "unusable item at 0");
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
