package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatedMessage;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a real server receives from the whole job (Kafka → Flink → simulator over HTTP), read from the simulator's
 * request log, one preset after another on the same Spider question with the job's defaults: every chat request carries
 * an explicit temperature, every SQL-writing step a budget of at least 1,000 tokens, opensearch draws 21 candidates and
 * is shown few-shot examples of other databases from a library built at first start, and MAG-SQL's generators see the
 * question's matched values.
 */
class RequestLogITCase {
    private static final String DB = "concert_singer";
    private static final String QUESTION = "What is the average, minimum, and maximum age of all singers from France?";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void everyPresetSendsItsAuthorsParametersThroughTheWholeJob(@TempDir Path dir) throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path library = dir.resolve("fewshot/library.jsonl");
        Map<String, List<RecordedRequest>> byPreset = new LinkedHashMap<>();
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .responders(AgentResponders.all()).oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json"))).build())) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.AGENT_CANDIDATES.key(), String.valueOf(JobOptions.AGENT_CANDIDATES.defaultValue()),
                    JobOptions.AGENT_MMSQL_SELECT_ABOVE_COLUMNS.key(),
                    String.valueOf(JobOptions.AGENT_MMSQL_SELECT_ABOVE_COLUMNS.defaultValue()),
                    JobOptions.AGENT_FEWSHOT_LIBRARY.key(), library.toString(),
                    JobOptions.AGENT_FEWSHOT_SOURCES.key(), sharedData.resolve("cosql/sparc_dev_SQLonly.json") + ","
                            + sharedData.resolve("cosql/cosql_dev_SQLonly.json")));
            try (JobCluster.RunningJob job = JobCluster.start("request-log", config)) {
                List<String> presets = List.of("opensearch", "mag-sql", "sqlfix", "mmsql");
                for (int i = 0; i < presets.size(); i++) {
                    llm.clearRequests();
                    QuestionEvent q = new QuestionEvent("log-" + i, "log-dialogue-" + i, DB, QUESTION);
                    q.options = new QuestionOptions();
                    q.options.strategy = presets.get(i);
                    topics.sendQuestions(List.of(q));
                    List<AnswerEvent> answers = topics.committedAnswers(i + 1, Duration.ofSeconds(90), Duration.ofMillis(500));
                    AnswerEvent answer = answers.stream().filter(a -> a.requestId.equals(q.requestId)).findFirst().orElseThrow();
                    assertThat(answer.status).as(presets.get(i) + ": " + answer.error).isEqualTo("answered");
                    byPreset.put(presets.get(i), llm.requests());
                }
            }
        }

        java.util.Set<String> sqlTasks = io.flowsql.engine.StageRegistry.sqlWritingTasks();
        byPreset.forEach((preset, requests) -> {
            assertThat(requests).as(preset + " asked the model").isNotEmpty()
                    .allSatisfy(r -> assertThat(r.request().temperature()).as(preset + " " + r.request().task()).isNotNull());
            List<RecordedRequest> sql = requests.stream().filter(r -> sqlTasks.contains(r.request().task())).toList();
            assertThat(sql).as(preset + " writes SQL; tasks: " + requests.stream().map(r -> r.request().task()).toList())
                    .isNotEmpty().allSatisfy(r -> assertThat(r.request().maxTokens()).as(preset + " " + r.request().task())
                            .isGreaterThanOrEqualTo(1000));
            System.out.printf("request log, %s: %d chat requests, tasks %s%n", preset, requests.size(),
                    requests.stream().map(r -> r.request().task()).distinct().toList());
        });

        List<RecordedRequest> generate = byPreset.get("opensearch").stream()
                .filter(r -> r.request().task().equals("opensearch.generate")).toList();
        assertThat(generate.stream().mapToInt(r -> r.request().n()).sum()).as("opensearch candidates per question").isEqualTo(21);
        assertThat(library).as("the few-shot library built at first start").isRegularFile();
        assertThat(Files.readAllLines(library)).hasSizeGreaterThan(500);
        String generationPrompt = user(generate.get(0));
        assertThat(generationPrompt).contains("Example question: ");
        // examples come from the other databases: none of concert_singer's questions is shown
        assertThat(Files.readAllLines(library).stream().filter(l -> l.contains("\"dbId\":\"" + DB + "\""))
                .map(l -> l.replaceAll(".*\"question\":\"([^\"]*)\".*", "$1")))
                .isNotEmpty().noneMatch(q -> generationPrompt.contains("Example question: " + q));

        List<RecordedRequest> magGenerators = byPreset.get("mag-sql").stream()
                .filter(r -> r.request().task().startsWith("magsql.generate.first")
                        || r.request().task().startsWith("magsql.generate.next")).toList();
        assertThat(magGenerators).isNotEmpty().allSatisfy(r -> assertThat(user(r))
                .contains("Values found in the database:").contains("singer.Country = 'France'"));
    }

    private static String user(RecordedRequest r) {
        return r.request().messages().stream().filter(m -> m.role().equals("user")).map(SimulatedMessage::content)
                .reduce("", String::concat);
    }
}
