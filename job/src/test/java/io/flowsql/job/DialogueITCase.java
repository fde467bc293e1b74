package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real multi-turn CoSQL dialogue sent to Kafka all at once (real broker, MiniCluster, the simulated LLM
 * over HTTP in oracle mode): the dialogue operator holds each follow-up until the previous turn's answer
 * comes back through the answers topic, so the turns are answered in order and every prompt of a turn
 * carries the SQL the earlier turns were answered with.
 */
class DialogueITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    /** One user turn of a CoSQL dialogue and the gold SQL of the system turn that answers it. */
    private record Turn(String text, String goldSql) {}

    @Test
    void aDialogueSentAllAtOnceIsAnsweredInOrderWithTheEarlierSqlInEveryPrompt() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path cosql = sharedData.resolve("cosql/cosql_dev.json");
        assertThat(cosql).as("CoSQL dev under flowsql.shared.data").isRegularFile();
        GoldSqlOracle oracle = GoldSqlOracle.load(cosql);
        JsonNode dialogue = firstAnswerableDialogue(cosql, sharedData, oracle);
        String db = dialogue.path("db_name").asText();
        List<Turn> turns = userTurns(dialogue);

        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder()
                .port(0).responders(AgentResponders.all()).oracle(oracle).build())) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.STRATEGY.key(), "mmsql",
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms",
                    // Far beyond the test's wait: a turn released by this timer instead of by its feedback fails the test.
                    JobOptions.FEEDBACK_WAIT.key(), "10min"));
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            FlowSqlJob.configure(env, config);
            FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config, TopologyAnswering.from(config));
            JobClient job = env.executeAsync("dialogue");
            List<QuestionEvent> questions = new ArrayList<>();
            for (int i = 0; i < turns.size(); i++) {
                questions.add(new QuestionEvent("cosql-" + db + "-turn-" + i, "cosql-" + db, db, turns.get(i).text()));
            }
            List<AnswerEvent> answers;
            try {
                topics.sendQuestions(questions);
                answers = topics.committedAnswers(turns.size(), Duration.ofSeconds(60), Duration.ofSeconds(2));
            } finally {
                job.cancel().get();
            }

            assertThat(answers).extracting(a -> a.requestId).as("one answer per turn, in turn order")
                    .containsExactlyElementsOf(questions.stream().map(q -> q.requestId).toList());
            assertThat(answers).allSatisfy(a -> {
                assertThat(a.status).as(a.question + ": " + a.error).isEqualTo("answered");
                assertThat(a.sql).isNotBlank();
            });

            List<RecordedRequest> requests = llm.requests();
            long previousTurnLastCall = Long.MIN_VALUE;
            for (int i = 0; i < turns.size(); i++) {
                String label = "turn " + (i + 1) + ": " + turns.get(i).text().strip();
                List<RecordedRequest> calls = callsFor(requests, turns.get(i).text());
                assertThat(calls).extracting(r -> r.request().task()).as(label)
                        .contains("mmsql.select", "mmsql.detect", "mmsql.decompose");
                for (RecordedRequest call : calls) {
                    String prompt = call.request().lastUserMessage();
                    for (int earlier = 0; earlier < i; earlier++) {
                        assertThat(prompt).as(label + " → " + call.request().task())
                                .contains("SQL: " + oneLine(answers.get(earlier).sql));
                    }
                    for (int later = i + 1; later < turns.size(); later++) {
                        assertThat(prompt).as(label + " must not know a later turn")
                                .doesNotContain(turns.get(later).text().strip());
                    }
                    assertThat(call.receivedAtNanos()).as(label + " starts after the previous turn's calls")
                            .isGreaterThan(previousTurnLastCall);
                }
                previousTurnLastCall = calls.stream().mapToLong(RecordedRequest::receivedAtNanos).max().orElseThrow();
            }
        }
    }

    private static List<RecordedRequest> callsFor(List<RecordedRequest> requests, String question) {
        return requests.stream()
                .filter(r -> r.request() != null && oneLine(r.request().field("Question").orElse("")).equals(oneLine(question)))
                .toList();
    }

    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s+", " ");
    }

    /**
     * The first dialogue on a database we have with three or four user turns, all answerable with gold SQL
     * that the oracle knows under their own text (CoSQL repeats some turns across dialogues; the oracle keeps the first).
     */
    private static JsonNode firstAnswerableDialogue(Path cosql, Path sharedData, GoldSqlOracle oracle) throws Exception {
        for (JsonNode dialogue : EventJson.mapper().readTree(cosql.toFile())) {
            String db = dialogue.path("db_name").asText();
            List<Turn> turns = userTurns(dialogue);
            boolean usable = Files.isRegularFile(sharedData.resolve("spider/database").resolve(db).resolve(db + ".sqlite"))
                    && turns.size() >= 3 && turns.size() <= 4
                    && turns.stream().allMatch(t -> !t.goldSql().isEmpty()
                            && oracle.goldSql(db, t.text()).orElse("").equals(t.goldSql())
                            && oracle.questionType(db, t.text()).orElse("").equals("answerable"));
            if (usable) {
                return dialogue;
            }
        }
        throw new AssertionError("no usable answerable CoSQL dialogue in " + cosql);
    }

    private static List<Turn> userTurns(JsonNode dialogue) {
        JsonNode raw = dialogue.path("turns");
        List<Turn> turns = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            if (raw.get(i).path("isUser").asBoolean()) {
                boolean answered = i + 1 < raw.size() && !raw.get(i + 1).path("isUser").asBoolean(true);
                turns.add(new Turn(raw.get(i).path("text").asText(), answered ? raw.get(i + 1).path("query").asText("").strip() : ""));
            }
        }
        return turns;
    }
}
