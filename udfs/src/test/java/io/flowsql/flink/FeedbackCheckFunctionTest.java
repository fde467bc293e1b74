package io.flowsql.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flowsql.agents.common.AgentSettings;
import io.flowsql.engine.EngineConfig;
import io.flowsql.events.FeedbackEvent;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.sql.SpiderData;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.exec.SqlExecutorConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.functions.async.CollectionSupplier;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.junit.jupiter.api.Test;

/**
 * The feedback check on the engine as the job builds it, with one connection per database and a 60 s statement limit:
 * the operator's timeout refuses the feedback and cancels its statement, so the database's only connection is free
 * for the next check at once (without the cancel it would wait a minute); checks run on their own threads.
 */
class FeedbackCheckFunctionTest {
    private static final String DB = "flight_4";
    private static final String ENDLESS = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n";

    @Test
    void aTimedOutCheckIsRefusedAndItsStatementStopsSoTheNextCheckRunsAtOnce() throws Exception {
        EngineConfig engine = new EngineConfig(LlmClientConfig.builder("http://127.0.0.1:1/v1").defaultModel("unused").build(),
                SqlExecutorConfig.defaults().withTimeoutMillis(60_000).withPoolSizePerDatabase(1), SpiderData.locator(),
                AgentSettings.defaults(), "full", ComparisonMode.SPIDER_TEST_SUITE, 64);
        FeedbackCheckFunction check = new FeedbackCheckFunction(engine);
        check.open(null);
        try {
            Result endless = new Result();
            FeedbackEvent slow = pair("f-slow", ENDLESS);
            check.asyncInvoke(slow, endless);
            Thread.sleep(500);
            assertThat(endless.done).as("still running when the operator times it out").isNotDone();
            check.timeout(slow, endless);
            assertThat(endless.done.get(1, TimeUnit.SECONDS)).singleElement()
                    .satisfies(f -> assertThat(f.refusal).contains("not checked in time"));

            Result quick = new Result();
            long start = System.nanoTime();
            check.asyncInvoke(pair("f-quick", "SELECT count(*) FROM airlines"), quick);
            Collection<FeedbackEvent> checked = quick.done.get(20, TimeUnit.SECONDS);
            assertThat(checked).singleElement().satisfies(f -> assertThat(f.refusal).isNull());
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start))
                    .as("the only connection was freed by the cancel, not by the 60 s limit").isLessThan(20);
            assertThat(quick.thread).startsWith("flowsql-feedback-check-");
        } finally {
            check.close();
        }
    }

    private static FeedbackEvent pair(String id, String sql) {
        FeedbackEvent f = new FeedbackEvent();
        f.kind = FeedbackEvent.PAIR;
        f.feedbackId = id;
        f.dbId = DB;
        f.question = "How many?";
        f.sql = sql;
        return f;
    }

    /** Collects what the function completes with, and on which thread. */
    private static final class Result implements ResultFuture<FeedbackEvent> {
        final CompletableFuture<Collection<FeedbackEvent>> done = new CompletableFuture<>();
        volatile String thread;

        @Override
        public void complete(Collection<FeedbackEvent> result) {
            thread = Thread.currentThread().getName();
            done.complete(new ArrayList<>(result));
        }

        @Override
        public void completeExceptionally(Throwable error) {
            done.completeExceptionally(error);
        }

        @Override
        public void complete(CollectionSupplier<FeedbackEvent> supplier) {
            try {
                complete(supplier.get());
            } catch (Exception e) {
                done.completeExceptionally(e);
            }
        }
    }
}
