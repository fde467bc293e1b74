package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.QuestionEvent;
import io.flowsql.job.cli.FlowSqlCli;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two runs of the job back to back on one broker, as the quickstart runs them (real broker, MiniCluster, simulated
 * LLM over HTTP): each run sends its questions, waits for their answers, waits for the job's group to commit the
 * questions to their end ({@code flowsql.sh caught-up}, what the quickstart does before it stops the job), then stops
 * the job without a savepoint (cancel, as the quickstart's kill). The second job starts without state from the
 * group's committed offsets: every question of both runs is answered exactly once on the answers topic.
 */
class RunsBackToBackITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void twoRunsAnswerEachQuestionExactlyOnce() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        List<QuestionEvent> texts = SpiderQuestions.of(sharedData, "concert_singer", 10);
        try (OracleLlm llm = OracleLlm.start(sharedData)) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(JobOptions.STRATEGY.key(), "opensearch"));
            String group = config.get(JobOptions.GROUP_ID);

            run(topics, config, group, questions(texts, 0, 5), 5);
            List<AnswerEvent> answers = run(topics, config, group, questions(texts, 5, 10), 10);

            Map<String, Long> perId = answers.stream().collect(Collectors.groupingBy(a -> a.requestId, Collectors.counting()));
            assertThat(perId).as("each question of both runs answered exactly once").hasSize(10)
                    .allSatisfy((id, n) -> assertThat(n).as(id).isOne());
        }
    }

    private static List<AnswerEvent> run(JobTopics topics, JobConfig config, String group, List<QuestionEvent> questions,
                                         int answersSoFar) throws Exception {
        try (JobCluster.RunningJob job = JobCluster.start("back-to-back", config)) {
            topics.sendQuestions(questions);
            List<AnswerEvent> answers = topics.committedAnswers(answersSoFar, Duration.ofSeconds(120), Duration.ofSeconds(3));
            assertThat(answers).hasSizeGreaterThanOrEqualTo(answersSoFar);
            StringWriter err = new StringWriter();
            int caughtUp = new CommandLine(new FlowSqlCli()).setErr(new PrintWriter(err, true)).execute("caught-up",
                    "-b", KAFKA.bootstrapServers(), "-t", JobTopics.QUESTIONS, "-g", group, "--timeout", "60s");
            assertThat(caughtUp).as(err.toString()).isZero();
            assertThat(err.toString()).contains("has committed questions to its end");
            return answers;
        }
    }

    private static List<QuestionEvent> questions(List<QuestionEvent> texts, int from, int to) {
        List<QuestionEvent> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(new QuestionEvent("q-" + i, "d-" + i, texts.get(i).dbId, texts.get(i).question));
        }
        return out;
    }
}
