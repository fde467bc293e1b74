package io.flowsql.flink;

import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * State written by the RocksDB backend under the release before the compact context serializer (fixture
 * {@code v4-rocksdb}: {@code RequestContext} written by Flink's PojoSerializer into the dialogue's waiting queue and the
 * request-id check's waiting repeats) restores into today's classes on RocksDB, whose state migration (unlike the heap
 * backend's, which re-reads everything at restore) rewrites each entry with the new serializer; then it is snapshotted
 * by RocksDB and restored again, so the migrated entries are read back in the new format.
 * {@link StateRestoreCompatibilityTest} covers the heap backend. The fixture was written by
 * {@link StateFixtures#writeFixtures} in the tree of commit edcac3f^ (the last with the PojoSerializer), each harness
 * given {@code setStateBackend(new EmbeddedRocksDBStateBackend())}; a heap-written fixture cannot be used: a heap
 * checkpoint is not a format RocksDB restores (EOFException).
 */
class StateRestoreUnderRocksDbTest {

    private static OperatorSubtaskState fixture(String name) throws Exception {
        URL url = StateRestoreUnderRocksDbTest.class.getResource("/" + StateFixtures.RESOURCE_DIR + "/v4-rocksdb/" + name);
        assertThat(url).as("fixture v4-rocksdb/%s", name).isNotNull();
        return OperatorSnapshotUtil.readStateHandle(Path.of(url.toURI()).toString());
    }

    private static <H extends AbstractStreamOperatorTestHarness<RequestContext>> H onRocksDb(H harness) {
        harness.setStateBackend(new EmbeddedRocksDBStateBackend());
        return harness;
    }

    @Test
    void dialogueStateOfThePojoReleaseMigratesAndRestoresAgain() throws Exception {
        OperatorSubtaskState migrated;
        try (var h = onRocksDb(StateFixtures.dialogueHarness())) {
            h.initializeState(fixture("dialogue-context.snapshot"));
            h.open();
            h.processElement1(StateFixtures.request("r3", "d1", "The oldest?"), 0);
            migrated = h.snapshot(1, 1);
        }
        try (var h = onRocksDb(StateFixtures.dialogueHarness())) {
            h.initializeState(migrated);
            h.open();
            // r1 was in flight in the fixture, r2 waited (a PojoSerializer context), r3 queued behind it on RocksDB
            StateFixtures.releaseTheFixturesDialogue(h);
        }
    }

    @Test
    void requestIdStateOfThePojoReleaseMigratesAndRestoresAgain() throws Exception {
        OperatorSubtaskState migrated;
        try (var h = onRocksDb(StateFixtures.requestIdHarness())) {
            h.initializeState(fixture("request-ids.snapshot"));
            h.open();
            migrated = h.snapshot(1, 1);
        }
        try (var h = onRocksDb(StateFixtures.requestIdHarness())) {
            h.initializeState(migrated);
            h.open();
            StateFixtures.settleTheFixturesRequestIds(h);
        }
    }
}
