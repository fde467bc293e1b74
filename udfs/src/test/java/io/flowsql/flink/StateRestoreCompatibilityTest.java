package io.flowsql.flink;

import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URL;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The keyed operators restore from snapshots written by earlier versions of the state classes (kept under
 * src/test/resources/state/&lt;version&gt;, written by {@link StateFixtures}) and carry on: v1 is the state before
 * {@code Candidate.previewRows} (Kryo) became {@code Candidate.preview}, {@code CandidateWork} gained {@code batch},
 * the gather gained {@code expired} and the dialogue operator its checkpointed gauges.
 */
class StateRestoreCompatibilityTest {

    private static OperatorSubtaskState fixture(String version, String name) throws Exception {
        URL url = StateRestoreCompatibilityTest.class.getResource("/" + StateFixtures.RESOURCE_DIR + "/" + version + "/" + name);
        assertThat(url).as("fixture %s/%s", version, name).isNotNull();
        return OperatorSnapshotUtil.readStateHandle(Path.of(url.toURI()).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1", "v2"})
    void dialogueRestoresHistoryInFlightAndWaitingTurns(String version) throws Exception {
        try (var h = StateFixtures.dialogueHarness()) {
            h.initializeState(fixture(version, "dialogue-context.snapshot"));
            h.open();
            // r1 was in flight, r2 waiting: r1's answer releases r2 with both earlier turns in its history
            h.processElement2(new FeedbackTurn("d1", new DialogueTurn("r1", "And their names?", "answerable",
                    "SELECT name FROM singer", "answered, 6 rows")), 0);
            List<RequestContext> out = h.extractOutputValues();
            assertThat(out).extracting(c -> c.requestId).containsExactly("r2");
            RequestContext r2 = out.get(0);
            assertThat(r2.history).extracting(t -> t.sql)
                    .containsExactly("SELECT count(*) FROM singer", "SELECT name FROM singer");
            assertThat(r2.candidates).extracting(c -> c.sql)
                    .containsExactly("SELECT count(*) FROM singer", "SELECT count(name) FROM singer");
            assertThat(r2.notes).containsEntry("k", "v");
            assertThat(r2.trace).extracting(t -> t.llmCalls).containsExactly(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1", "v2"})
    void gatherRestoresAPartlyGatheredRequest(String version) throws Exception {
        try (var h = StateFixtures.gatherHarness()) {
            h.initializeState(fixture(version, "candidate-gather.snapshot"));
            h.open();
            RequestContext ctx = StateFixtures.request("q1", "q1", "How many singers?");
            CandidateWork second = CandidateWork.ofCandidate(ctx, 1, StateFixtures.batchOf(version));
            second.candidate = new Candidate(second.candidate.source, second.candidate.sql);
            second.candidate.executed = true;
            second.candidate.resultFingerprint = "f1";
            h.processElement(second, 0);
            List<RequestContext> out = h.extractOutputValues();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).candidates).extracting(c -> c.resultFingerprint).containsExactly("f0", "f1");
        }
    }
}
