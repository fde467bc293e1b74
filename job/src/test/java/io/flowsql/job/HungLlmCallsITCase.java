package io.flowsql.job;

import io.flowsql.job.topology.TopologyConfig;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.QuestionEvent;
import io.flowsql.simulator.Fault;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stage timeout cancels what it timed out: 64 LLM calls hang (the simulator never answers them) while the client
 * has exactly 64 connection permits and a 5 min budget per call. The stage times out after 15 s; its cancellation
 * aborts the HTTP calls and frees the permits, so the questions sent next are answered at once. Without the
 * cancellation every permit stays taken until the calls' 5 min budget ends, and the later questions wait for it.
 */
class HungLlmCallsITCase {
    private static final int HUNG = 64;
    /** Long enough for every first call to reach the server on a loaded machine (first use builds the schema views). */
    private static final int STAGE_TIMEOUT_SECONDS = 15;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void hungCallsPastTheStageTimeoutReleaseTheirPermitsAndLaterQuestionsAreAnswered() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        List<QuestionEvent> texts = SpiderQuestions.of(sharedData, "concert_singer", 40);
        List<QuestionEvent> hung = new ArrayList<>();
        for (int i = 0; i < HUNG; i++) {
            QuestionEvent t = texts.get(i % texts.size());
            hung.add(new QuestionEvent("hung-" + i, "hung-" + i, t.dbId, t.question));
        }
        List<QuestionEvent> later = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            QuestionEvent t = texts.get(i);
            later.add(new QuestionEvent("later-" + i, "later-" + i, t.dbId, t.question));
        }

        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder()
                .port(0)
                .responders(AgentResponders.all())
                .oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json")))
                .scriptedFaults(Collections.nCopies(HUNG, Fault.HANG).toArray(Fault[]::new))
                .hangMillis(600_000)
                .build())) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.STRATEGY.key(), "mmsql",
                    JobOptions.LLM_MAX_CONCURRENCY.key(), Integer.toString(HUNG),
                    JobOptions.LLM_TIMEOUT.key(), "5min",
                    JobOptions.LLM_TOTAL_BUDGET.key(), "5min"));
            TopologyConfig topology = EngineWiring.topologyConfig(config);
            // below the calls' own budget on purpose (start-up validation refuses it in a job's options): only the
            // stage timeout can end these calls
            topology.stageTimeout = Duration.ofSeconds(STAGE_TIMEOUT_SECONDS);
            try (JobCluster.RunningJob job = JobCluster.start("hung-llm-calls", config, topology)) {
                topics.sendQuestions(hung);
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (llm.requestCount() < HUNG && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                assertThat(llm.requestCount()).as("the hung calls reached the server before their stage timed out")
                        .isEqualTo(HUNG);
                List<AnswerEvent> timedOut = topics.committedAnswers(HUNG, Duration.ofSeconds(90), Duration.ZERO);
                assertThat(timedOut).as("every hung question fails by its stage timeout").hasSize(HUNG)
                        .allSatisfy(a -> {
                            assertThat(a.status).isEqualTo("failed");
                            assertThat(a.error).contains("timed out after " + STAGE_TIMEOUT_SECONDS * 1000
                                    + " ms in stage mmsql.select");   // mmsql's first model call on a first turn
                        });

                long started = System.nanoTime();
                topics.sendQuestions(later);
                List<AnswerEvent> all = topics.committedAnswers(HUNG + later.size(), Duration.ofSeconds(60), Duration.ZERO);
                List<AnswerEvent> laterAnswers = all.stream().filter(a -> a.requestId.startsWith("later-")).toList();
                assertThat(laterAnswers).as("later questions are answered: the permits were freed").hasSize(later.size())
                        .allSatisfy(a -> assertThat(a.status).isNotEqualTo("failed"));
                System.out.printf("hung LLM calls: %d timed out and released; %d later questions answered in %.1f s%n",
                        HUNG, laterAnswers.size(), (System.nanoTime() - started) / 1e9);
            }
        }
    }
}
