package io.flowsql.benchmarks.soak;

import org.apache.flink.streaming.runtime.tasks.SystemProcessingTimeService;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.lang.reflect.Proxy;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessFiguresTest {
    private static final int HELD_MB = 128;

    /**
     * What a restore leaves behind: a cancelled task's processing-time service, never shut down, dropped with what it
     * holds (here a large array its exception handler keeps, as the task's own handler keeps the task and its state).
     * Flink's service has a finalizer, so one full collection keeps the array; the soak's figure must not count it.
     */
    @Test
    void theHeapFigureDoesNotCountWhatOnlyAPendingFinalizerHolds() throws Exception {
        long before = ProcessFigures.heapAfterFullGc();
        dropAServiceHolding(new byte[HELD_MB << 20]);

        long after = ProcessFigures.heapAfterFullGc();

        assertThat((after - before) >> 20).as("MB still counted after the service was dropped").isLessThan(HELD_MB / 2);
    }

    private static void dropAServiceHolding(byte[] held) throws Exception {
        // the constructor and its handler's interface are package-private: a task builds the service
        Class<?> handlerType = Class.forName(SystemProcessingTimeService.class.getName() + "$ExceptionHandler");
        Object handler = Proxy.newProxyInstance(handlerType.getClassLoader(), new Class<?>[] {handlerType},
                (proxy, method, args) -> method.getName().equals("hashCode") ? held.length : null);
        Constructor<SystemProcessingTimeService> constructor =
                SystemProcessingTimeService.class.getDeclaredConstructor(handlerType);
        constructor.setAccessible(true);
        constructor.newInstance(handler);
    }
}
