package io.flowsql.flink;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

import java.util.HashMap;
import java.util.Map;

/**
 * A count of keyed things (turns in flight, turns waiting) that stays true across restores and rescaling: kept per
 * key group and checkpointed as union operator state, so a restored subtask sums exactly the key groups it now owns
 * instead of starting from zero (which made the gauges go negative when restored turns finished).
 */
final class KeyGroupCounts {
    private final String name;
    private final Map<Integer, Long> byKeyGroup = new HashMap<>();
    private transient ListState<Tuple2<Integer, Long>> checkpointed;
    private int maxParallelism;
    private long total;

    KeyGroupCounts(String name) {
        this.name = name;
    }

    /** Called from {@code CheckpointedFunction.initializeState}: restores this subtask's key groups. */
    void initialize(FunctionInitializationContext context, int maxParallelism, int parallelism, int subtask)
            throws Exception {
        this.maxParallelism = maxParallelism;
        checkpointed = context.getOperatorStateStore().getUnionListState(
                new ListStateDescriptor<>(name, Types.TUPLE(Types.INT, Types.LONG)));
        byKeyGroup.clear();
        total = 0;
        if (!context.isRestored()) {
            return;
        }
        KeyGroupRange mine = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(maxParallelism, parallelism, subtask);
        for (Tuple2<Integer, Long> entry : checkpointed.get()) {
            if (mine.contains(entry.f0) && entry.f1 != 0) {
                byKeyGroup.merge(entry.f0, entry.f1, Long::sum);
                total += entry.f1;
            }
        }
    }

    /** Called from {@code CheckpointedFunction.snapshotState}. */
    void snapshot() throws Exception {
        checkpointed.clear();
        for (Map.Entry<Integer, Long> e : byKeyGroup.entrySet()) {
            checkpointed.add(Tuple2.of(e.getKey(), e.getValue()));
        }
    }

    /**
     * Counts {@code delta} for the key's group. A count never goes below zero: state restored from before these counts
     * were checkpointed (state version v1) starts at zero, and its turns ending are not subtracted from others'.
     */
    void add(Object key, long delta) {
        int group = KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism);
        long before = byKeyGroup.getOrDefault(group, 0L);
        long now = Math.max(0, before + delta);
        if (now == 0) {
            byKeyGroup.remove(group);
        } else {
            byKeyGroup.put(group, now);
        }
        total += now - before;
    }

    long total() {
        return total;
    }
}
