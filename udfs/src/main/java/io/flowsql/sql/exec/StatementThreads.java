package io.flowsql.sql.exec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where statements run, checked on every statement: SQL (up to the executor's time limit) must never run on a thread
 * that completes model calls or journal acknowledgements, or every reply of the TaskManager waits behind it. A
 * statement on such a thread still runs (refusing it would turn a slow answer into a failed one) but is counted and
 * logged once per thread kind; tests assert the count stays 0. The kinds of thread seen (the name without its
 * trailing number) are kept, a handful of strings, so a test can show where SQL ran.
 */
public final class StatementThreads {
    private static final Logger LOG = LoggerFactory.getLogger(StatementThreads.class);

    /**
     * Name prefixes of the threads that must stay free: the engine's LLM callback pool, the HTTP client's event loop,
     * the stage journal's acknowledgement thread and Kafka's producer I/O thread.
     */
    public static final List<String> FORBIDDEN = List.of("flowsql-llm-callback-", "flowsql-llm-http-",
            "stage-journal-acks", "kafka-producer-network-thread");
    private static final int MAX_KINDS = 64;

    private static final AtomicLong ON_FORBIDDEN = new AtomicLong();
    private static final Set<String> KINDS = ConcurrentHashMap.newKeySet();
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private StatementThreads() {}

    /** Records that a statement starts on the current thread. */
    static void check() {
        String name = Thread.currentThread().getName();
        String kind = kindOf(name);
        if (KINDS.size() < MAX_KINDS) {
            KINDS.add(kind);
        }
        if (isForbidden(name)) {
            ON_FORBIDDEN.incrementAndGet();
            if (WARNED.add(kind)) {
                LOG.warn("a SQL statement runs on {}, a thread that completes model calls: replies wait behind it "
                        + "(a bug: SQL belongs on the engine's work pool)", name, new IllegalStateException("here"));
            }
        }
    }

    public static boolean isForbidden(String threadName) {
        return FORBIDDEN.stream().anyMatch(threadName::startsWith);
    }

    /** Statements started on a forbidden thread since this JVM started. */
    public static long onForbiddenThreads() {
        return ON_FORBIDDEN.get();
    }

    /** The kinds of thread statements started on (thread names without their trailing number), at most 64. */
    public static Set<String> kindsSeen() {
        return Set.copyOf(KINDS);
    }

    /** Forgets the kinds seen (a test starts from none); the forbidden count is never reset. */
    public static void forgetKinds() {
        KINDS.clear();
    }

    static String kindOf(String threadName) {
        int end = threadName.length();
        while (end > 0 && Character.isDigit(threadName.charAt(end - 1))) {
            end--;
        }
        return threadName.substring(0, end);
    }
}
