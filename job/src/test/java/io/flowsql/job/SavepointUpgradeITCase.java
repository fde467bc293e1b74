package io.flowsql.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.FileUtils;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Savepoint compatibility across an upgrade: the job as it is now restores the savepoint an earlier release wrote
 * (job/src/test/resources/savepoints/previous-release/, written by {@link SavepointFixtureWriter}; fixture.json says
 * when and by which Flink version) with no state left unclaimed. The savepoint was taken in the middle of a CoSQL
 * dialogue: turn 1 answered, turn 2 in its LLM calls, turn 3 held back. After the restore, on a fresh broker holding
 * the same records at the same offsets, turns 2 and 3 are answered exactly once each, in order, with turn 1's SQL
 * (known only from the restored dialogue state) in their prompts, and nothing before the stop is answered again.
 *
 * <p>The savepoint predates fields of the state classes: its {@code RequestContext} (held turn 3 in the dialogue's
 * "waiting" state, turn 2 in an async operator's queue) has neither {@code historySupplied} nor {@code journalOf}, its
 * {@code Candidate} still has {@code previewRows} (today {@code preview}), and {@code CandidateWork} has no
 * {@code batch}. {@link #theSavepointPredatesFieldsTheRequestStateGainedSince} checks this from the serializer
 * snapshots Flink stored; the restore then shows the added fields' defaults at work: turn 3 comes back with
 * {@code historySupplied = false}, so the job gives it the dialogue's history (turns 1 and 2 in its prompts).
 */
class SavepointUpgradeITCase {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension(SavepointFixture.topics());

    @RegisterExtension
    static final MiniClusterExtension FLINK = SavepointFixture.miniCluster();

    @Test
    @SuppressWarnings("unchecked")
    void theSavepointPredatesFieldsTheRequestStateGainedSince() throws Exception {
        TypeSerializerSnapshot<?> waiting = SavepointSchemas.keyedValueSnapshot(
                SavepointFixture.dir().resolve(SavepointFixture.SAVEPOINT), FlowSqlJob.DIALOGUE_UID, "waiting");
        TypeSerializerSnapshot<RequestContext> written = (TypeSerializerSnapshot<RequestContext>)
                ((CompositeTypeSerializerSnapshot<?, ?>) waiting).getNestedSerializerSnapshots()[0];
        TypeSerializer<RequestContext> today = SavepointSchemas.today(RequestContext.class);
        Set<String> added = new TreeSet<>(SavepointSchemas.classFields(RequestContext.class));
        added.removeAll(SavepointSchemas.pojoFields(written.restoreSerializer()));
        System.out.println("RequestContext fields added since the savepoint was written: " + added);

        assertThat(added).as("fields RequestContext gained after the savepoint was written")
                .contains("historySupplied", "journalOf");
        assertThat(today.snapshotConfiguration().resolveSchemaCompatibility(written).isCompatibleAfterMigration())
                .as("Flink migrates the held requests from the PojoSerializer the savepoint names to today's compact "
                        + "serializer (new fields take their defaults)").isTrue();
    }

    @Test
    void theCurrentJobResumesAPreviousReleasesSavepointInTheMiddleOfADialogue(@TempDir Path temp) throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        Path fixture = SavepointFixture.dir();
        assertThat(fixture.resolve(SavepointFixture.SAVEPOINT).resolve("_metadata")).as("the savepoint fixture").isRegularFile();
        JsonNode description = SavepointFixture.read(fixture.resolve(SavepointFixture.DESCRIPTION_FILE));
        List<CosqlDialogues.Turn> turns = new ArrayList<>();
        description.path("turns").forEach(t -> turns.add(new CosqlDialogues.Turn(t.path("text").asText(), t.path("gold_sql").asText())));
        CosqlDialogues.Dialogue dialogue = new CosqlDialogues.Dialogue(description.path("db").asText(), turns);
        List<QuestionEvent> questions = dialogue.questions(description.path("dialogue_id").asText());
        System.out.printf("restoring the savepoint written %s by Flink %s%n", description.path("written").asText(),
                description.path("flink").asText());

        Path savepoint = temp.resolve("savepoint");
        FileUtils.copy(new org.apache.flink.core.fs.Path(fixture.resolve(SavepointFixture.SAVEPOINT).toUri()),
                new org.apache.flink.core.fs.Path(savepoint.toUri()), false);
        assertThat(Files.list(savepoint)).isNotEmpty();
        int fillers = SavepointFixture.replay(KAFKA.bootstrapServers(), SavepointFixture.read(fixture.resolve(SavepointFixture.TOPICS_FILE)))
                .getOrDefault(JobTopics.ANSWERS, 0);

        GoldSqlOracle oracle = GoldSqlOracle.load(sharedData.resolve("cosql/cosql_dev.json"));
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                .responders(AgentResponders.all()).oracle(oracle).build())) {
            JobConfig config = SavepointFixture.config(KAFKA.bootstrapServers(), sharedData, llm.baseUrl());
            Configuration restore = new Configuration();
            restore.setString("execution.state-recovery.path", savepoint.toUri().toString());
            restore.setString("execution.state-recovery.ignore-unclaimed-state", "false");
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(restore);
            FlowSqlJob.configure(env, config);
            FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
            JobClient job = env.executeAsync("restore previous release");
            List<AnswerEvent> answers;
            try {
                answers = new JobTopics(KAFKA.bootstrapServers())
                        .committed(JobTopics.ANSWERS, fillers + 3, Duration.ofSeconds(120), Duration.ofSeconds(3)).stream()
                        .map(ConsumerRecord::value).filter(v -> !Arrays.equals(v, SavepointFixture.FILLER))
                        .map(EventJson::parseAnswer).toList();
            } finally {
                job.cancel().get();
            }

            assertThat(answers).extracting(a -> a.requestId)
                    .as("turn 1 as the earlier release committed it, then turns 2 and 3 once each, in order")
                    .containsExactlyElementsOf(questions.stream().map(q -> q.requestId).toList());
            assertThat(answers.get(0).sql).isEqualTo(description.path("turn1_sql").asText());
            assertThat(answers.subList(1, 3)).allSatisfy(a -> assertThat(a.status).as(a.requestId + ": " + a.error).isEqualTo("answered"));
            // turn 3 was held in state written before RequestContext had historySupplied: restored with its default
            // (false), it gets the job's dialogue history, so turns 1 and 2 are in its prompts
            CosqlDialogues.assertAnsweredInOrderWithHistory(llm.requests(), dialogue, answers, 1);
        }
    }
}
