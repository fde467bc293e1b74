package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatedMessage;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Access policies and schema retrieval in the running job (real broker, MiniCluster, the simulator over HTTP): in one
 * run, a question of a tenant allowed its database is answered, one asking a database its tenant may not use is
 * refused {@code forbidden}, and a question asked of a warehouse of many Spider databases (one namespace each, more
 * tokens than the budget) is shown only the tables retrieval kept — checked on every prompt the simulator received.
 */
class TenantsAndRetrievalITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster(4);

    private static final Pattern TABLE_LINE = Pattern.compile("(?m)^# Table: (\\S+)");
    private static final List<String> WAREHOUSE_DATABASES = List.of("concert_singer", "pets_1", "car_1", "flight_2",
            "employee_hire_evaluation", "cre_Doc_Template_Mgt", "course_teach", "museum_visit", "wta_1", "battle_death",
            "student_transcripts_tracking", "tvshow", "poker_player", "voter_1", "world_1", "orchestra", "network_1",
            "dog_kennels", "singer", "real_estate_properties");

    @Test
    void aForbiddenQuestionIsRefusedAPermittedOneAnsweredAndWarehousePromptsShowOnlyRetrievedTables() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path root = Path.of("target", "tenants-it").toAbsolutePath();
        List<String> warehouseNames = buildWarehouse(sharedData, root.resolve("warehouse").resolve("warehouse.sqlite"));
        int warehouseTables = warehouseNames.size();

        QuestionEvent permitted = new QuestionEvent("permitted", "team-a/1", "concert_singer", "How many singers do we have?");
        QuestionEvent forbidden = new QuestionEvent("forbidden", "team-b/1", "concert_singer", "How many singers do we have?");
        QuestionEvent declared = new QuestionEvent("declared", "someone", "concert_singer", "How many singers do we have?");
        declared.tenant = "team-b";
        QuestionEvent warehouse = new QuestionEvent("warehouse", "team-a/2", "warehouse",
                "What is the average, minimum, and maximum age of all singers from France?");
        // team-c may read concert_singer's singer table only; the gold SQL reads stadium. sqlfix's reviewer and refiner
        // run SQL inside their stages: it must be gated there too, not only where candidates run.
        QuestionEvent hiddenTable = new QuestionEvent("hidden", "team-c/1", "concert_singer",
                "Show location and name for all stadiums with a capacity between 5000 and 10000.");
        hiddenTable.options = new io.flowsql.events.QuestionOptions();
        hiddenTable.options.strategy = "sqlfix";
        // MAG-SQL's linker on the warehouse: its columns are "ns.table.column" (the simulator read "ns" as the table)
        QuestionEvent linked = new QuestionEvent("warehouse-mag", "team-a/3", "warehouse",
                "What is the total number of singers from France?");
        linked.options = new io.flowsql.events.QuestionOptions();
        linked.options.strategy = "mag-sql";

        SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .responders(AgentResponders.all())
                .oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json")))
                .recordRequests(true).build());
        try (llm) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.LLM_MODEL.key(), "test-model",
                    JobOptions.STRATEGY.key(), "opensearch",
                    JobOptions.DATABASE_ROOTS.key(), sharedData.resolve("spider/database") + "," + root,
                    JobOptions.TABLES_JSON.key(), sharedData.resolve("spider/tables.json").toString(),
                    JobOptions.SCHEMA_TOKEN_BUDGET.key(), "700",
                    JobOptions.TENANT_FROM_DIALOGUE_ID.key(), "^([a-z-]+)/",
                    "tenants.team-a.databases", "concert_singer,warehouse",
                    "tenants.team-b.databases", "car_1",
                    "tenants.team-c.databases", "concert_singer",
                    "tenants.team-c.tables.concert_singer", "singer"));
            try (JobCluster.RunningJob job = JobCluster.start("tenants-it", config)) {
                topics.sendQuestions(List.of(permitted, forbidden, declared, warehouse, hiddenTable, linked));
                List<ConsumerRecord<byte[], byte[]>> records =
                        topics.committed(JobTopics.ANSWERS, 6, Duration.ofSeconds(180), Duration.ofSeconds(2));
                List<AnswerEvent> answers = new ArrayList<>();
                records.forEach(r -> answers.add(EventJson.parseAnswer(r.value())));
                assertThat(answers).extracting(a -> a.requestId)
                        .containsExactlyInAnyOrder("permitted", "forbidden", "declared", "warehouse", "hidden", "warehouse-mag");
                AnswerEvent mag = answer(answers, "warehouse-mag");
                assertThat(mag.trace).filteredOn(t -> t.stage.equals("magsql.link")).singleElement()
                        .satisfies(t -> assertThat(t.outcome).as("magsql.link: %s", mag.error).isEqualTo("completed"));
                assertThat(mag.trace).filteredOn(t -> t.stage.equals("magsql.generate")).singleElement()
                        .satisfies(t -> assertThat(t.outcome).isEqualTo("completed"));

                // the hidden table's SQL never ran: no stadium row in the answer or any prompt, and the model was told
                List<String> stadiumNames = List.of("Stark's Park", "Somerset Park", "Bayview Stadium", "Hampden Park",
                        "Forthbank Stadium", "Gayfield Park", "Recreation Park", "Balmoor", "Glebe Park");
                String hiddenAnswer = records.stream().map(r -> new String(r.value(), java.nio.charset.StandardCharsets.UTF_8))
                        .filter(v -> v.contains("\"hidden\"")).findFirst().orElseThrow();
                assertThat(answer(answers, "hidden").status).isNotEqualTo("answered");
                List<String> hiddenPrompts = prompts(llm.requests(), hiddenTable.question);
                assertThat(hiddenPrompts).isNotEmpty();
                assertThat(String.join("\n", hiddenPrompts)).contains("table stadium is not available");
                for (String name : stadiumNames) {
                    assertThat(hiddenAnswer).doesNotContain(name);
                    assertThat(hiddenPrompts).allSatisfy(p -> assertThat(p).doesNotContain(name));
                }

                AnswerEvent ok = answer(answers, "permitted");
                assertThat(ok.status).isEqualTo("answered");
                assertThat(ok.result.rows).containsExactly(List.of("6"));
                assertThat(ok.trace.get(0).stage).isEqualTo("schema.retrieve");
                assertThat(ok.retrievedTables).as("concert_singer fits the budget: shown whole").isNull();

                for (String id : List.of("forbidden", "declared")) {
                    AnswerEvent refused = answer(answers, id);
                    assertThat(refused.status).isEqualTo("refused");
                    assertThat(refused.errorKind).isEqualTo("forbidden");
                    assertThat(refused.error).doesNotContain("car_1", "team", "warehouse");
                    assertThat(refused.trace).isEmpty();
                }

                AnswerEvent big = answer(answers, "warehouse");
                assertThat(big.trace.get(0).stage).isEqualTo("schema.retrieve");
                Set<String> retrieved = new LinkedHashSet<>(big.retrievedTables);
                assertThat(retrieved).contains("concert_singer.singer").hasSizeLessThan(warehouseTables / 2);

                List<String> prompts = prompts(llm.requests(), warehouse.question);
                List<String> forbiddenPrompts = prompts(llm.requests(), forbidden.question).stream()
                        .filter(p -> p.contains("forbidden")).toList();
                assertThat(forbiddenPrompts).isEmpty();
                assertThat(prompts).as("prompts of the warehouse question").isNotEmpty();
                Set<String> shown = new LinkedHashSet<>();
                for (String prompt : prompts) {
                    Matcher m = TABLE_LINE.matcher(prompt);
                    while (m.find()) {
                        shown.add(m.group(1));
                    }
                    for (String hidden : warehouseNames) {
                        if (!retrieved.contains(hidden)) {
                            assertThat(Pattern.compile("(?<![\\w.])" + Pattern.quote(hidden) + "(?!\\w)").matcher(prompt).find())
                                    .as("table %s, not retrieved, in a prompt", hidden).isFalse();
                        }
                    }
                }
                assertThat(shown).isNotEmpty();
                assertThat(retrieved).containsAll(shown);
            }
        }
    }

    private static AnswerEvent answer(List<AnswerEvent> answers, String id) {
        return answers.stream().filter(a -> a.requestId.equals(id)).findFirst().orElseThrow();
    }

    /** The text of every request whose messages mention {@code question}. */
    private static List<String> prompts(List<RecordedRequest> requests, String question) {
        List<String> out = new ArrayList<>();
        for (RecordedRequest r : requests) {
            StringBuilder text = new StringBuilder();
            for (SimulatedMessage m : r.request().messages()) {
                text.append(m.content()).append('\n');
            }
            if (text.indexOf(question) >= 0) {
                out.add(text.toString());
            }
        }
        return out;
    }

    /** A SQLite warehouse: the tables of {@link #WAREHOUSE_DATABASES}, each named {@code <db>.<table>}, with their rows. */
    private static List<String> buildWarehouse(Path sharedData, Path file) throws Exception {
        Files.createDirectories(file.getParent());
        Files.deleteIfExists(file);
        List<String> tables = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            for (String db : WAREHOUSE_DATABASES) {
                Path source = sharedData.resolve("spider/database").resolve(db).resolve(db + ".sqlite");
                if (!Files.isRegularFile(source)) {
                    continue;
                }
                s.execute("ATTACH DATABASE '" + source + "' AS src");
                List<String> names = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("SELECT name FROM src.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) {
                    while (rs.next()) {
                        names.add(rs.getString(1));
                    }
                }
                for (String t : names) {
                    s.execute("CREATE TABLE \"" + db + "." + t + "\" AS SELECT * FROM src.\"" + t + "\"");
                    tables.add(db + "." + t);
                }
                s.execute("DETACH DATABASE src");
            }
        }
        return tables;
    }
}
