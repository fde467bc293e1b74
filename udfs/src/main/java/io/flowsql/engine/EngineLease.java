package io.flowsql.engine;

import java.util.concurrent.atomic.AtomicBoolean;

/** One holder's claim on a shared engine; closing it twice releases it once. */
public final class EngineLease implements AutoCloseable {
    private final EngineRuntime runtime;
    private final Runnable release;
    private final AtomicBoolean closed = new AtomicBoolean();

    EngineLease(EngineRuntime runtime, Runnable release) {
        this.runtime = runtime;
        this.release = release;
    }

    public EngineRuntime runtime() {
        return runtime;
    }

    public Engine engine() {
        return runtime.engine();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            release.run();
        }
    }
}
