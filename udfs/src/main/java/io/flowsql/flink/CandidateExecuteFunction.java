package io.flowsql.flink;

import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.pipeline.Candidate;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs candidate SQL on a bounded thread pool per task slot (made once when the operator opens), so slow queries of
 * one request never block LLM stages, other requests or the task thread. Request records pass straight through; a run
 * that outlives Flink's timeout comes back as a candidate with the error "timed out" instead of failing the job, and
 * is cancelled: still queued, it never runs; running, its thread is interrupted, which ends the SQLite statement at
 * once (the executor's progress handler sees the interrupt) or its wait for a connection, and frees the connection.
 */
public class CandidateExecuteFunction extends RichAsyncFunction<CandidateWork, CandidateWork> {
    private final EngineConfig engine;
    private final int poolSize;
    private final long timeoutMillis;

    private transient EngineLease lease;
    private transient ExecutorService pool;

    public CandidateExecuteFunction(EngineConfig engine, int poolSize, long timeoutMillis) {
        this.engine = engine;
        this.poolSize = poolSize;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        lease = EngineFactory.shared(engine);
        AtomicInteger threads = new AtomicInteger();
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        pool = Executors.newFixedThreadPool(poolSize, r -> {
            Thread t = new Thread(r, "flowsql-candidates-" + subtask + "-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void asyncInvoke(CandidateWork work, ResultFuture<CandidateWork> resultFuture) {
        if (work.isContext()) {
            resultFuture.complete(List.of(work));
            return;
        }
        Candidate candidate = work.candidate;
        work.run = pool.submit(() -> {
            try {
                lease.runtime().candidateRunner().run(work.dbId, work.tenant, candidate, null);
            } catch (RuntimeException error) {
                markFailed(candidate, describe(error));
            }
            work.run = null;
            resultFuture.complete(List.of(work));
        });
    }

    @Override
    public void timeout(CandidateWork work, ResultFuture<CandidateWork> resultFuture) {
        Future<?> run = work.run;
        if (run != null) {
            run.cancel(true);
        }
        Candidate stale = work.candidate;
        Candidate failed = new Candidate(stale.source, stale.sql);
        markFailed(failed, "timed out after " + timeoutMillis + " ms");
        work.candidate = failed;
        resultFuture.complete(List.of(work));
    }

    static String describe(Throwable error) {
        String message = error.getMessage();
        return message == null || message.isBlank() ? error.getClass().getSimpleName() : message;
    }

    static void markFailed(Candidate candidate, String error) {
        candidate.executed = true;
        candidate.error = error;
    }

    @Override
    public void close() throws Exception {
        if (pool != null) {
            pool.shutdownNow();
        }
        if (lease != null) {
            lease.close();
        }
    }
}
