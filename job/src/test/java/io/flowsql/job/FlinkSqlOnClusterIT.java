package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.devstack.ScriptedFlinkCluster;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.job.sql.FlowSqlScript;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Flink SQL path on the local standalone cluster (deploy/flink-cluster-start.sh, whose classpath carries the Table
 * API, planner and table runtime as a distribution's lib/ does): the shaded jar submitted over REST with the SQL runner
 * as entry class (what deploy/flowsql-sql.sh --submit does) runs the bundled script; the real broker and the simulated
 * LLM over HTTP; every question answered once, a bad record dead-lettered. Both run through deploy/flowsql-sql.sh
 * (--submit, then --client) as the README's Flink SQL block says.
 *
 * <p>Run by failsafe in the integration-test phase, after the shaded jar is packaged (in .ci/run by surefire, on the
 * jar it packages first: profile cluster-tests-in-surefire).
 */
class FlinkSqlOnClusterIT {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @Test
    void theSqlScriptSubmittedToTheStandaloneClusterAnswersEveryQuestion() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path projectDir = Path.of(System.getProperty("flowsql.project.dir"));
        Path jobJar = Path.of(System.getProperty("flowsql.job.jar"));
        Path work = Path.of(System.getProperty("flowsql.test.work"), "flink-sql-on-cluster");
        assertThat(jobJar).as("the shaded job jar (packaged before the integration tests)").isRegularFile();
        GoldSqlOracle oracle = GoldSqlOracle.load(sharedData.resolve("spider/dev.json"));
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                     .latency(LatencyModel.fixed(20)).responders(AgentResponders.all()).oracle(oracle).build());
             ScriptedFlinkCluster cluster = ClusterItRun.cluster(projectDir, work.resolve("cluster"), 2, "1536m")) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(JobOptions.STRATEGY.key(), "opensearch"));
            cluster.start(1);
            // the README's command, as a user runs it
            String job = cluster.submitFlowSqlScript(jobJar, config.asArguments());
            int answersBefore;
            try {
                List<QuestionEvent> questions = SpiderQuestions.of(sharedData, "concert_singer", 4);
                topics.sendQuestions(questions);
                topics.sendRaw(Map.of("bad-1", "{\"request_id\":\"bad-1\",\"dialogue_id\":\"bad-1\"}"));
                List<AnswerEvent> answers = topics.committedAnswers(questions.size(), Duration.ofSeconds(120), Duration.ofSeconds(3));
                assertThat(answers.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting())))
                        .as("exactly one answer per question")
                        .containsOnlyKeys(questions.stream().map(q -> q.requestId).toList())
                        .allSatisfy((id, n) -> assertThat(n).isEqualTo(1L));
                answersBefore = answers.size();
                assertThat(answers).anyMatch(a -> "answered".equals(a.status) && a.sql != null);
                List<ConsumerRecord<byte[], byte[]>> deadLetters = topics.committed(JobTopics.DEAD_LETTERS, 1,
                        Duration.ofSeconds(30), Duration.ofSeconds(1));
                assertThat(deadLetters).hasSize(1);
                DeadLetterEvent letter = EventJson.parseDeadLetter(deadLetters.get(0).value());
                assertThat(letter.reason).startsWith("schema: ");
            } finally {
                cluster.cancel(job);
            }
            // The same script through Flink's own SQL client (the README's deploy/flowsql-sql.sh --client), continuing
            // from the offsets the first job committed: the new questions are each answered once. The script prints the
            // filled-in SQL with this test's classpath (FLOWSQL_JOB_CLASSPATH): resolving one with Maven would build in
            // the checkout this build is testing.
            String clientJob = cluster.runFlowSqlScriptInClient(jobJar,
                    Map.of("FLOWSQL_JOB_CLASSPATH", System.getProperty("java.class.path")), config.asArguments());
            assertThat(work.resolve("cluster/flowsql-client.sql")).as("the script --client printed for the SQL client")
                    .content().isEqualTo(FlowSqlScript.bundledFor(config).text());
            try {
                assertThat(cluster.get("/jobs/" + clientJob).path("state").asText()).isIn("CREATED", "INITIALIZING", "RUNNING");
                List<QuestionEvent> later = SpiderQuestions.of(sharedData, "pets_1", 3).stream()
                        .map(q -> new QuestionEvent("client-" + q.requestId, "client-" + q.dialogueId, q.dbId, q.question))
                        .toList();
                topics.sendQuestions(later);
                List<String> laterIds = later.stream().map(q -> q.requestId).toList();
                // one reader for the whole wait (a new one per look joined a group and read the topic from the start)
                Map<String, Long> counts;
                try (TopicReader reader = new TopicReader(KAFKA.bootstrapServers(), JobTopics.ANSWERS)) {
                    // the first job's answers are in the topic before these
                    reader.readAtLeast(answersBefore + laterIds.size(), Duration.ofSeconds(120));
                    counts = reader.drain(Duration.ofSeconds(2)).stream().map(r -> EventJson.parseAnswer(r.value()))
                            .filter(a -> laterIds.contains(a.requestId))
                            .collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
                }
                assertThat(counts).as("exactly one answer per question sent to the SQL client's job")
                        .containsOnlyKeys(laterIds).allSatisfy((id, n) -> assertThat(n).isEqualTo(1L));
            } finally {
                cluster.cancel(clientJob);
            }
            // The README's interactive client (deploy/flink-sql-client.sh): a user's statements at its prompt, with the
            // job jar in the session, so FlowSQL's functions can be declared and listed.
            String session = cluster.sqlClientSession(jobJar, """
                    CREATE TEMPORARY FUNCTION TEXT_TO_SQL AS 'io.flowsql.job.sql.TextToSqlFunction';
                    SHOW USER FUNCTIONS;
                    QUIT;
                    """);
            assertThat(session).as("what the interactive client printed").containsIgnoringCase("text_to_sql")
                    .doesNotContain("[ERROR]");
        }
    }
}
