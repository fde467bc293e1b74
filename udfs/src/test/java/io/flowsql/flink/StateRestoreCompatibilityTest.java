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
 * the gather gained {@code expired} and the dialogue operator its checkpointed gauges; v2 and v3 are the state
 * classes of issue 10 as first committed (c543525) and as merged into main (40bc5a1), before {@code RequestContext}
 * gained {@code journalOf}, {@code historySupplied} and {@code failure} and {@code StageTrace} its journal counts,
 * {@code outcome}, {@code failure} and {@code modelError}; v5 is state format 2 (the compact request context, the
 * dialogue history still the PojoSerializer's, written at 8bbd77f), whose history format 3 migrates to
 * {@code DialogueTurnSerializer}. The request-id check's fixture exists from v3 on (its
 * state took today's form, request ids in map state under the dialogue key, after c543525).
 */
class StateRestoreCompatibilityTest {

    private static OperatorSubtaskState fixture(String version, String name) throws Exception {
        URL url = StateRestoreCompatibilityTest.class.getResource("/" + StateFixtures.RESOURCE_DIR + "/" + version + "/" + name);
        assertThat(url).as("fixture %s/%s", version, name).isNotNull();
        return OperatorSnapshotUtil.readStateHandle(Path.of(url.toURI()).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1", "v2", "v3", "v5"})
    void dialogueRestoresHistoryInFlightAndWaitingTurns(String version) throws Exception {
        try (var h = StateFixtures.dialogueHarness()) {
            h.initializeState(fixture(version, "dialogue-context.snapshot"));
            h.open();
            // r3 comes after the restore: it waits behind r2 (the queue restored from the list layout moves into the map)
            h.processElement1(StateFixtures.request("r3", "d1", "The oldest?"), 0);
            // r1 was in flight, r2 waiting: r1's answer releases r2 with both earlier turns in its history
            StateFixtures.releaseTheFixturesDialogue(h);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1", "v2", "v3", "v5"})
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

    /**
     * The fixture was written by {@link StateFixtures#writeFixtures} run with the classes of commit 40bc5a1 (that
     * commit's tree, with this StateFixtures in its job module): in dialogue d1, r1 in flight with a repeat (from
     * questions/0@7) waiting for its answer, r2 answered. Restored into today's classes, the waiting repeat (a
     * {@code RequestContext} of that version) comes back and both ids keep their status.
     */
    @ParameterizedTest
    @ValueSource(strings = {"v3", "v5"})
    void requestIdsRestoreAnsweredAndInFlightIdsWithTheRepeatWaiting(String version) throws Exception {
        try (var h = StateFixtures.requestIdHarness()) {
            h.initializeState(fixture(version, "request-ids.snapshot"));
            h.open();
            StateFixtures.settleTheFixturesRequestIds(h);
        }
    }
}
