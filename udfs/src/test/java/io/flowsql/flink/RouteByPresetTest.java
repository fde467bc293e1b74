package io.flowsql.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.RequestContext;
import java.util.List;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** Each request goes to its preset's chain only; a preset the job does not serve is failed, typed, and not lost. */
class RouteByPresetTest {

    @Test
    void routesByPresetAndFailsAnUnservedOne() throws Exception {
        RouteByPreset route = new RouteByPreset(List.of("opensearch", "mmsql"), "opensearch");
        try (OneInputStreamOperatorTestHarness<RequestContext, RequestContext> harness =
                     new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(route))) {
            harness.open();
            harness.processElement(request("a", "mmsql"), 1);
            harness.processElement(request("b", null), 2);          // the job's default preset
            harness.processElement(request("c", "sqlfix"), 3);      // not served by this job
            harness.processElement(request("d", "opensearch"), 4);

            assertThat(ids(harness.getSideOutput(RouteByPreset.tag("mmsql")))).containsExactly("a");
            assertThat(ids(harness.getSideOutput(RouteByPreset.tag("opensearch")))).containsExactly("b", "d");
            List<RequestContext> unrouted = harness.extractOutputValues();
            assertThat(unrouted).singleElement().satisfies(ctx -> {
                assertThat(ctx.requestId).isEqualTo("c");
                assertThat(ctx.status).isEqualTo("failed");
                assertThat(ctx.failure).isEqualTo(FailureKind.UNSERVED);
                assertThat(ctx.error).contains("'sqlfix'").contains("opensearch, mmsql");
            });
        }
    }

    private static RequestContext request(String id, String preset) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = id;
        ctx.strategy = preset;
        return ctx;
    }

    private static List<String> ids(java.util.Queue<StreamRecord<RequestContext>> records) {
        return records == null ? List.of() : records.stream().map(r -> r.getValue().requestId).toList();
    }
}
