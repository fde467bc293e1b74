package io.flowsql.flink;

import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.DialogueTurnSerializer;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.RejectKind;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps each dialogue's history and lets at most one of its turns through at a time (keyed by dialogue
 * id). A follow-up waits here until the previous turn's answer comes back on the feedback input (the
 * answers topic read again), so its prompts see that answer; a timer releases it anyway if the answer
 * never comes back. Feedback is deduplicated by request id. All of it is keyed state, so it survives a
 * restart from a checkpoint.
 *
 * <p>State is bounded: the history keeps the newest {@link HistoryLimits#maxTurns()} turns within
 * {@link HistoryLimits#maxBytes()} (that is also all a request carries: the prompt window, not the whole dialogue),
 * expires {@code historyTtl} after its last change, and the gauges are counted per key group so they stay true
 * across restores. The turns waiting behind the one in flight are a queue in map state (one entry per turn, keyed
 * by its sequence number, with head and tail counters), so an append writes one turn, not the whole queue; at most
 * {@code maxWaiting} wait per dialogue, and a turn beyond that becomes a dead letter {@code dialogue_queue_full}
 * ({@link #QUEUE_FULL}). A queue restored from before the map (a list in one value, "waiting") is moved into the
 * map on its dialogue's first use. The history is written by {@link DialogueTurnSerializer} (a history the
 * PojoSerializer wrote, state format 2 and before, is migrated on restore).
 */
public class DialogueContextFunction extends KeyedCoProcessFunction<String, RequestContext, FeedbackTurn, RequestContext>
        implements CheckpointedFunction {
    /** Turns refused because their dialogue already has {@code maxWaiting} turns waiting. */
    public static final OutputTag<DeadLetterEvent> QUEUE_FULL = new OutputTag<>("dialogue-queue-full") {};
    /** Turns that may wait per dialogue by default (dialogue.max-waiting). */
    public static final int DEFAULT_MAX_WAITING = 100;
    private final Duration historyTtl;
    private final long feedbackTimeoutMillis;
    private final HistoryLimits limits;
    private final int maxWaiting;

    private transient ListState<DialogueTurn> history;
    /** The queue as versions before the map kept it (a list rewritten on every append): read once, then cleared. */
    private transient ValueState<List<RequestContext>> legacyWaiting;
    private transient MapState<Long, RequestContext> queue;
    /** {head, tail}: the sequence numbers of the first waiting turn and of the next to come. */
    private transient ValueState<long[]> queueEnds;
    private transient ValueState<String> inFlight;
    private transient ValueState<Long> releaseTimer;
    private transient KeyGroupCounts inFlightCount;
    private transient KeyGroupCounts waitingCount;
    private transient Counter feedbackTimeouts;
    private transient Counter duplicateFeedback;

    public DialogueContextFunction(Duration historyTtl, long feedbackTimeoutMillis) {
        this(historyTtl, feedbackTimeoutMillis, HistoryLimits.defaults());
    }

    public DialogueContextFunction(Duration historyTtl, long feedbackTimeoutMillis, HistoryLimits limits) {
        this(historyTtl, feedbackTimeoutMillis, limits, DEFAULT_MAX_WAITING);
    }

    public DialogueContextFunction(Duration historyTtl, long feedbackTimeoutMillis, HistoryLimits limits, int maxWaiting) {
        if (maxWaiting < 0) {
            throw new IllegalArgumentException("dialogue.max-waiting must be >= 0");
        }
        this.historyTtl = historyTtl;
        this.feedbackTimeoutMillis = feedbackTimeoutMillis;
        this.limits = limits;
        this.maxWaiting = maxWaiting;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        var task = getRuntimeContext().getTaskInfo();
        inFlightCount = new KeyGroupCounts("questions-in-flight");
        waitingCount = new KeyGroupCounts("questions-waiting");
        inFlightCount.initialize(context, task.getMaxNumberOfParallelSubtasks(), task.getNumberOfParallelSubtasks(),
                task.getIndexOfThisSubtask());
        waitingCount.initialize(context, task.getMaxNumberOfParallelSubtasks(), task.getNumberOfParallelSubtasks(),
                task.getIndexOfThisSubtask());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        inFlightCount.snapshot();
        waitingCount.snapshot();
    }

    @Override
    public void open(OpenContext openContext) {
        ListStateDescriptor<DialogueTurn> historyDescriptor =
                new ListStateDescriptor<>("history", DialogueTurnSerializer.INSTANCE);
        historyDescriptor.enableTimeToLive(StateTtlConfig.newBuilder(historyTtl).updateTtlOnCreateAndWrite()
                .neverReturnExpired().build());
        history = getRuntimeContext().getListState(historyDescriptor);
        legacyWaiting = getRuntimeContext().getState(new ValueStateDescriptor<>("waiting",
                Types.LIST(TypeInformation.of(RequestContext.class))));
        queue = getRuntimeContext().getMapState(new MapStateDescriptor<>("waiting-queue", Types.LONG,
                TypeInformation.of(RequestContext.class)));
        queueEnds = getRuntimeContext().getState(new ValueStateDescriptor<>("waiting-ends",
                PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO));
        inFlight = getRuntimeContext().getState(new ValueStateDescriptor<>("in-flight", Types.STRING));
        releaseTimer = getRuntimeContext().getState(new ValueStateDescriptor<>("release-timer", Types.LONG));

        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("flowsql").addGroup("dialogue");
        group.gauge("questionsInFlight", inFlightCount::total);
        group.gauge("questionsWaiting", waitingCount::total);
        feedbackTimeouts = group.counter("feedbackTimeouts");
        duplicateFeedback = group.counter("duplicateFeedback");
    }

    /** The gauges' values: turns in flight, turns waiting (for tests). */
    long[] gauges() {
        return new long[] {inFlightCount.total(), waitingCount.total()};
    }

    @Override
    public void processElement1(RequestContext question, Context ctx, Collector<RequestContext> out) throws Exception {
        if (inFlight.value() == null) {
            release(question, ctx, out);
            return;
        }
        long[] ends = queueEnds(ctx);
        if (ends[1] - ends[0] >= maxWaiting) {
            ctx.output(QUEUE_FULL, QuestionDeadLetter.of(question, RejectKind.DIALOGUE_QUEUE_FULL.wireName() + ": dialogue "
                    + question.dialogueId + " already has " + (ends[1] - ends[0]) + " turns waiting behind the one being "
                    + "answered (dialogue.max-waiting " + maxWaiting + "); request " + question.requestId
                    + " is not answered: send it again once the earlier turns are answered",
                    ctx.timerService().currentProcessingTime()));
            return;
        }
        queue.put(ends[1], question);
        queueEnds.update(new long[] {ends[0], ends[1] + 1});
        waitingCount.add(ctx.getCurrentKey(), 1);
    }

    /** The queue's {head, tail}, after moving a queue restored from the list layout into the map. */
    private long[] queueEnds(Context ctx) throws Exception {
        long[] ends = queueEnds.value();
        if (ends == null) {
            ends = new long[] {0, 0};
        }
        List<RequestContext> legacy = legacyWaiting.value();
        if (legacy != null) {
            for (RequestContext waitingTurn : legacy) {
                queue.put(ends[1]++, waitingTurn);
            }
            legacyWaiting.clear();
            queueEnds.update(ends);
        }
        return ends;
    }

    @Override
    public void processElement2(FeedbackTurn feedback, Context ctx, Collector<RequestContext> out) throws Exception {
        DialogueTurn turn = feedback.turn;
        if (isInHistory(turn.requestId)) {
            duplicateFeedback.inc();
        } else {
            List<DialogueTurn> turns = currentHistory();
            turns.add(turn);
            history.update(limits.keep(turns));
        }
        // checked whether or not the turn was new: the in-flight turn must end when its answer is back, even when
        // an answer with its id was seen before
        if (turn.requestId != null && turn.requestId.equals(inFlight.value())) {
            finishInFlight(ctx);
            releaseNext(ctx, out);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<RequestContext> out) throws Exception {
        Long expected = releaseTimer.value();
        if (expected == null || expected != timestamp) {
            return;
        }
        feedbackTimeouts.inc();
        releaseTimer.clear();
        inFlight.clear();
        inFlightCount.add(ctx.getCurrentKey(), -1);
        releaseNext(ctx, out);
    }

    private void release(RequestContext question, Context ctx, Collector<RequestContext> out) throws Exception {
        if (!question.historySupplied) {
            question.history = currentHistory();
        }
        inFlight.update(question.requestId);
        long at = ctx.timerService().currentProcessingTime() + feedbackTimeoutMillis;
        ctx.timerService().registerProcessingTimeTimer(at);
        releaseTimer.update(at);
        inFlightCount.add(ctx.getCurrentKey(), 1);
        out.collect(question);
    }

    private void releaseNext(Context ctx, Collector<RequestContext> out) throws Exception {
        long[] ends = queueEnds(ctx);
        if (ends[0] >= ends[1]) {
            return;
        }
        RequestContext next = queue.get(ends[0]);
        queue.remove(ends[0]);
        if (ends[0] + 1 >= ends[1]) {
            queueEnds.clear();
        } else {
            queueEnds.update(new long[] {ends[0] + 1, ends[1]});
        }
        waitingCount.add(ctx.getCurrentKey(), -1);
        release(next, ctx, out);
    }

    private void finishInFlight(Context ctx) throws Exception {
        Long timer = releaseTimer.value();
        if (timer != null) {
            ctx.timerService().deleteProcessingTimeTimer(timer);
        }
        releaseTimer.clear();
        inFlight.clear();
        inFlightCount.add(ctx.getCurrentKey(), -1);
    }

    private List<DialogueTurn> currentHistory() throws Exception {
        List<DialogueTurn> turns = new ArrayList<>();
        for (DialogueTurn t : history.get()) {
            turns.add(t);
        }
        // a history restored from before the caps (or written under larger ones) is cut on first use
        return limits.keep(turns);
    }

    private boolean isInHistory(String requestId) throws Exception {
        for (DialogueTurn t : history.get()) {
            if (t.requestId != null && t.requestId.equals(requestId)) {
                return true;
            }
        }
        return false;
    }
}
