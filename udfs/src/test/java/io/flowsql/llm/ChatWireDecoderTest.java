package io.flowsql.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The streaming decoder against the tree reading it replaced ({@link TreeReading}, kept here as the reference): the
 * same choices, finish reasons, usage, model and cache figures, or the same error, on bodies written to hit every
 * branch (repeated keys, choices and messages of every JSON type, fields a server may add) and on truncated ones.
 */
class ChatWireDecoderTest {
    private final ObjectMapper json = new ObjectMapper();
    private final ChatWireDecoder decoder = new ChatWireDecoder(json);

    @Test
    void aLlamaServerReplyIsReadWithItsCacheFigure() {
        String body = """
                {"choices":[{"finish_reason":"stop","index":0,"message":{"role":"assistant","reasoning_content":"hm",
                "content":"SELECT 1"}},{"index":1,"message":{"content":"SELECT 2"},"finish_reason":"length"}],
                "created":1,"model":"tiny.gguf","object":"chat.completion","usage":{"completion_tokens":5,
                "prompt_tokens":12,"total_tokens":17},"timings":{"cache_n":8,"prompt_n":4}}""";
        WireCompletion read = decoder.decode(body.getBytes(StandardCharsets.UTF_8), "asked", false);
        assertThat(read.choices()).containsExactly("SELECT 1", "SELECT 2");
        assertThat(read.finishReasons()).containsExactly("stop", "length");
        assertThat(read.reportedUsage()).contains(new TokenUsage(12, 5, false));
        assertThat(read.cachedPromptTokens()).isEqualTo(8);
        assertThat(read.model()).isEqualTo("tiny.gguf");
        assertThat(read.simulated()).isFalse();
    }

    @Test
    void choicesWithoutTextAreSkippedAndABodyWithNoneIsRefused() {
        String body = "{\"choices\":[{\"message\":{\"content\":null,\"tool_calls\":[]}},7,{\"message\":\"x\"},"
                + "{\"message\":{\"content\":\"kept\"},\"finish_reason\":3}],\"system_fingerprint\":\"flowsql-simulated\"}";
        WireCompletion read = decoder.decode(body.getBytes(StandardCharsets.UTF_8), "asked", false);
        assertThat(read.choices()).containsExactly("kept");
        assertThat(read.finishReasons()).containsExactly((String) null);
        assertThat(read.model()).isEqualTo("asked");
        assertThat(read.simulated()).isTrue();
        assertThat(read.reportedUsage()).isEmpty();
        assertThat(refusal("{\"choices\":[{\"message\":{}}]}")).contains("no choice with text content");
        assertThat(refusal("{\"choices\":{}}")).contains("no choices list");
        assertThat(refusal("[]")).contains("no choices list");
        assertThat(refusal("")).contains("no choices list");
        assertThat(refusal("{\"choices\":[{\"message\":{\"content\":\"a\"}}]")).contains("not JSON");
    }

    @Test
    void everyBodyReadsAsTheTreeReadingReadIt() {
        Random random = new Random(41);
        int refusedAlike = 0;
        for (int round = 0; round < 20_000; round++) {
            String body = top(random);
            if (random.nextInt(10) == 0) {
                body = body.substring(0, random.nextInt(body.length() + 1));
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            boolean header = random.nextInt(8) == 0;
            Object expected = outcome(() -> TreeReading.decode(json, bytes, "asked", header));
            Object actual = outcome(() -> decoder.decode(bytes, "asked", header));
            assertThat(actual).as(body).isEqualTo(expected);
            if (expected instanceof String) {
                refusedAlike++;
            }
        }
        assertThat(refusedAlike).as("bodies refused by both (the rest were read alike)").isBetween(1_000, 18_000);
    }

    private String refusal(String body) {
        LlmException e = catchThrowableOfType(LlmException.class,
                () -> decoder.decode(body.getBytes(StandardCharsets.UTF_8), "asked", false));
        assertThat(e.kind()).isEqualTo(LlmErrorKind.MALFORMED_RESPONSE);
        return e.getMessage();
    }

    /** What a decode gave: the completion, or the refusal's kind and the words before any parser detail. */
    private static Object outcome(java.util.function.Supplier<WireCompletion> decode) {
        try {
            return decode.get();
        } catch (LlmException e) {
            String message = e.getMessage();
            int colon = message.indexOf(':');
            return e.kind() + " " + (colon < 0 ? message : message.substring(0, colon));
        }
    }

    // ---- bodies

    private static final String[] STRINGS = {"", "SELECT 1", "simulated/m", "flowsql-simulated", "stop", "12", "é\u2028\\\"q\\\"",
            "\\u0041\\n", "tiny.gguf"};

    private static String top(Random random) {
        switch (random.nextInt(20)) {
            case 0:
                return "[" + choice(random) + "]";
            case 1:
                return scalar(random);
            default:
                break;
        }
        return object(random, 7, () -> switch (random.nextInt(9)) {
            case 0, 1, 2 -> "\"choices\":" + (random.nextInt(6) == 0 ? any(random, 1) : choices(random));
            case 3 -> "\"model\":" + (random.nextBoolean() ? quoted(random) : any(random, 1));
            case 4 -> "\"system_fingerprint\":" + (random.nextBoolean() ? quoted(random) : any(random, 1));
            case 5 -> "\"usage\":" + (random.nextInt(4) == 0 ? any(random, 1) : usage(random));
            case 6 -> "\"timings\":" + (random.nextInt(4) == 0 ? any(random, 1)
                        : "{\"cache_n\":" + number(random) + ",\"prompt_n\":" + any(random, 1) + "}");
            default -> "\"" + pick(random, "id", "object", "created", "extra") + "\":" + any(random, 2);
        }) + (random.nextInt(10) == 0 ? " trailing" : "");
    }

    private static String choices(Random random) {
        List<String> items = new ArrayList<>();
        for (int i = random.nextInt(5); i > 0; i--) {
            items.add(random.nextInt(8) == 0 ? any(random, 1) : choice(random));
        }
        return "[" + String.join(",", items) + "]";
    }

    private static String choice(Random random) {
        return object(random, 4, () -> switch (random.nextInt(5)) {
            case 0, 1 -> "\"message\":" + (random.nextInt(6) == 0 ? any(random, 1) : message(random));
            case 2 -> "\"finish_reason\":" + (random.nextBoolean() ? quoted(random) : any(random, 1));
            case 3 -> "\"index\":" + number(random);
            default -> "\"logprobs\":" + any(random, 2);
        });
    }

    private static String message(Random random) {
        return object(random, 4, () -> switch (random.nextInt(4)) {
            case 0, 1 -> "\"content\":" + (random.nextInt(3) == 0 ? any(random, 1) : quoted(random));
            case 2 -> "\"role\":\"assistant\"";
            default -> "\"reasoning_content\":" + any(random, 2);
        });
    }

    private static String usage(Random random) {
        return object(random, 4, () -> switch (random.nextInt(4)) {
            case 0 -> "\"prompt_tokens\":" + (random.nextBoolean() ? number(random) : any(random, 1));
            case 1 -> "\"completion_tokens\":" + (random.nextBoolean() ? number(random) : any(random, 1));
            case 2 -> "\"prompt_tokens_details\":{\"cached_tokens\":" + (random.nextBoolean() ? number(random) : any(random, 1)) + "}";
            default -> "\"total_tokens\":" + number(random);
        });
    }

    /** An object of 1 to {@code most} fields, each written by {@code field} (keys may repeat). */
    private static String object(Random random, int most, java.util.function.Supplier<String> field) {
        List<String> fields = new ArrayList<>();
        for (int i = random.nextInt(most); i >= 0; i--) {
            fields.add(field.get());
        }
        return "{" + String.join(",", fields) + "}";
    }

    private static String any(Random random, int depth) {
        int kind = random.nextInt(depth > 0 ? 6 : 4);
        return switch (kind) {
            case 0 -> quoted(random);
            case 1 -> number(random);
            case 2 -> pick(random, "true", "false", "null");
            case 3 -> "\"" + pick(random, STRINGS) + "\"";
            case 4 -> "[" + any(random, depth - 1) + "," + any(random, depth - 1) + "]";
            default -> "{\"content\":" + any(random, depth - 1) + ",\"k\":" + any(random, depth - 1) + "}";
        };
    }

    private static String scalar(Random random) {
        return random.nextBoolean() ? number(random) : quoted(random);
    }

    private static String quoted(Random random) {
        return "\"" + pick(random, STRINGS) + "\"";
    }

    private static String number(Random random) {
        return pick(random, "0", "12", "-3", "1.5", "1e3", "\"7\"", "\"x\"");
    }

    private static String pick(Random random, String... options) {
        return options[random.nextInt(options.length)];
    }

    /** The decoder as it was before issue 41's streaming read: the whole body as a tree. The reference. */
    private static final class TreeReading {
        static WireCompletion decode(ObjectMapper json, byte[] body, String requestedModel, boolean simulatedHeader) {
            JsonNode root;
            try {
                root = json.readTree(body);
            } catch (IOException e) {
                throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "response body is not JSON: " + e.getMessage());
            }
            if (root == null || !root.path("choices").isArray()) {
                throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "response has no choices list");
            }
            List<String> choices = new ArrayList<>();
            List<String> finishReasons = new ArrayList<>();
            for (JsonNode choice : root.path("choices")) {
                JsonNode content = choice.path("message").path("content");
                if (content.isTextual()) {
                    choices.add(content.asText());
                    JsonNode reason = choice.path("finish_reason");
                    finishReasons.add(reason.isTextual() ? reason.asText() : null);
                }
            }
            if (choices.isEmpty()) {
                throw new LlmException(LlmErrorKind.MALFORMED_RESPONSE, "response has no choice with text content");
            }
            String model = root.path("model").asText(requestedModel);
            boolean simulated = simulatedHeader || model.startsWith("simulated/")
                    || ChatWireDecoder.SIMULATED_FINGERPRINT.equals(root.path("system_fingerprint").asText());
            JsonNode usage = root.path("usage");
            Optional<TokenUsage> reported = !usage.isObject() || !usage.has("prompt_tokens") ? Optional.empty()
                    : Optional.of(new TokenUsage(usage.path("prompt_tokens").asInt(), usage.path("completion_tokens").asInt(), false));
            JsonNode details = usage.path("prompt_tokens_details").path("cached_tokens");
            int cached = details.isNumber() ? details.asInt() : root.path("timings").path("cache_n").asInt(0);
            return new WireCompletion(choices, finishReasons, reported, model, simulated, cached);
        }
    }
}
