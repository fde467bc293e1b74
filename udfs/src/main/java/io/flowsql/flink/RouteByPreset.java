package io.flowsql.flink;

import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends each request to the chain of operators of its preset (a side output per preset the job serves), so a request
 * passes only the stages its preset runs. A request the job has no chain for is failed here and goes straight to the
 * answer (the main output), with an error naming the presets served.
 */
public class RouteByPreset extends ProcessFunction<RequestContext, RequestContext> {
    public static final String STAGE = "route";

    private final List<String> presets;
    private final String defaultPreset;
    private transient Map<String, OutputTag<RequestContext>> tags;

    public RouteByPreset(List<String> presets, String defaultPreset) {
        this.presets = List.copyOf(presets);
        this.defaultPreset = defaultPreset;
    }

    /** The side output carrying the requests of {@code preset}. */
    public static OutputTag<RequestContext> tag(String preset) {
        return new OutputTag<>("preset-" + preset) {};
    }

    @Override
    public void processElement(RequestContext ctx, Context out, Collector<RequestContext> unrouted) {
        if (tags == null) {
            tags = new LinkedHashMap<>();
            presets.forEach(p -> tags.put(p, tag(p)));
        }
        String preset = ctx.strategy == null ? defaultPreset : ctx.strategy;
        OutputTag<RequestContext> tag = tags.get(preset);
        if (tag == null || ctx.isSettled()) {
            if (!ctx.isSettled()) {
                ctx.fail(STAGE, FailureKind.UNSERVED, "this job does not serve strategy '" + preset + "'; it serves: "
                        + String.join(", ", presets));
            }
            unrouted.collect(ctx);
            return;
        }
        ctx.strategy = preset;   // the stages see the preset they run in (answer.summarize's per-preset choice)
        out.output(tag, ctx);
    }
}
