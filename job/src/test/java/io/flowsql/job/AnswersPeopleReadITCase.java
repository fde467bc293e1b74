package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.ChartSpec;
import io.flowsql.events.EventJson;
import io.flowsql.events.EventSchemas;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionOptions;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Answers people read (real broker, MiniCluster, the simulated LLM over HTTP in oracle mode): every answer with a
 * result carries its chart spec; a summary is written exactly for the questions that ask (options.summarize) or whose
 * preset does (agents.summarize-presets), from the rows the answer holds, metered in the trace; a question that
 * declines costs no model call.
 */
class AnswersPeopleReadITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(JobTopics.specs(2));

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobCluster.miniCluster();

    @Test
    void answersCarryChartSpecsAndTheSummariesTheyAskFor() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        List<QuestionEvent> questions = List.of(
                question("by-preset", "Show all countries and the number of singers in each country.", null),
                question("asked", "How many singers do we have?", true),
                question("declined", "Show name, country, age for all singers ordered by age from the oldest to the youngest.", false),
                // no stadium of concert_singer holds 5000 to 10000: an empty result, said plainly
                question("asked-empty", "Show location and name for all stadiums with a capacity between 5000 and 10000.", true));
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .responders(AgentResponders.all()).oracle(GoldSqlOracle.load(sharedData.resolve("spider/dev.json"))).build())) {
            JobTopics topics = new JobTopics(KAFKA.bootstrapServers());
            JobConfig config = topics.jobConfig(sharedData, llm.baseUrl(), Map.of(
                    JobOptions.STRATEGY.key(), "mag-sql",
                    JobOptions.AGENT_SUMMARIZE_PRESETS.key(), "mag-sql",
                    JobOptions.CHECKPOINT_INTERVAL.key(), "500ms"));
            Map<String, AnswerEvent> answers;
            try (JobCluster.RunningJob job = JobCluster.start("answers-people-read", config)) {
                topics.sendQuestions(questions);
                answers = topics.committedAnswers(questions.size(), Duration.ofSeconds(90), Duration.ofSeconds(2))
                        .stream().collect(Collectors.toMap(a -> a.requestId, Function.identity()));
            }
            assertThat(answers).containsOnlyKeys("by-preset", "asked", "declined", "asked-empty");
            for (AnswerEvent a : answers.values()) {
                assertThat(a.status).as(a.requestId + ": " + a.error).isEqualTo("answered");
                assertThat(EventSchemas.answerViolations(EventJson.mapper().valueToTree(a))).as("answer schema").isEmpty();
                assertThat(a.chart).as(a.requestId + " has a result, so a chart spec").isNotNull();
            }

            AnswerEvent byCountry = answers.get("by-preset");
            assertThat(byCountry.chart.type).isEqualTo(ChartSpec.BAR);
            assertThat(byCountry.chart.x).isEqualToIgnoringCase("country");
            assertThat(byCountry.chart.y).containsExactly(byCountry.result.columns.get(1));
            assertThat(answers.get("asked").chart.type).as("a single count").isEqualTo(ChartSpec.NONE);
            assertThat(answers.get("declined").chart.type).as("names, countries, ages").isEqualTo(ChartSpec.BAR);
            assertThat(answers.get("asked-empty").chart.type).as("no rows").isEqualTo(ChartSpec.NONE);

            assertThat(answers.get("asked-empty").result.rowCount).isZero();
            assertThat(answers.get("asked-empty").summary).isEqualTo("Nothing matched the question.");
            for (String id : List.of("by-preset", "asked", "asked-empty")) {
                AnswerEvent a = answers.get(id);
                assertThat(a.summary).as(id + " asked (or its preset did)").isNotBlank();
                if (!a.result.rows.isEmpty()) {
                    assertThat(a.summary).as("written from the answer's rows").contains(a.result.rows.get(0).get(0));
                }
                assertThat(a.trace).filteredOn(t -> "answer.summarize".equals(t.stage)).singleElement()
                        .satisfies(t -> {
                            assertThat(t.llmCalls).isEqualTo(1);
                            assertThat(t.promptTokens).isPositive();
                        });
            }
            AnswerEvent declined = answers.get("declined");
            assertThat(declined.summary).isNull();
            assertThat(declined.trace).noneMatch(t -> "answer.summarize".equals(t.stage));

            List<String> summarizePrompts = llm.requests().stream().map(RecordedRequest::request)
                    .filter(r -> "answer.summarize".equals(r.task())).map(r -> r.lastUserMessage()).toList();
            assertThat(summarizePrompts).as("one model call per summary, none for the question that declined").hasSize(3);
            assertThat(summarizePrompts).noneMatch(p -> p.contains(declined.question));
            assertThat(summarizePrompts).anySatisfy(p -> assertThat(p)
                    .contains("Question: " + byCountry.question, "SQL: " + byCountry.sql.strip(),
                            String.join(" | ", byCountry.result.columns)));
            System.out.println("summary of '" + byCountry.question + "': " + byCountry.summary + "; chart " + byCountry.chart);
        }
    }

    private static QuestionEvent question(String id, String text, Boolean summarize) {
        QuestionEvent q = new QuestionEvent(id, "dialogue-" + id, "concert_singer", text);
        if (summarize != null) {
            q.options = new QuestionOptions();
            q.options.summarize = summarize;
        }
        return q;
    }
}
