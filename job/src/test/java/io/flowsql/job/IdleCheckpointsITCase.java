package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.QuestionEvent;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Idle pacing on a real broker and MiniCluster: while questions flow, checkpoints come at job.checkpoint-interval;
 * once the job's topics stay still for job.idle-after they stop coming (the idle interval here is 45 s), and a new
 * question is still answered within seconds, because its first write brings the short interval back at once.
 */
class IdleCheckpointsITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void checkpointsSlowDownWhileIdleAndAQuestionBringsTheShortIntervalBack() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.STRATEGY.key(), "opensearch",
                    JobOptions.IDLE_AFTER.key(), "3s",
                    JobOptions.CHECKPOINT_INTERVAL_IDLE.key(), "45s"));
            try (JobCluster.RunningJob job = JobCluster.start("idle-checkpoints", config)) {
                List<QuestionEvent> first = SpiderQuestions.of(sharedData, "concert_singer", 2);
                topics.sendQuestions(first);
                assertThat(topics.committedAnswers(first.size(), Duration.ofSeconds(90), Duration.ofSeconds(1)))
                        .hasSize(first.size());

                // still for idle-after (3 s) plus the signal's reading (1 s) and a checkpoint in flight
                Thread.sleep(8_000);
                long idleFrom = completed(job);
                Thread.sleep(10_000);
                long idleCheckpoints = completed(job) - idleFrom;
                assertThat(idleCheckpoints).as("checkpoints in 10 idle seconds (1 s interval when busy, 45 s idle)")
                        .isLessThanOrEqualTo(1);
                assertThat(outputFlushers()).as("threads that wake every buffer timeout whether or not a record waits "
                        + "(job.buffer-timeout=0 flushes each record as it is written)").isEmpty();

                QuestionEvent later = new QuestionEvent("after-idle", "after-idle", "concert_singer", first.get(0).question);
                long sent = System.nanoTime();
                topics.sendQuestions(List.of(later));
                long deadline = sent + Duration.ofSeconds(30).toNanos();
                List<AnswerEvent> answers = List.of();
                while (System.nanoTime() < deadline && answers.stream().noneMatch(a -> "after-idle".equals(a.requestId))) {
                    answers = topics.committedAnswers(0, Duration.ofSeconds(1), Duration.ofMillis(500));
                }
                assertThat(answers).as("the question sent while idle is answered well before the 45 s idle interval")
                        .anyMatch(a -> "after-idle".equals(a.requestId));
            }
        }
    }

    private static List<String> outputFlushers() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> name.startsWith("OutputFlusher")).toList();
    }

    private static long completed(JobCluster.RunningJob job) throws Exception {
        return JobCluster.completedCheckpoints(FLINK, job.id());
    }
}
