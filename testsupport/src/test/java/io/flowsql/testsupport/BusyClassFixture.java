package io.flowsql.testsupport;

import org.junit.jupiter.api.Test;

/** Run by ClassCpuListenerTest through the JUnit launcher (its name keeps surefire from running it on its own). */
class BusyClassFixture {
    static volatile long sink;

    @Test
    void spendsCpu() throws Exception {
        long until = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < until) {
            x += Long.numberOfTrailingZeros(x + 1);
        }
        sink = x;
        // and a child process that works and is reaped
        new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done").start().waitFor();
    }
}
