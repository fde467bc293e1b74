package io.flowsql.job;

/**
 * The job refused to start (a bad option, a bad configuration file, bad arguments): thrown out of
 * {@link FlowSqlJob#main}, never {@code System.exit}. Submitted over a session cluster's REST API, {@code main} runs
 * inside the JobManager: an exit there would stop the JobManager and every other job on the cluster, while an
 * exception fails only this submission (its message is the REST answer). Run from a shell, the JVM still exits non-zero.
 */
public final class JobStartRefused extends RuntimeException {
    private final int exitCode;

    public JobStartRefused(int exitCode, String reason, Throwable cause) {
        super("FlowSQL refused to start: " + reason, cause);
        this.exitCode = exitCode;
    }

    /** The exit code a command line would have given (2: bad arguments, 1: refused while starting). */
    public int exitCode() {
        return exitCode;
    }
}
