package io.flowsql.flink;

import io.flowsql.pipeline.DialogueTurn;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

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
 * across restores.
 */
public class DialogueContextFunction extends KeyedCoProcessFunction<String, RequestContext, FeedbackTurn, RequestContext>
        implements CheckpointedFunction {
    private final Duration historyTtl;
    private final long feedbackTimeoutMillis;
    private final HistoryLimits limits;

    private transient ListState<DialogueTurn> history;
    private transient ValueState<List<RequestContext>> waiting;
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
        this.historyTtl = historyTtl;
        this.feedbackTimeoutMillis = feedbackTimeoutMillis;
        this.limits = limits;
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
                new ListStateDescriptor<>("history", TypeInformation.of(DialogueTurn.class));
        historyDescriptor.enableTimeToLive(StateTtlConfig.newBuilder(historyTtl).updateTtlOnCreateAndWrite()
                .neverReturnExpired().build());
        history = getRuntimeContext().getListState(historyDescriptor);
        waiting = getRuntimeContext().getState(new ValueStateDescriptor<>("waiting",
                Types.LIST(TypeInformation.of(RequestContext.class))));
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
        List<RequestContext> queue = waiting.value() == null ? new ArrayList<>() : new ArrayList<>(waiting.value());
        queue.add(question);
        waiting.update(queue);
        waitingCount.add(ctx.getCurrentKey(), 1);
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
        List<RequestContext> queue = waiting.value();
        if (queue == null || queue.isEmpty()) {
            return;
        }
        List<RequestContext> rest = new ArrayList<>(queue.subList(1, queue.size()));
        if (rest.isEmpty()) {
            waiting.clear();
        } else {
            waiting.update(rest);
        }
        waitingCount.add(ctx.getCurrentKey(), -1);
        release(queue.get(0), ctx, out);
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
