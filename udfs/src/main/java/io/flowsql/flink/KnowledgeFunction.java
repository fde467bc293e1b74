package io.flowsql.flink;

import io.flowsql.knowledge.KnowledgeBook;
import io.flowsql.knowledge.KnowledgeCandidates;
import io.flowsql.knowledge.KnowledgeEntry;
import io.flowsql.knowledge.KnowledgeEvidence;
import io.flowsql.knowledge.KnowledgeLimits;
import io.flowsql.pipeline.RequestContext;
import java.util.List;
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
 * The {@code knowledge} operator: every parallel instance receives every knowledge entry (broadcast) and keeps the
 * book in broadcast state (knowledge id → {@link KnowledgeEntry}), checkpointed and restored like the live library;
 * each question passing on its way to the stages gets the definitions of its database (and tenant) whose term it
 * mentions put into its evidence ({@link KnowledgeEvidence}), and, with embedding matching on, the others it may use
 * offered to its first stage ({@link KnowledgeCandidates}). The book's logic is {@link KnowledgeBook}; this class
 * mirrors its changes into the state.
 */
public class KnowledgeFunction extends BroadcastProcessFunction<RequestContext, KnowledgeEntry, RequestContext> {
    private static final long serialVersionUID = 1L;
    public static final MapStateDescriptor<String, KnowledgeEntry> STATE =
            new MapStateDescriptor<>("knowledge", Types.STRING, TypeInformation.of(KnowledgeEntry.class));

    private final KnowledgeLimits limits;
    private final int similarityCandidates;
    private transient KnowledgeBook book;
    private transient Counter applied;
    private transient Counter used;

    public KnowledgeFunction(KnowledgeLimits limits) {
        this(limits, 0);
    }

    /**
     * With {@code similarityCandidates > 0} (embedding matching on), each question also carries up to that many of
     * its database's other definitions ({@link KnowledgeCandidates}), for its first stage to weigh by similarity.
     */
    public KnowledgeFunction(KnowledgeLimits limits, int similarityCandidates) {
        this.limits = limits;
        this.similarityCandidates = similarityCandidates;
    }

    @Override
    public void open(OpenContext openContext) {
        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("flowsql").addGroup("knowledge");
        applied = group.counter("applied");
        used = group.counter("requestsWithKnowledge");
        group.gauge("entries", () -> book == null ? 0 : book.definitions().size());
    }

    @Override
    public void processElement(RequestContext request, ReadOnlyContext ctx, Collector<RequestContext> out) throws Exception {
        if (!request.isSettled()) {
            KnowledgeBook current = book(ctx.getBroadcastState(STATE));
            List<KnowledgeEntry> chosen = current.select(request.dbId, null, request.tenant, request.question);
            KnowledgeEvidence.attach(request, chosen);
            KnowledgeCandidates.offer(request, current.candidates(request.dbId, null, request.tenant, request.question,
                    chosen, similarityCandidates));
            if (!chosen.isEmpty()) {
                used.inc();
            }
        }
        out.collect(request);
    }

    @Override
    public void processBroadcastElement(KnowledgeEntry entry, Context ctx, Collector<RequestContext> out) throws Exception {
        BroadcastState<String, KnowledgeEntry> state = ctx.getBroadcastState(STATE);
        KnowledgeBook current = book(state);
        Set<String> changed = current.apply(entry);
        BroadcastStateMirror.mirror(state, changed, current::get);
        if (!changed.isEmpty()) {
            applied.inc();
        }
    }

    private KnowledgeBook book(ReadOnlyBroadcastState<String, KnowledgeEntry> state) throws Exception {
        if (book == null) {
            book = KnowledgeBook.restore(limits, state.immutableEntries());
        }
        return book;
    }
}
