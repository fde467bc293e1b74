package io.flowsql.flink;

import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.CandidateRuns;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Puts a request back together after its candidates ran in parallel (keyed by request id and fan-out, so a repeated
 * request id is gathered on its own). A timer bounds the wait: candidates still missing when it fires count as failed
 * with "timed out", so one straggler cannot hold a request forever; candidates of that fan-out arriving after that are
 * dropped. If the timer fires before the request record itself arrived, what was gathered is kept and the request is
 * emitted as soon as its record comes (never dropped); a fan-out whose request record never comes is forgotten
 * after {@link #ORPHAN_TIMEOUTS} more gather timeouts.
 */
public class CandidateGatherFunction extends KeyedProcessFunction<String, CandidateWork, RequestContext> {
    static final int ORPHAN_TIMEOUTS = 10;

    private final String stageName;
    private final long gatherTimeoutMillis;

    private transient ValueState<RequestContext> context;
    private transient ValueState<Integer> expected;
    private transient ValueState<Long> startedAt;
    private transient ValueState<Long> timer;
    private transient ValueState<Boolean> finished;
    private transient ValueState<Boolean> expired;
    private transient MapState<Integer, Candidate> results;
    /** How many results are in {@link #results}: kept so a record costs no scan of the map (null in state restored from before it). */
    private transient ValueState<Integer> received;
    private transient Counter timedOutCandidates;
    private transient Histogram latencyMs;

    public CandidateGatherFunction(String stageName, long gatherTimeoutMillis) {
        this.stageName = stageName;
        this.gatherTimeoutMillis = gatherTimeoutMillis;
    }

    @Override
    public void open(OpenContext openContext) {
        context = getRuntimeContext().getState(new ValueStateDescriptor<>("context", TypeInformation.of(RequestContext.class)));
        expected = getRuntimeContext().getState(new ValueStateDescriptor<>("expected", Types.INT));
        startedAt = getRuntimeContext().getState(new ValueStateDescriptor<>("started-at", Types.LONG));
        timer = getRuntimeContext().getState(new ValueStateDescriptor<>("timer", Types.LONG));
        finished = getRuntimeContext().getState(new ValueStateDescriptor<>("finished", Types.BOOLEAN));
        expired = getRuntimeContext().getState(new ValueStateDescriptor<>("expired", Types.BOOLEAN));
        results = getRuntimeContext().getMapState(
                new MapStateDescriptor<>("results", Types.INT, TypeInformation.of(Candidate.class)));
        received = getRuntimeContext().getState(new ValueStateDescriptor<>("received", Types.INT));
        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("flowsql").addGroup("stage", stageName);
        timedOutCandidates = group.counter("candidatesTimedOut");
        latencyMs = group.histogram("gatherLatencyMs", new DescriptiveStatisticsHistogram(1000));
    }

    @Override
    public void processElement(CandidateWork work, Context ctx, Collector<RequestContext> out) throws Exception {
        if (Boolean.TRUE.equals(finished.value())) {
            if (!work.isContext()) {
                return; // a straggler of a fan-out already emitted
            }
            forget(ctx); // the request itself again (a record from before fan-out ids): gathered anew, never dropped
        }
        long now = ctx.timerService().currentProcessingTime();
        if (work.isContext()) {
            if (work.expected == 0) {
                out.collect(work.context);
                return;
            }
            context.update(work.context);
            expected.update(work.expected);
            startedAt.update(now);
        } else if (!results.contains(work.index)) {
            int before = countResults();
            results.put(work.index, work.candidate);
            received.update(before + 1);
        }
        if (timer.value() == null) {
            long at = now + gatherTimeoutMillis;
            ctx.timerService().registerProcessingTimeTimer(at);
            timer.update(at);
        }
        // expected is written with the request (reading it costs no copy of the whole request, as the context would)
        Integer wanted = expected.value();
        if (wanted != null && (countResults() >= wanted || Boolean.TRUE.equals(expired.value()))) {
            emit(ctx, out, now);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<RequestContext> out) throws Exception {
        if (context.value() != null) {
            emit(ctx, out, timestamp);
        } else if (Boolean.TRUE.equals(finished.value()) || Boolean.TRUE.equals(expired.value())) {
            clearAll();
        } else {
            // candidates came, their request record not yet: keep them, emit the request the moment it comes
            expired.update(true);
            long forgetAt = timestamp + ORPHAN_TIMEOUTS * gatherTimeoutMillis;
            ctx.timerService().registerProcessingTimeTimer(forgetAt);
            timer.update(forgetAt);
        }
    }

    private void forget(Context ctx) throws Exception {
        Long pending = timer.value();
        if (pending != null) {
            ctx.timerService().deleteProcessingTimeTimer(pending);
        }
        clearAll();
    }

    private void emit(Context ctx, Collector<RequestContext> out, long now) throws Exception {
        RequestContext request = context.value();
        int missing = 0;
        List<Integer> ran = new ArrayList<>();
        for (Map.Entry<Integer, Candidate> done : results.entries()) {
            if (done.getKey() < request.candidates.size()) {
                request.candidates.set(done.getKey(), done.getValue());
                ran.add(done.getKey());
            }
        }
        CandidateRuns.takeTwinResults(request.candidates, ran);
        for (Candidate c : request.candidates) {
            if (!c.executed) { // its SQL's run did not come back in time
                CandidateExecuteFunction.markFailed(c, "timed out");
                missing++;
            }
        }
        timedOutCandidates.inc(missing);
        long elapsed = now - startedAt.value();
        latencyMs.update(elapsed);
        StageTrace trace = new StageTrace(stageName);
        trace.latencyMillis = elapsed;
        trace.note = expected.value() + " candidates, " + missing + " timed out";
        request.trace.add(trace);
        out.collect(request);

        Long pending = timer.value();
        if (pending != null) {
            ctx.timerService().deleteProcessingTimeTimer(pending);
        }
        clearAll();
        // Remember the request a while so candidates arriving after a timeout are dropped, not gathered anew.
        finished.update(true);
        long forgetAt = now + gatherTimeoutMillis;
        ctx.timerService().registerProcessingTimeTimer(forgetAt);
        timer.update(forgetAt);
    }

    private int countResults() throws Exception {
        Integer kept = received.value();
        if (kept != null) {
            return kept;
        }
        int n = 0; // state from before the count was kept
        for (Integer ignored : results.keys()) {
            n++;
        }
        return n;
    }

    private void clearAll() {
        context.clear();
        expected.clear();
        startedAt.clear();
        timer.clear();
        finished.clear();
        expired.clear();
        results.clear();
        received.clear();
    }
}
