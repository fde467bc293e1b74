package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.QuestionEvent;
import io.flowsql.simulator.Fault;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The topology against an unreliable LLM (20% 503s, 5% hangs, 5% malformed bodies from the simulated
 * server over HTTP): every question still gets exactly one committed answer, failures name their stage,
 * and the job, run with restarts disabled, is still running at the end, so no LLM failure escaped.
 * Hanging calls last longer than the 60 s stage timeout: they must end by the LLM client's own call
 * timeout and retries, so no answer is a stage timeout and the run takes seconds.
 */
class TopologyFaultsITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void everyQuestionIsAnsweredAndTheJobNeverRestartsBecauseOfTheLlm() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        List<QuestionEvent> questions = SpiderQuestions.of(sharedData, "concert_singer", 30);
        assertThat(questions).as("Spider dev questions for concert_singer under flowsql.shared.data").hasSize(30);

        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder()
                .port(0)
                .responders(AgentResponders.all())
                .oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json")))
                .faultRate(Fault.UNAVAILABLE, 0.20)
                .faultRate(Fault.HANG, 0.05)
                .faultRate(Fault.MALFORMED_JSON, 0.05)
                .hangMillis(120_000)
                .seed(7)
                .build())) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.FEEDBACK_WAIT.key(), "2s",
                    JobOptions.STAGE_TIMEOUT.key(), "60s",
                    JobOptions.LLM_TOTAL_BUDGET.key(), "30s",
                    JobOptions.LLM_TIMEOUT.key(), "400ms",
                    JobOptions.LLM_MAX_RETRIES.key(), "2"));
            try (JobCluster.RunningJob job = JobCluster.job(config).noRestarts().start("topology-faults")) {
                topics.sendQuestions(questions);
                List<AnswerEvent> answers =
                        topics.committedAnswers(questions.size(), Duration.ofSeconds(50), Duration.ofSeconds(3));
                Map<String, Long> perRequest = answers.stream()
                        .collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
                assertThat(perRequest.keySet()).containsExactlyInAnyOrderElementsOf(
                        questions.stream().map(q -> q.requestId).toList());
                assertThat(perRequest.values()).as("exactly one answer each").allMatch(n -> n == 1);
                for (AnswerEvent a : answers) {
                    if ("failed".equals(a.status)) {
                        assertThat(a.failedStage).as("failed answer names its stage").isNotBlank();
                        assertThat(a.error).as("failed answer says why").isNotBlank();
                        assertThat(a.error).as("the client's own timeouts end hanging calls, long before the stage's")
                                .doesNotContain("in stage");
                    }
                }
                assertThat(llm.requestCount()).as("the LLM was really called").isGreaterThan(questions.size());
                assertThat(job.client().getJobStatus().get()).as("no failure escaped to Flink").isEqualTo(JobStatus.RUNNING);
                System.out.printf("faults: %d answers, %d failed%n", answers.size(),
                        answers.stream().filter(a -> "failed".equals(a.status)).count());
            }
        }
    }
}
