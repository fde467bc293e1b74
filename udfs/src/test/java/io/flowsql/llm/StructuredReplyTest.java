package io.flowsql.llm;

import io.flowsql.config.llm.StructuredOutput;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.agents.common.PromptFields;
import io.flowsql.agents.common.PromptPair;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reply schemas, their wire forms, the readers of structured replies and the server's error text. */
class StructuredReplyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> BASES = List.of("magsql/decompose", "magsql/generate_first",
            "magsql/generate_next", "magsql/link", "magsql/refine", "magsql/summarize", "mmsql/detect",
            "mmsql/readings", "opensearch/generate", "sqlfix/craft-generate", "sqlfix/craft-paraphrase",
            "sqlfix/refine", "sqlfix/review");

    @Test
    void everyStageDeclaresItsReplyShapeAndBudget() {
        for (String base : BASES) {
            PromptPair prompt = PromptPair.load(base);
            assertThat(prompt.reply()).as(base).isNotNull();
            assertThat(prompt.reply().maxTokens()).as(base + " x-max-tokens").isPresent();
            assertThat(prompt.reply().schema().toString()).as("x- keys are not sent").doesNotContain("x-max-tokens");
            PromptFields vars = PromptFields.none();
            for (String name : prompt.placeholders()) {
                vars = vars.with(name, "x");
            }
            ChatRequest request = prompt.request(vars);
            assertThat(request.stage()).isEqualTo(prompt.task());
            assertThat(request.reply()).isEqualTo(prompt.reply());
        }
    }

    @Test
    void theWireCarriesTheSchemaAsTheModeSays() {
        ReplySchema reply = PromptPair.load("magsql/generate_first").reply();
        ChatRequest request = ChatRequest.of("s", List.of(ChatMessage.user("q"))).withModel("m").withReply(reply);
        JsonNode schema = new ChatWireEncoder(JSON, StructuredOutput.JSON_SCHEMA).toJson(request).path("response_format");
        assertThat(schema.path("type").asText()).isEqualTo("json_schema");
        assertThat(schema.path("json_schema").path("schema").path("required").toString()).contains("sql");
        JsonNode grammar = new ChatWireEncoder(JSON, StructuredOutput.GRAMMAR).toJson(request);
        assertThat(grammar.path("grammar").asText()).startsWith("root ::= ").contains("\"\\\"sql\\\"\"");
        assertThat(grammar.has("response_format")).isFalse();
        assertThat(new ChatWireEncoder(JSON, StructuredOutput.JSON_OBJECT).toJson(request)
                .path("response_format").path("type").asText()).isEqualTo("json_object");
        JsonNode none = new ChatWireEncoder(JSON, StructuredOutput.NONE).toJson(request);
        assertThat(none.has("response_format") || none.has("grammar")).isFalse();
    }

    @Test
    void aPatternBecomesAGrammarSequence() {
        assertThat(SchemaGrammar.pattern("^(SELECT|WITH) ([a-z]|\\\\\"){1,3}$"))
                .isEqualTo("(( \"S\" \"E\" \"L\" \"E\" \"C\" \"T\" | \"W\" \"I\" \"T\" \"H\" ) \" \" ( [a-z] | \"\\\\\" \"\\\"\" ){1,3})");
    }

    @Test
    void structuredRepliesAreReadByTheTextReaders() {
        String reply = "{\"reason\": \"one table\", \"columns\": \"singer.Name\", \"sql_like\": \"SELECT Name\","
                + " \"sql\": \"SELECT Name FROM singer\"}";
        assertThat(ModelOutput.sql(reply)).contains("SELECT Name FROM singer");
        assertThat(ModelOutput.tagged(reply, List.of("reason", "SQL-like", "SQL")))
                .containsEntry("reason", "one table").containsEntry("SQL-like", "SELECT Name")
                .containsEntry("SQL", "SELECT Name FROM singer");
        assertThat(ModelOutput.sql("{\"reason\": \"x\", \"sql\": \"DROP TABLE singer\"}")).isEmpty();
    }

    @Test
    void theServersOwnMessageIsNamedOnceAndAnOverflowIsTyped() {
        AttemptFailure refused = FailureClassifier.ofStatus(400, null, "{\"error\":{\"code\":400,\"message\":\"Field 'n': "
                + "Value must be between 1 <= value <= 4, but got 5\",\"type\":\"invalid_request_error\"}}");
        assertThat(refused.kind()).isEqualTo(LlmErrorKind.INVALID_REQUEST);
        assertThat(refused.getMessage()).isEqualTo("INVALID_REQUEST: HTTP 400: Field 'n': Value must be between 1 <= value"
                + " <= 4, but got 5");
        AttemptFailure overflow = FailureClassifier.ofStatus(400, null, "{\"error\":{\"code\":400,\"message\":\"the request "
                + "exceeds the available context size\",\"type\":\"exceed_context_size_error\"}}");
        assertThat(overflow.kind()).isEqualTo(LlmErrorKind.CONTEXT_OVERFLOW);
    }

    @Test
    void maxTokensComeFromTheRequestThenTheStageConfigThenTheSchemaThenTheDefault() {
        ReplySchema reply = ReplySchema.of("r", "{\"type\": \"object\", \"x-max-tokens\": 300}");
        LlmClientConfig config = LlmClientConfig.builder("http://127.0.0.1:1/v1").defaultMaxTokens(1000)
                .stageMaxTokens("opensearch", 700).build();
        ChatRequest plain = ChatRequest.of("magsql.decompose", List.of(ChatMessage.user("q")));
        assertThat(config.maxTokensFor(plain)).isEqualTo(1000);
        assertThat(config.maxTokensFor(plain.withReply(reply))).isEqualTo(300);
        ChatRequest generate = ChatRequest.of("opensearch.generate", List.of(ChatMessage.user("q"))).withReply(reply);
        assertThat(config.maxTokensFor(generate)).isEqualTo(700);
        assertThat(config.maxTokensFor(generate.withMaxTokens(1400))).isEqualTo(1400);
    }
}
