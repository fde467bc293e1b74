package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.QuestionEvent;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
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
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void aDialogueSentAllAtOnceIsAnsweredInOrderWithTheEarlierSqlInEveryPrompt() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path cosql = sharedData.resolve("cosql/cosql_dev.json");
        GoldSqlOracle oracle = GoldSqlOracle.load(cosql);
        CosqlDialogues.Dialogue dialogue = CosqlDialogues.answerable(sharedData, oracle, 3, 4, 1).get(0);
        String db = dialogue.db();
        int turns = dialogue.turns().size();

        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder()
                .port(0).responders(AgentResponders.all()).oracle(oracle).build())) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.STRATEGY.key(), "mmsql",
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms",
                    // Far beyond the test's wait: a turn released by this timer instead of by its feedback fails the test.
                    JobOptions.FEEDBACK_WAIT.key(), "10min"));
            List<QuestionEvent> questions = dialogue.questions("cosql-" + db);
            List<AnswerEvent> answers;
            try (JobCluster.RunningJob job = JobCluster.start("dialogue", config)) {
                topics.sendQuestions(questions);
                answers = topics.committedAnswers(turns, Duration.ofSeconds(60), Duration.ofSeconds(2));
            }

            assertThat(answers).extracting(a -> a.requestId).as("one answer per turn, in turn order")
                    .containsExactlyElementsOf(questions.stream().map(q -> q.requestId).toList());
            assertThat(answers).allSatisfy(a -> {
                assertThat(a.status).as(a.question + ": " + a.error).isEqualTo("answered");
                assertThat(a.sql).isNotBlank();
            });

            CosqlDialogues.assertAnsweredInOrderWithHistory(llm.requests(), dialogue, answers);
        }
    }
}
