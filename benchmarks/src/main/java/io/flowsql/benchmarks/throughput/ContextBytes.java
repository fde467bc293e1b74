package io.flowsql.benchmarks.throughput;

import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LongSummaryStatistics;

/**
 * What a question's in-flight state weighs: its {@link RequestContext} as the job's Flink serializer writes it (into
 * the async operators' checkpointed queues, across keyed exchanges) and what one deep copy of it costs (each async
 * stage copies it for its work, and each chained hand-over copies it again, object reuse being off).
 */
final class ContextBytes {
    private final TypeSerializer<RequestContext> serializer =
            TypeInformation.of(RequestContext.class).createSerializer(new SerializerConfigImpl());
    private final LongSummaryStatistics bytes = new LongSummaryStatistics();
    private final LongSummaryStatistics copyNanos = new LongSummaryStatistics();

    /** Weighs {@code ctx} and times a few deep copies of it (after the first, which warms the code). */
    void measure(RequestContext ctx) {
        DataOutputSerializer out = new DataOutputSerializer(8192);
        try {
            serializer.serialize(ctx, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        bytes.accept(out.length());
        serializer.copy(ctx);
        int copies = 20;
        long start = System.nanoTime();
        for (int i = 0; i < copies; i++) {
            serializer.copy(ctx);
        }
        copyNanos.accept((System.nanoTime() - start) / copies);
    }

    String line() {
        return String.format("in-flight state per question at its answer (RequestContext, Flink serializer): mean %.0f "
                        + "bytes, max %d; one deep copy %.1f µs (mean, this JVM, shared machine)",
                bytes.getAverage(), bytes.getMax(), copyNanos.getAverage() / 1000.0);
    }
}
