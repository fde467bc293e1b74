package io.flowsql.flink;

import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.events.RejectKind;
import io.flowsql.feedback.FeedbackChecker;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

/**
 * Runs the SQL of each pair and correction through {@link FeedbackChecker} on the TaskManager engine's work pool
 * (the task thread only hands it over), for the feedback's tenant under the job's access policies: SQL that the
 * gate or the guard refuses or that fails on its database marks the feedback refused ({@code feedback_refused}), and
 * so does any record stamped more than {@code LiveLibraryLimits.CLOCK_SKEW} ahead of the clock. Feedback already refused, retractions and verdicts that teach nothing pass
 * untouched. The operator's timeout refuses the feedback too: nothing unchecked is learned.
 */
public class FeedbackCheckFunction extends RichAsyncFunction<FeedbackEvent, FeedbackEvent> {
    private static final long serialVersionUID = 1L;

    private final EngineConfig engine;
    private transient EngineLease lease;
    private transient FeedbackChecker checker;

    public FeedbackCheckFunction(EngineConfig engine) {
        this.engine = engine;
    }

    @Override
    public void open(OpenContext openContext) {
        lease = EngineFactory.shared(engine);
        checker = new FeedbackChecker(lease.engine().sql(), engine.access());
    }

    @Override
    public void asyncInvoke(FeedbackEvent feedback, ResultFuture<FeedbackEvent> result) {
        if (feedback.refusal == null) {
            FeedbackChecker.futureStamp(feedback.timestampMillis, System.currentTimeMillis())
                    .ifPresent(w -> feedback.refusal = RejectKind.FEEDBACK_REFUSED.wireName() + ": " + w);
        }
        if (feedback.refusal != null || !teaches(feedback)) {
            result.complete(List.of(feedback));
            return;
        }
        CompletableFuture.supplyAsync(() -> checker.refusal(feedback.dbId, feedback.tenant, feedback.sql), lease.runtime().work())
                .whenComplete((refusal, error) -> {
                    Optional<String> why = error != null ? Optional.of("the check failed: " + error) : refusal;
                    why.ifPresent(w -> feedback.refusal = RejectKind.FEEDBACK_REFUSED.wireName() + ": " + w);
                    result.complete(List.of(feedback));
                });
    }

    @Override
    public void timeout(FeedbackEvent feedback, ResultFuture<FeedbackEvent> result) {
        feedback.refusal = RejectKind.FEEDBACK_REFUSED.wireName() + ": its SQL was not checked in time";
        result.complete(List.of(feedback));
    }

    /** A pair or a correction: feedback with SQL to learn. */
    static boolean teaches(FeedbackEvent f) {
        return FeedbackEvent.PAIR.equals(f.kind) || FeedbackEvent.CORRECTION.equals(f.kind);
    }

    @Override
    public void close() {
        if (lease != null) {
            lease.close();
            lease = null;
        }
    }
}
