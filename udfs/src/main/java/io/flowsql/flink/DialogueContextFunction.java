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
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps each dialogue's history and lets at most one of its turns through at a time (keyed by dialogue
 * id). A follow-up waits here until the previous turn's answer comes back on the feedback input (the
 * answers topic read again), so its prompts see that answer; a timer releases it anyway if the answer
 * never comes back. Feedback is deduplicated by request id. All of it is keyed state, so it survives a
 * restart from a checkpoint.
 */
public class DialogueContextFunction extends KeyedCoProcessFunction<String, RequestContext, FeedbackTurn, RequestContext> {
    private final Duration historyTtl;
    private final long feedbackTimeoutMillis;

    private transient ListState<DialogueTurn> history;
    private transient ValueState<List<RequestContext>> waiting;
    private transient ValueState<String> inFlight;
    private transient ValueState<Long> releaseTimer;
    private transient AtomicLong inFlightCount;
    private transient AtomicLong waitingCount;
    private transient Counter feedbackTimeouts;
    private transient Counter duplicateFeedback;

    public DialogueContextFunction(Duration historyTtl, long feedbackTimeoutMillis) {
        this.historyTtl = historyTtl;
        this.feedbackTimeoutMillis = feedbackTimeoutMillis;
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

        inFlightCount = new AtomicLong();
        waitingCount = new AtomicLong();
        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("flowsql").addGroup("dialogue");
        group.gauge("questionsInFlight", inFlightCount::get);
        group.gauge("questionsWaiting", waitingCount::get);
        feedbackTimeouts = group.counter("feedbackTimeouts");
        duplicateFeedback = group.counter("duplicateFeedback");
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
        waitingCount.incrementAndGet();
    }

    @Override
    public void processElement2(FeedbackTurn feedback, Context ctx, Collector<RequestContext> out) throws Exception {
        DialogueTurn turn = feedback.turn;
        if (isInHistory(turn.requestId)) {
            duplicateFeedback.inc();
            return;
        }
        history.add(turn);
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
        inFlightCount.decrementAndGet();
        releaseNext(ctx, out);
    }

    private void release(RequestContext question, Context ctx, Collector<RequestContext> out) throws Exception {
        if (!question.historySupplied) {
            List<DialogueTurn> turns = new ArrayList<>();
            for (DialogueTurn t : history.get()) {
                turns.add(t);
            }
            question.history = turns;
        }
        inFlight.update(question.requestId);
        long at = ctx.timerService().currentProcessingTime() + feedbackTimeoutMillis;
        ctx.timerService().registerProcessingTimeTimer(at);
        releaseTimer.update(at);
        inFlightCount.incrementAndGet();
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
        waitingCount.decrementAndGet();
        release(queue.get(0), ctx, out);
    }

    private void finishInFlight(Context ctx) throws Exception {
        Long timer = releaseTimer.value();
        if (timer != null) {
            ctx.timerService().deleteProcessingTimeTimer(timer);
        }
        releaseTimer.clear();
        inFlight.clear();
        inFlightCount.decrementAndGet();
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
