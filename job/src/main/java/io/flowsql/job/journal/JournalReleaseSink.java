package io.flowsql.job.journal;

import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.events.AnswerEvent;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Retention of the stage journal: reads the committed answers (the job's read_committed feedback of the
 * answers topic) and releases each answered request's journal entries (tombstones), since a committed answer
 * is never processed again. Uses the TaskManager's shared engine, whose journal cache knows the keys.
 */
public final class JournalReleaseSink implements Sink<AnswerEvent> {
    private static final long serialVersionUID = 1L;

    private final EngineConfig engine;

    public JournalReleaseSink(EngineConfig engine) {
        this.engine = engine;
    }

    @Override
    public SinkWriter<AnswerEvent> createWriter(WriterInitContext context) {
        EngineLease lease = EngineFactory.shared(engine);
        return new SinkWriter<>() {
            @Override
            public void write(AnswerEvent answer, Context ignored) {
                if (answer.requestId != null) {
                    lease.runtime().journal().release(answer.requestId);
                }
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {
                lease.close();
            }
        };
    }
}
