package io.flowsql.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.events.DeadLetterEvent;
import io.flowsql.flink.DialogueContextFunction;
import io.flowsql.flink.DialogueKeys;
import io.flowsql.flink.FeedbackTurn;
import io.flowsql.flink.HistoryLimits;
import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.RequestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.state.rocksdb.RocksDBOptionsFactory;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * A burst of 10,000 turns on one dialogue, on the RocksDB state backend (every state write serialized, as in
 * production): each turn gets exactly one release or one dead letter, released turns keep their order, and the bytes
 * RocksDB is asked to write grow with the burst, not with its square (the queue is a map of turns, not one list
 * rewritten on every append). Beyond {@code dialogue.max-waiting} a turn is dead-lettered as
 * {@code dialogue_queue_full}.
 */
class DialogueBurstTest {
    private static final AtomicReference<Statistics> STATISTICS = new AtomicReference<>();

    @Test
    void aBurstOfTenThousandTurnsIsBoundedEachTurnHasOneOutcomeAndTheOrderIsKept() throws Exception {
        Burst bounded = burst(10_000, DialogueContextFunction.DEFAULT_MAX_WAITING);
        assertThat(bounded.released).hasSize(1 + DialogueContextFunction.DEFAULT_MAX_WAITING);
        assertThat(bounded.released).as("released in the order they came").isSorted();
        assertThat(bounded.deadLetters).hasSize(10_000 - 1 - DialogueContextFunction.DEFAULT_MAX_WAITING);
        assertThat(bounded.deadLetters.get(0).reason).startsWith("dialogue_queue_full: dialogue d1 already has 100 turns "
                + "waiting").contains("dialogue.max-waiting 100").contains("request r00102 is not answered");
        assertThat(bounded.deadLetters.get(0).raw).contains("\"request_id\":\"r00102\"");
        List<String> all = new ArrayList<>(bounded.released);
        bounded.deadLetters.forEach(d -> all.add(d.raw.replaceAll(".*\"request_id\":\"(r\\d+)\".*", "$1")));
        assertThat(all).as("one outcome per turn").doesNotHaveDuplicates().hasSize(10_000);
    }

    @Test
    void theBytesWrittenGrowLinearlyWithTheBurst() throws Exception {
        Burst small = burst(1_000, 10_000);
        Burst large = burst(10_000, 10_000);
        assertThat(large.released).hasSize(10_000).isSorted();
        assertThat(large.deadLetters).isEmpty();
        double ratio = (double) large.bytesWritten / small.bytesWritten;
        System.out.printf("dialogue burst on one dialogue (RocksDB): 1,000 turns wrote %,d bytes (%,d per turn), 10,000 "
                        + "turns wrote %,d bytes (%,d per turn): x%.1f for 10x the turns (a list rewritten per append: "
                        + "about x100); %d ms for 10,000%n", small.bytesWritten, small.bytesWritten / 1_000,
                large.bytesWritten, large.bytesWritten / 10_000, ratio, large.millis);
        assertThat(ratio).as("linear (10), not quadratic (100)").isLessThan(15.0);
    }

    /** n turns sent at once to dialogue d1, then each released turn answered in turn; what came out. */
    private static Burst burst(int n, int maxWaiting) throws Exception {
        long started = System.nanoTime();
        try (var h = new KeyedTwoInputStreamOperatorTestHarness<>(
                new KeyedCoProcessOperator<>(new DialogueContextFunction(Duration.ofHours(1), 600_000,
                        HistoryLimits.defaults(), maxWaiting)),
                new DialogueKeys.OfQuestion(), new DialogueKeys.OfFeedback(), Types.STRING)) {
            EmbeddedRocksDBStateBackend rocks = new EmbeddedRocksDBStateBackend();
            rocks.setRocksDBOptions(new CountingOptions());
            h.setStateBackend(rocks);
            h.open();
            for (int i = 1; i <= n; i++) {
                h.processElement1(question(String.format("r%05d", i), i), 0);
            }
            List<String> released = new ArrayList<>();
            Object out;
            while ((out = h.getOutput().poll()) != null) {
                @SuppressWarnings("unchecked")
                RequestContext turn = ((StreamRecord<RequestContext>) out).getValue();
                released.add(turn.requestId);
                h.processElement2(new FeedbackTurn("d1", new DialogueTurn(turn.requestId, turn.question, "answerable",
                        "SELECT 1", "answered, 1 row")), 0);
            }
            List<DeadLetterEvent> dead = h.getSideOutput(DialogueContextFunction.QUEUE_FULL) == null ? List.of()
                    : h.getSideOutput(DialogueContextFunction.QUEUE_FULL).stream().map(StreamRecord::getValue).toList();
            long bytes = STATISTICS.get().getTickerCount(TickerType.BYTES_WRITTEN);
            return new Burst(released, dead, bytes, (System.nanoTime() - started) / 1_000_000);
        }
    }

    /** A question as the request-id check hands it on (origin and a question of realistic size). */
    private static RequestContext question(String requestId, int offset) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = requestId;
        ctx.dialogueId = "d1";
        ctx.dbId = "concert_singer";
        ctx.question = "How many singers are older than " + offset + " years, by country?";
        ctx.strategy = "full";
        ctx.origin = "questions/0@" + offset;
        ctx.receivedAtMillis = 1_700_000_000_000L + offset;
        return ctx;
    }

    private record Burst(List<String> released, List<DeadLetterEvent> deadLetters, long bytesWritten, long millis) {}

    /** Turns RocksDB's statistics on, so the test can read how many bytes the state backend wrote. */
    static final class CountingOptions implements RocksDBOptionsFactory {
        @Override
        public DBOptions createDBOptions(DBOptions current, Collection<AutoCloseable> handlesToClose) {
            Statistics statistics = new Statistics();
            handlesToClose.add(statistics);
            STATISTICS.set(statistics);
            return current.setStatistics(statistics);
        }

        @Override
        public ColumnFamilyOptions createColumnOptions(ColumnFamilyOptions current, Collection<AutoCloseable> handlesToClose) {
            return current;
        }
    }
}
