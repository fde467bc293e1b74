package io.flowsql.llm;

import io.flowsql.config.llm.StructuredOutput;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import io.flowsql.agents.common.ModelOutput;
import io.flowsql.sql.SpiderData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shipped reply schemas admit real SQL and real languages: every gold query of Spider dev, BIRD mini-dev and
 * CoSQL dev, wrapped as a JSON value into each schema that carries SQL, validates (networknt's JSON Schema
 * validator, which applies every keyword to the decoded value) and is read back by {@code ModelOutput.sql}; text in
 * French, Japanese, emoji, quotes, backslashes and new lines validates in every text field of every schema; and
 * no shipped schema bounds text by pattern or length (docs/LLM.md: structure only).
 */
class ReplySchemaCorpusTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final List<String> TEXTS = List.of(
            "Quels chanteurs sont nés après 1990 ? Überprüfe „Köln“ und São Paulo.",
            "歌手は何人いますか？ 请列出所有歌手的名字。 가수는 몇 명입니까?",
            "Singers 🎤👩‍🎤 with emoji, Ελληνικά, العربية, עברית and Кириллица",
            "a \"quoted\" word, a back\\slash, a tab\tand\na new line");
    private static final List<String> AWKWARD_SQL = List.of(
            "-- the singers\nSELECT name FROM singer",
            "/* count */ SELECT count(*) FROM singer",
            "\n  select name from singer where country = 'Österreich' -- 歌手",
            "(SELECT name FROM singer) UNION (SELECT name FROM concert)",
            "WITH t AS (SELECT 1 AS x) SELECT x FROM t;",
            "SELECT \"Name\", `Song Name`, [Age] FROM singer WHERE name LIKE '%\\%' AND note = '🎤'");
    private static Map<String, JsonNode> schemas;

    @BeforeAll
    static void loadSchemas() throws IOException {
        Path prompts = Path.of(System.getProperty("flowsql.project.dir"), "udfs/src/main/resources/prompts");
        schemas = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(prompts)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".reply.json")).sorted().toList()) {
                String base = prompts.relativize(file).toString().replace(".reply.json", "");
                schemas.put(base, ReplySchema.loadOptional(base, "prompts/" + base + ".reply.json").orElseThrow().schema());
            }
        }
        assertThat(schemas).hasSizeGreaterThanOrEqualTo(24);
    }

    @Test
    void everyGoldQueryOfSpiderBirdAndCosqlFitsEverySqlField() throws IOException {
        Path data = SpiderData.sharedData();
        Map<String, List<String>> gold = new LinkedHashMap<>();
        gold.put("spider dev", values(JSON.readTree(data.resolve("spider/dev.json").toFile()), q -> q.path("query")));
        gold.put("bird mini-dev", values(JSON.readTree(data.resolve("bird-minidev/mini_dev_sqlite.json").toFile()),
                q -> q.path("SQL")));
        List<String> cosql = new ArrayList<>();
        for (JsonNode dialogue : JSON.readTree(data.resolve("cosql/cosql_dev.json").toFile())) {
            cosql.addAll(values(dialogue.path("turns"), turn -> turn.path("query")));
        }
        gold.put("cosql dev", cosql);
        gold.put("awkward", AWKWARD_SQL);
        assertThat(gold.get("spider dev")).hasSize(1034);
        assertThat(gold.get("bird mini-dev")).hasSize(500);
        assertThat(cosql).hasSizeGreaterThan(1000);

        int sqlSchemas = 0;
        long validated = 0;
        for (var entry : schemas.entrySet()) {
            List<JsonNode> branches = branches(entry.getValue());
            for (JsonNode branch : branches) {
                if (!branch.toString().contains("\"sql\"")) {
                    continue;
                }
                sqlSchemas++;
                JsonSchema validator = FACTORY.getSchema(entry.getValue());
                for (var corpus : gold.entrySet()) {
                    for (String sql : corpus.getValue()) {
                        String reply = JSON.writeValueAsString(instance(branch, entry.getValue(), name -> name.equals("sql") ? sql : "x"));
                        assertThat(validator.validate(JSON.readTree(reply))).as(entry.getKey() + ", " + corpus.getKey() + ": " + sql)
                                .isEmpty();
                        if (branch.path("properties").has("sql")) {
                            assertThat(ModelOutput.sql(reply)).as(entry.getKey() + " read back: " + sql)
                                    .contains(sql.strip().replaceAll(";+$", "").strip());
                        }
                        validated++;
                    }
                }
            }
        }
        System.out.printf("reply schemas: %d gold and awkward queries (spider %d, bird %d, cosql %d) validated in %d "
                        + "SQL-bearing schemas, %d validations%n", gold.values().stream().mapToInt(List::size).sum(),
                gold.get("spider dev").size(), gold.get("bird mini-dev").size(), cosql.size(), sqlSchemas, validated);
        assertThat(sqlSchemas).isGreaterThanOrEqualTo(16);
    }

    @Test
    void textInAnyLanguageFitsEveryTextField() throws IOException {
        for (var entry : schemas.entrySet()) {
            JsonSchema validator = FACTORY.getSchema(entry.getValue());
            for (JsonNode branch : branches(entry.getValue())) {
                for (String text : TEXTS) {
                    String reply = JSON.writeValueAsString(instance(branch, entry.getValue(),
                            name -> name.equals("sql") ? "SELECT 1" : text));
                    assertThat(validator.validate(JSON.readTree(reply))).as(entry.getKey() + ": " + reply).isEmpty();
                }
            }
        }
    }

    @Test
    void theShippedSchemasBoundStructureNotText() {
        for (var entry : schemas.entrySet()) {
            List<String> textBounds = new ArrayList<>();
            walk(entry.getValue(), "", (path, node) -> {
                if (node.has("pattern")) {
                    textBounds.add(path + " pattern");
                }
                if (node.path("maxLength").asInt(0) > 0) {
                    textBounds.add(path + " maxLength " + node.get("maxLength"));
                }
            });
            assertThat(textBounds).as(entry.getKey() + ": bound text in the tests' overlay, not here").isEmpty();
            // the project's own GBNF conversion takes every schema, with any character in free text
            assertThat(SchemaGrammar.of(entry.getValue())).as(entry.getKey()).contains("char ::= [^\"");
        }
    }

    @Test
    void anOverlayBoundsTheTextOfEverySchemaAndLeavesTheShippedOneAlone() {
        ReplyOverlay overlay = ReplyOverlay.parse("{\"properties\": {\"sql\": {\"pattern\": \"^SELECT [a-z ]{1,40}$\"},"
                + " \"rewrite\": {\"pattern\": \"^[a-z]{1,9}$\"}}, \"strings\": {\"maxLength\": 12}}");
        ReplySchema detect = ReplySchema.loadOptional("d", "prompts/mmsql/detect.reply.json").orElseThrow();
        JsonNode tight = overlay.apply(detect).schema();
        JsonNode ambiguous = tight.path("anyOf").get(1).path("properties");
        assertThat(ambiguous.path("rewrite").path("items").path("pattern").asText()).isEqualTo("^[a-z]{1,9}$");
        assertThat(ambiguous.path("improper").path("maxLength").asInt()).isEqualTo(12);
        assertThat(ambiguous.path("type").has("maxLength")).as("a const is left alone").isFalse();
        JsonNode answerable = tight.path("anyOf").get(0).path("properties");
        assertThat(answerable.path("answer").path("maxLength").asInt()).as("an empty-only string stays empty").isZero();
        assertThat(detect.schema().toString()).as("the shipped schema is not changed").doesNotContain("maxLength\":12");
        assertThat(overlay.apply(detect)).as("made once").isSameAs(overlay.apply(detect));
        assertThat(detect.maxTokens()).isEqualTo(overlay.apply(detect).maxTokens());

        ReplySchema generate = ReplySchema.loadOptional("g", "prompts/opensearch/generate.reply.json").orElseThrow();
        JsonNode wire = new ChatWireEncoder(JSON, StructuredOutput.JSON_SCHEMA, overlay)
                .toJson(ChatRequest.of("s", List.of(ChatMessage.user("q"))).withModel("m").withReply(generate))
                .path("response_format").path("json_schema").path("schema").path("properties");
        assertThat(wire.path("sql").path("pattern").asText()).isEqualTo("^SELECT [a-z ]{1,40}$");
        assertThat(wire.path("sql_like").path("maxLength").asInt()).isEqualTo(12);
        assertThat(ReplyOverlay.parse(" ")).isNull();
    }

    /** The alternatives a reply may take: each anyOf branch (with the root's $defs), else the schema itself. */
    private static List<JsonNode> branches(JsonNode schema) {
        if (!schema.has("anyOf")) {
            return List.of(schema);
        }
        List<JsonNode> out = new ArrayList<>();
        schema.get("anyOf").forEach(out::add);
        return out;
    }

    /** A reply of the schema's shape: every property filled, arrays at their least (at least one item when allowed). */
    private static JsonNode instance(JsonNode schema, JsonNode root, Function<String, String> text) {
        return instance(schema, root, text, "");
    }

    private static JsonNode instance(JsonNode schema, JsonNode root, Function<String, String> text, String name) {
        if (schema.has("$ref")) {
            return instance(root.at(schema.get("$ref").asText().substring(1)), root, text, name);
        }
        if (schema.has("const")) {
            return schema.get("const");
        }
        if (schema.has("enum")) {
            return schema.get("enum").get(0);
        }
        switch (schema.path("type").asText("string")) {
            case "object" -> {
                ObjectNode object = JSON.createObjectNode();
                schema.path("properties").properties().forEach(p -> object.set(p.getKey(), instance(p.getValue(), root, text, p.getKey())));
                if (schema.path("properties").isEmpty() && schema.path("additionalProperties").isObject()) {
                    object.set("singer", instance(schema.get("additionalProperties"), root, text, "singer"));
                }
                return object;
            }
            case "array" -> {
                ArrayNode array = JSON.createArrayNode();
                int items = schema.path("maxItems").asInt(3) == 0 ? 0 : Math.max(1, schema.path("minItems").asInt(1));
                for (int i = 0; i < items; i++) {
                    array.add(instance(schema.path("items"), root, text, name));
                }
                return array;
            }
            case "boolean" -> {
                return JSON.getNodeFactory().booleanNode(true);
            }
            default -> {
                return JSON.getNodeFactory().textNode(schema.path("maxLength").asInt(-1) == 0 ? "" : text.apply(name));
            }
        }
    }

    private static List<String> values(JsonNode array, Function<JsonNode, JsonNode> field) {
        List<String> out = new ArrayList<>();
        array.forEach(item -> {
            String value = field.apply(item).asText("");
            if (!value.isBlank()) {
                out.add(value);
            }
        });
        return out;
    }

    private static void walk(JsonNode node, String path, java.util.function.BiConsumer<String, JsonNode> visit) {
        if (node.isObject()) {
            visit.accept(path, node);
            node.properties().forEach(e -> walk(e.getValue(), path + "/" + e.getKey(), visit));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "/" + i, visit);
            }
        }
    }
}
