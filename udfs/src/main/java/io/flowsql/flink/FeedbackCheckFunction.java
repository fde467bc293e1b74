package io.flowsql.flink;

import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.events.RejectKind;
import io.flowsql.feedback.FeedbackChecker;
import io.flowsql.sql.StatementBudget;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

/**
 * Runs the SQL of each pair and correction through {@link FeedbackChecker} on a small bounded pool of its own
 * ({@code flowsql-feedback-check-N}, {@link #THREADS} threads, at most {@link #QUEUED} waiting), so a flood of slow
 * feedback SQL cannot take the engine's work pool from the questions; the task thread only hands it over. It runs for
 * the feedback's tenant under the job's access policies: SQL that the gate or the guard refuses or that fails on its
 * database marks the feedback refused ({@code feedback_refused}), and so does any record stamped more than
 * {@code LiveLibraryLimits.CLOCK_SKEW} ahead of the clock. Feedback already
 * refused, retractions and verdicts that teach nothing pass untouched. The operator's timeout refuses the feedback too
 * (nothing unchecked is learned) and cancels its statement, which stops at once and frees its connection.
 */
public class FeedbackCheckFunction extends RichAsyncFunction<FeedbackEvent, FeedbackEvent> {
    private static final long serialVersionUID = 1L;
    /** Threads checking feedback SQL per operator instance. */
    static final int THREADS = 2;
    /** Checks waiting for a thread; more are refused at once (the operator's capacity normally keeps below it). */
    static final int QUEUED = 64;

    private final EngineConfig engine;
    private transient EngineLease lease;
    private transient FeedbackChecker checker;
    private transient ExecutorService pool;
    /** The budget of each check in flight, by the identity of its record: the first to take it out completes. */
    private transient Map<FeedbackEvent, StatementBudget> inFlight;

    public FeedbackCheckFunction(EngineConfig engine) {
        this.engine = engine;
    }

    @Override
    public void open(OpenContext openContext) {
        lease = EngineFactory.shared(engine);
        checker = new FeedbackChecker(lease.engine().room(engine.access()));
        pool = checkPool();
        inFlight = Collections.synchronizedMap(new IdentityHashMap<>());
    }

    static ExecutorService checkPool() {
        AtomicInteger n = new AtomicInteger();
        return new ThreadPoolExecutor(THREADS, THREADS, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUED), r -> {
            Thread t = new Thread(r, "flowsql-feedback-check-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
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
        StatementBudget budget = checker.newBudget();
        inFlight.put(feedback, budget);
        try {
            // checked and completed on the pool's thread: a callback on a future could run on the task thread (when the
            // check had already finished by the time it was attached)
            pool.execute(() -> checkAndComplete(feedback, budget, result));
        } catch (RejectedExecutionException e) {
            inFlight.remove(feedback);
            feedback.refusal = RejectKind.FEEDBACK_REFUSED.wireName() + ": too many feedback checks waiting";
            result.complete(List.of(feedback));
        }
    }

    private void checkAndComplete(FeedbackEvent feedback, StatementBudget budget, ResultFuture<FeedbackEvent> result) {
        Optional<String> why;
        try {
            why = checker.refusal(feedback.dbId, feedback.tenant, feedback.sql, budget);
        } catch (RuntimeException e) {
            why = Optional.of("the check failed: " + e);
        }
        if (inFlight.remove(feedback) == null) {
            return; // timed out: already refused and emitted
        }
        why.ifPresent(w -> feedback.refusal = RejectKind.FEEDBACK_REFUSED.wireName() + ": " + w);
        result.complete(List.of(feedback));
    }

    @Override
    public void timeout(FeedbackEvent feedback, ResultFuture<FeedbackEvent> result) {
        StatementBudget budget = inFlight.remove(feedback);
        if (budget == null) {
            return; // the check completed meanwhile
        }
        budget.cancel();
        feedback.refusal = RejectKind.FEEDBACK_REFUSED.wireName() + ": its SQL was not checked in time";
        result.complete(List.of(feedback));
    }

    /** A pair or a correction: feedback with SQL to learn. */
    static boolean teaches(FeedbackEvent f) {
        return FeedbackEvent.PAIR.equals(f.kind) || FeedbackEvent.CORRECTION.equals(f.kind);
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
            pool = null;
        }
        if (lease != null) {
            lease.close();
            lease = null;
        }
    }
}
