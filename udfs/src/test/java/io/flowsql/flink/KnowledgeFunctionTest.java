package io.flowsql.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.knowledge.KnowledgeEntry;
import io.flowsql.knowledge.KnowledgeEvidence;
import io.flowsql.knowledge.KnowledgeLimits;
import io.flowsql.pipeline.RequestContext;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithNonKeyedOperator;
import org.apache.flink.streaming.util.BroadcastOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The knowledge book survives a restore exactly as it was: what was added is used after the restore, what was
 * retracted is not (the operator mirrors every change of the plain-Java book into its broadcast state).
 */
class KnowledgeFunctionTest {

    @Test
    void aRestoredOperatorUsesTheAddedEntriesAndNotTheRetractedOnes() throws Exception {
        OperatorSubtaskState snapshot;
        try (BroadcastOperatorTestHarness<RequestContext, KnowledgeEntry, RequestContext> before = harness()) {
            before.open();
            before.processBroadcastElement(KnowledgeEntry.add("k1", "shop", "active customer",
                    "a customer with an order in the last 90 days", 1), 1);
            before.processBroadcastElement(KnowledgeEntry.add("k2", "shop", "big order",
                    "an order over 1000 dollars", 2), 2);
            before.processBroadcastElement(KnowledgeEntry.retraction("r1", "k2", 3), 3);
            snapshot = before.snapshot(1, 4);
        }
        try (BroadcastOperatorTestHarness<RequestContext, KnowledgeEntry, RequestContext> after = harness()) {
            after.initializeState(snapshot);
            after.open();
            after.processElement(question("q1", "How many active customer made a big order?"), 5);
            after.processElement(question("q2", "List every big order"), 6);

            List<RequestContext> out = after.extractOutputValues();
            assertThat(out).hasSize(2);
            assertThat(KnowledgeEvidence.used(out.get(0))).containsExactly("k1");
            assertThat(out.get(0).evidence).contains("90 days").doesNotContain("1000 dollars");
            assertThat(KnowledgeEvidence.used(out.get(1))).isEmpty();
            assertThat(out.get(1).evidence).isNull();
        }
    }

    private static BroadcastOperatorTestHarness<RequestContext, KnowledgeEntry, RequestContext> harness() throws Exception {
        return new BroadcastOperatorTestHarness<>(new CoBroadcastWithNonKeyedOperator<>(
                new KnowledgeFunction(KnowledgeLimits.defaults()), List.of(KnowledgeFunction.STATE)), 1, 1, 0);
    }

    private static RequestContext question(String id, String text) {
        RequestContext ctx = new RequestContext();
        ctx.requestId = id;
        ctx.dbId = "shop";
        ctx.question = text;
        return ctx;
    }
}
