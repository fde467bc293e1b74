package io.flowsql.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * One engine per JVM per configuration, shared by every operator of a TaskManager, so they share one LLM
 * client (and its concurrency and rate limits), one executor pool and one set of caches. Reference
 * counted: the engine closes when the last lease is closed.
 */
public final class EngineFactory {
    private static final Map<ByteBuffer, Shared> SHARED = new HashMap<>();

    private EngineFactory() {}

    /**
     * A lease on the engine for this configuration, built on first use; close it when done. Returns once the
     * engine's stage journal has caught up with everything written to it so far.
     */
    public static EngineLease shared(EngineConfig config) {
        ByteBuffer key = identity(config);
        EngineRuntime runtime = acquire(key, config);
        // An operator (re)opening, e.g. after a restore, must see every stage result journaled before it. Waited for
        // outside the lock, so the operators of a TaskManager open side by side, not one catch-up after another.
        runtime.journal().catchUp();
        return new EngineLease(runtime, () -> release(key));
    }

    private static synchronized EngineRuntime acquire(ByteBuffer key, EngineConfig config) {
        Shared shared = SHARED.get(key);
        if (shared == null) {
            shared = new Shared(EngineRuntime.build(config));
            SHARED.put(key, shared);
        }
        shared.leases++;
        return shared.runtime;
    }

    private static synchronized void release(ByteBuffer key) {
        Shared shared = SHARED.get(key);
        if (shared == null) {
            return;
        }
        shared.leases--;
        if (shared.leases == 0) {
            SHARED.remove(key);
            shared.runtime.close();
        }
    }

    /** Configurations are compared by their serialized form: equal settings mean one engine. */
    private static ByteBuffer identity(EngineConfig config) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(config);
        } catch (IOException e) {
            throw new UncheckedIOException("engine config is not serializable", e);
        }
        return ByteBuffer.wrap(bytes.toByteArray());
    }

    private static final class Shared {
        final EngineRuntime runtime;
        int leases;

        Shared(EngineRuntime runtime) {
            this.runtime = runtime;
        }
    }
}
