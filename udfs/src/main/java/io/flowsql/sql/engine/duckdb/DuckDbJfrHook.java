package io.flowsql.sql.engine.duckdb;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;

/**
 * Keeps DuckDB's JDBC driver from registering its JFR memory hook, which would keep the job's class loader alive for
 * the life of a TaskManager. The driver's static initializer (duckdb_jdbc 2.0) hands {@code
 * FlightRecorder.addPeriodicEvent} a hook of its own classes; the JVM-wide JFR registry holds it, and only the same hook
 * object, which the driver keeps nowhere, could remove it. On a session cluster each job loads the driver in its own
 * class loader, so an ended job whose loader initialized the driver (also without opening a DuckDB database, e.g. in
 * DriverManager's JVM-wide driver scan) would leave its loader and its classes' metaspace (about 26 MB) behind (a heap
 * dump of the TaskManager: {@code class jdk.jfr.internal.RequestEngine .static entries ->
 * RequestEngine$RequestHook.hook -> org.duckdb.DuckDBMemoryMonitor$$Lambda -> ChildFirstClassLoader}). A job that opens
 * a DuckDB database keeps its loader anyway, through the JNI references of DuckDB's native library (docs/OPERATIONS.md,
 * "A stopped job leaves nothing behind"). The hook only serves DuckDB's opt-in JFR memory events ({@code
 * jdbc_jfr_memory_monitor}), which the engine never turns on: marking the monitor as already initialized before the
 * driver class initializes skips the registration.
 */
public final class DuckDbJfrHook {
    private static final Logger LOG = LoggerFactory.getLogger(DuckDbJfrHook.class);
    private static final String MONITOR = "org.duckdb.DuckDBMemoryMonitor";

    private DuckDbJfrHook() {}

    /** Before this class's loader initializes DuckDB's driver (idempotent; a no-op once the driver has registered it). */
    public static void prevent() {
        prevent(DuckDbJfrHook.class.getClassLoader());
    }

    /**
     * Marks DuckDB's JFR memory monitor of {@code loader} as initialized, so that the driver's static initializer does
     * not register its hook; false if this DuckDB version has no such monitor (nothing to prevent) or it could not be set.
     */
    static boolean prevent(ClassLoader loader) {
        try {
            Class<?> monitor = Class.forName(MONITOR, true, loader);
            Field initialized = monitor.getDeclaredField("initialized");
            initialized.setAccessible(true);
            synchronized (monitor) { // the monitor's init() is static synchronized
                initialized.setBoolean(null, true);
            }
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug("DuckDB's JFR memory hook left as it is ({}): an ended job's class loader may stay alive", e.toString());
            return false;
        }
    }
}
