package io.flowsql.flink;

import io.flowsql.events.AnswerEvent;
import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import io.flowsql.pipeline.StateKeyType;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The retained keyed state (answered request ids, dialogue histories) and its checkpoints with the heap backend: what a
 * snapshot of n retained questions weighs and what CPU it takes (printed, thread CPU time, no timing assert), and that
 * the state TTL's background cleanup (incremental, a few entries per state access) removes expired request ids under
 * traffic, so the kept state stays bounded by the traffic of one TTL rather than growing with everything answered.
 */
class RetainedStateSnapshotTest {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long HOUR = Duration.ofHours(1).toMillis();

    private static void answerRequestIds(
            KeyedTwoInputStreamOperatorTestHarness<String, RequestContext, AnswerEvent, RequestContext> h, String prefix, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            String id = prefix + "-" + i;
            h.processElement1(StateFixtures.request(id, prefix + "-d" + i, "How many singers?"), 0);
            h.processElement2(StateFixtures.answer(id, prefix + "-d" + i, "answered"), 0);
        }
    }

    /** Bytes and the least thread CPU time (µs) of 5 snapshots, taken in this thread (the harness runs the async part here). */
    private static long[] snapshotCost(AbstractStreamOperatorTestHarness<?> h) throws Exception {
        long bytes = 0;
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long start = THREADS.getCurrentThreadCpuTime();
            bytes = h.snapshot(round + 1, round + 1).getStateSize();
            best = Math.min(best, THREADS.getCurrentThreadCpuTime() - start);
        }
        return new long[] {bytes, best / 1000};
    }

    @Test
    void aSnapshotOfTheRetainedStateGrowsWithTheQuestionsKeptAndItsCostIsPrinted() throws Exception {
        long[] previous = null;
        for (int kept : new int[] {0, 1_000, 10_000}) {
            long[] ids;
            try (var h = StateFixtures.requestIdHarness()) {
                h.open();
                answerRequestIds(h, "opensearch-s64-sustained", kept);
                snapshotCost(h); // warm-up
                ids = snapshotCost(h);
            }
            long[] dialogues;
            try (var h = StateFixtures.dialogueHarness()) {
                h.open();
                for (int i = 0; i < kept; i++) {
                    String id = "opensearch-s64-sustained-" + i;
                    h.processElement1(StateFixtures.request(id, "d" + i, "How many singers?"), 0);
                    h.processElement2(new FeedbackTurn("d" + i, new DialogueTurn(id, "How many singers?", "answerable",
                            "SELECT count(*) FROM singer", "answered, 1 row: 6")), 0);
                }
                snapshotCost(h);
                dialogues = snapshotCost(h);
            }
            System.out.printf(Locale.ROOT, "retained questions %,d: request-id check snapshot %,d bytes, %,d µs CPU; "
                            + "dialogue operator snapshot %,d bytes, %,d µs CPU (least of 5, heap backend, the harness's one key group)%n",
                    kept, ids[0], ids[1], dialogues[0], dialogues[1]);
            if (previous != null) {
                assertThat(ids[0]).isGreaterThan(previous[0]);
                assertThat(dialogues[0]).isGreaterThan(previous[1]);
            }
            previous = new long[] {ids[0], dialogues[0]};
        }
    }

    @Test
    void expiredRequestIdsGoAwayUnderTrafficSoTheKeptStateIsBoundedByOneTtlOfTraffic() throws Exception {
        int perHour = 2_000;
        try (var h = StateFixtures.requestIdHarness()) { // request ids kept 1 h
            h.open();
            h.setStateTtlProcessingTime(0);
            answerRequestIds(h, "first-hour", perHour);
            int entriesAfterOneHour = h.numKeyedStateEntries();
            long bytesAfterOneHour = h.snapshot(1, 1).getStateSize();
            for (int hour = 2; hour <= 4; hour++) { // three more hours of the same traffic, each after the last expired
                h.setStateTtlProcessingTime(hour * HOUR);
                answerRequestIds(h, "hour-" + hour, perHour);
            }
            int entriesAfterFourHours = h.numKeyedStateEntries();
            long bytesAfterFourHours = h.snapshot(2, 2).getStateSize();
            System.out.printf(Locale.ROOT, "request-id check, %,d ids an hour kept 1 h: after 1 h %,d entries, %,d bytes; "
                    + "after 4 h %,d entries, %,d bytes%n", perHour, entriesAfterOneHour, bytesAfterOneHour,
                    entriesAfterFourHours, bytesAfterFourHours);
            // without cleanup it would hold four hours (4x); with it, about the last hour's ids (cleanup runs ahead)
            assertThat(entriesAfterFourHours).isGreaterThanOrEqualTo(perHour).isLessThan(entriesAfterOneHour * 3 / 2);
            assertThat(bytesAfterFourHours).isLessThan(bytesAfterOneHour * 3 / 2);
        }
    }

    /** Bytes and least CPU µs of a request-id check's snapshot with its keys written by the given type's serializer. */
    private static long[] requestIdSnapshot(TypeInformation<String> keyType, int kept) throws Exception {
        try (var h = new KeyedTwoInputStreamOperatorTestHarness<>(
                new KeyedCoProcessOperator<>(new RequestIdFunction(Duration.ofHours(1), StateFixtures.MAX_WAITING_REPEATS)),
                new DialogueKeys.OfQuestion(), new DialogueKeys.OfAnswer(), keyType)) {
            h.open();
            answerRequestIds(h, "opensearch-s64-sustained", kept);
            snapshotCost(h);
            return snapshotCost(h);
        }
    }

    @Test
    void stateKeysWrittenInOneCallGiveTheSameSnapshotAndItsCpuIsPrintedAgainstFlinksStringSerializer() throws Exception {
        int kept = 10_000;
        long flink = Long.MAX_VALUE;
        long ours = Long.MAX_VALUE;
        long[] flinkBytes = {0};
        long[] oursBytes = {0};
        for (int round = 0; round < 4; round++) { // interleaved, so that load and JIT fall on both alike
            long[] a = requestIdSnapshot(Types.STRING, kept);
            long[] b = requestIdSnapshot(StateKeyType.STRING, kept);
            flink = Math.min(flink, a[1]);
            ours = Math.min(ours, b[1]);
            flinkBytes[0] = a[0];
            oursBytes[0] = b[0];
        }
        System.out.printf(Locale.ROOT, "request-id check snapshot of %,d kept ids, keys by Flink's StringSerializer %,d µs "
                + "CPU, by StringStateSerializer %,d µs CPU (least of 4 rounds of 5)%n", kept, flink, ours);
        // the same key bytes: the snapshots differ only by the serializer's name in the metadata
        assertThat(Math.abs(flinkBytes[0] - oursBytes[0])).isLessThan(200);
    }
}
