package io.flowsql.devstack;

/** A child JVM for PID file tests: it only sleeps (a minute at most), with the JVM's own threads beside main. */
public final class SleepingChild {
    private SleepingChild() {}

    public static void main(String[] args) throws InterruptedException {
        Thread.sleep(60_000);
    }
}
