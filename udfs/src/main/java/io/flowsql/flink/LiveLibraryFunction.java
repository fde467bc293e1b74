package io.flowsql.flink;

import io.flowsql.feedback.LiveEntry;
import io.flowsql.feedback.LiveLibrary;
import io.flowsql.feedback.LiveLibraryLimits;
import io.flowsql.feedback.LiveVisibility;
import io.flowsql.engine.EngineConfig;
import io.flowsql.sql.registry.DatabaseRegistry;
import io.flowsql.pipeline.LiveFeedback;
import io.flowsql.pipeline.RequestContext;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The {@code live-library} operator: every parallel instance receives every checked feedback entry (broadcast) and
 * keeps the live library in broadcast state (feedback id → {@link LiveEntry}), so it is checkpointed, restored after a
 * failure and copied to every instance on rescaling; each question passing on its way to the stages gets its own
 * database's most alike live examples and repairs attached, among those its tenant may see ({@link LiveVisibility}) ({@link LiveFeedback}), which the few-shot stage and the
 * refiner then rank with the file library. The library logic is {@link LiveLibrary}; this class only mirrors its
 * changes into the state and keeps a plain-Java copy rebuilt from the state after a restore.
 */
public class LiveLibraryFunction extends BroadcastProcessFunction<RequestContext, LiveEntry, RequestContext> {
    private static final long serialVersionUID = 1L;
    public static final MapStateDescriptor<String, LiveEntry> STATE =
            new MapStateDescriptor<>("live-library", Types.STRING, TypeInformation.of(LiveEntry.class));

    private final LiveLibraryLimits limits;
    /** The engine configuration whose access policies and registry decide what a question may be shown (null: all). */
    private final EngineConfig engine;
    private transient LiveLibrary library;
    private transient LiveVisibility visibility;
    private transient Counter applied;
    private transient Counter repeated;
    private transient Counter attached;

    public LiveLibraryFunction(LiveLibraryLimits limits) {
        this(limits, null);
    }

    /** Shows each question only the entries its tenant's access policy lets it read ({@link LiveVisibility}). */
    public LiveLibraryFunction(LiveLibraryLimits limits, EngineConfig engine) {
        this.limits = limits;
        this.engine = engine;
    }

    @Override
    public void open(OpenContext openContext) {
        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("flowsql").addGroup("feedback");
        applied = group.counter("applied");
        repeated = group.counter("unchanged");
        attached = group.counter("requestsWithLiveExamples");
        group.gauge("liveEntries", () -> library == null ? 0 : library.entries().size());
        if (engine != null) {
            DatabaseRegistry registry = engine.registry();
            visibility = new LiveVisibility(engine.access(), registry::engineOf);
        }
    }

    @Override
    public void processElement(RequestContext request, ReadOnlyContext ctx, Collector<RequestContext> out) throws Exception {
        LiveLibrary live = library(ctx.getBroadcastState(STATE));
        LiveLibrary.Selection chosen = live.select(request.dbId, request.question, System.currentTimeMillis(),
                visibility == null ? e -> true : visibility.forAsker(request.tenant, request.dbId));
        LiveFeedback.attach(request, chosen.examples(), chosen.repairs());
        if (!chosen.examples().isEmpty()) {
            attached.inc();
        }
        out.collect(request);
    }

    @Override
    public void processBroadcastElement(LiveEntry entry, Context ctx, Collector<RequestContext> out) throws Exception {
        BroadcastState<String, LiveEntry> state = ctx.getBroadcastState(STATE);
        LiveLibrary live = library(state);
        Set<String> changed = live.apply(entry);
        BroadcastStateMirror.mirror(state, changed, live::get);
        (changed.isEmpty() ? repeated : applied).inc();
    }

    private LiveLibrary library(ReadOnlyBroadcastState<String, LiveEntry> state) throws Exception {
        if (library == null) {
            library = LiveLibrary.restore(limits, state.immutableEntries());
        }
        return library;
    }
}
