package io.flowsql.job;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.FileUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes the savepoint fixture {@link SavepointUpgradeITCase} restores, from the job as it is now: it runs only when
 * asked to ({@code -Dflowsql.savepoint.refresh=true}; the command is in docs/OPERATIONS.md), and replaces
 * job/src/test/resources/savepoints/previous-release/. The job answers the first turn of a three-turn CoSQL dialogue,
 * gets the other two, and is stopped with a savepoint (canonical format, drain=false) while the second turn is in its
 * LLM calls (the simulator takes 2 s a call) and the third is held back by the dialogue operator: the savepoint has
 * dialogue history, a held turn, in-flight async requests, Kafka offsets and sink transactions in it.
 *
 * <p>Refresh it only from the previous release (check that release out, run this there, copy the folder over): the
 * fixture must be written by state classes older than today's. The one in the repository was written at the commit
 * named in its fixture.json time (2026-11-23 16:15 UTC, before {@code RequestContext} gained {@code historySupplied}
 * and {@code journalOf}); written by today's classes it would test no added field, and
 * {@code SavepointUpgradeITCase.theSavepointPredatesFieldsTheRequestStateGainedSince} fails to say so.
 */
@EnabledIfSystemProperty(named = "flowsql.savepoint.refresh", matches = "true")
class SavepointFixtureWriter {
    @RegisterExtension
    static final MiniClusterExtension FLINK = SavepointFixture.miniCluster();
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(SavepointFixture.topics());
    @TempDir
    static Path temp;

    @Test
    void writeTheFixture() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        GoldSqlOracle oracle = GoldSqlOracle.load(sharedData.resolve("cosql/cosql_dev.json"));
        CosqlDialogues.Dialogue dialogue = CosqlDialogues.answerable(sharedData, oracle, 3, 3, 1).get(0);
        String dialogueId = "fixture-" + dialogue.db();
        List<QuestionEvent> turns = dialogue.questions(dialogueId);
        JobTopics topics = new JobTopics(KAFKA.bootstrapServers());

        String savepoint;
        AnswerEvent first;
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .latency(LatencyModel.fixed(2_000)).responders(AgentResponders.all()).oracle(oracle).build())) {
            JobConfig config = SavepointFixture.config(KAFKA.bootstrapServers(), sharedData, llm.baseUrl());
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            FlowSqlJob.configure(env, config);
            FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
            JobClient job = env.executeAsync("savepoint fixture");
            try {
                topics.sendQuestions(turns.subList(0, 1));
                List<AnswerEvent> answers = topics.committedAnswers(1, Duration.ofSeconds(180), Duration.ofSeconds(3));
                assertThat(answers).extracting(a -> a.status).containsExactly("answered");
                first = answers.get(0);
                topics.sendQuestions(turns.subList(1, 3));
                Thread.sleep(3_000);   // turn 2 is in its first LLM calls, turn 3 waits for turn 2's answer
                savepoint = job.stopWithSavepoint(false, temp.resolve("savepoints").toUri().toString(),
                        SavepointFormatType.CANONICAL).get();
            } catch (Exception e) {
                job.cancel().get();
                throw e;
            }
        }
        ObjectNode dump = SavepointFixture.dump(KAFKA.bootstrapServers(), List.of(JobTopics.QUESTIONS, JobTopics.ANSWERS));
        assertThat(answerCount(dump)).as("only turn 1 answered at the stop (else rerun: the stop came too late)").isEqualTo(1);

        Path dir = SavepointFixture.dir();
        if (Files.exists(dir)) {
            FileUtils.deleteDirectory(dir.toFile());
        }
        Files.createDirectories(dir);
        copy(Path.of(java.net.URI.create(savepoint)), dir.resolve(SavepointFixture.SAVEPOINT));
        SavepointFixture.write(dir.resolve(SavepointFixture.TOPICS_FILE), dump);
        ObjectNode description = EventJson.mapper().createObjectNode()
                .put("written", Instant.now().toString())
                .put("flink", org.apache.flink.runtime.util.EnvironmentInformation.getVersion())
                .put("dialogue_id", dialogueId).put("db", dialogue.db())
                .put("turn1_sql", first.sql);
        ArrayNode texts = description.putArray("turns");
        dialogue.turns().forEach(t -> texts.addObject().put("text", t.text()).put("gold_sql", t.goldSql()));
        SavepointFixture.write(dir.resolve(SavepointFixture.DESCRIPTION_FILE), description);
        System.out.println("savepoint fixture written to " + dir + " from " + savepoint);
    }

    private static int answerCount(ObjectNode dump) {
        int[] count = {0};
        dump.path(JobTopics.ANSWERS).forEach(partition -> count[0] += partition.path("records").size());
        return count[0];
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }
}
