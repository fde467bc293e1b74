package io.flowsql.engine;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;

/**
 * What a job's classes leave in the JVM's own statics, released when the last engine of the job closes, so a
 * TaskManager of a session cluster can drop the job's class loader (and its metaspace) once the job ends. The SQLite
 * driver registers itself with {@link DriverManager} when its class loads; the JVM-wide driver list would then hold an
 * object of the job's class loader for the life of the TaskManager. The engine opens connections through the driver
 * itself, never through {@code DriverManager}, so deregistering costs nothing, also when the same loader builds an
 * engine again (a restart of the job's tasks).
 */
final class LoaderRelease {
    private static final Logger LOG = LoggerFactory.getLogger(LoaderRelease.class);

    private LoaderRelease() {}

    /**
     * Deregisters every JDBC driver this job's class loader registered, and takes this loader away from the TaskManager's
     * shared threads that hold it as their context class loader.
     */
    static void run() {
        ClassLoader ours = LoaderRelease.class.getClassLoader();
        if (ours == ClassLoader.getSystemClassLoader()) {
            return; // not a job's own loader (tests, a local run): nothing to release, and the JVM's other users keep the driver
        }
        int threads = releaseSharedThreads(ours, ours.getParent());
        if (threads > 0) {
            LOG.info("{} shared TaskManager thread(s) held this job's class loader as their context class loader: released", threads);
        }
        for (Driver driver : registeredDrivers(ours.getParent())) {
            // the engine opens every connection through the driver class itself (SQLite, DuckDB, HikariCP given the
            // PostgreSQL driver's class name), never through DriverManager, so a restart of the job's tasks needs none
            if (driver.getClass().getClassLoader() == ours) {
                try {
                    DriverManager.deregisterDriver(driver);
                    LOG.debug("deregistered JDBC driver {} of this job's class loader", driver.getClass().getName());
                } catch (SQLException | SecurityException e) {
                    LOG.warn("could not deregister JDBC driver {}: {}", driver.getClass().getName(), e.toString());
                }
            }
        }
    }

    /**
     * The drivers DriverManager lists to this class, asked with {@code contextLoader} as the thread's context class
     * loader. The first use of DriverManager in a JVM loads and initializes every driver that the context class loader
     * lists as a service: asked with the job's loader, that is every driver in the job jar, DuckDB's among them, whose
     * static initializer registers a JFR hook nothing can remove (what kept the first job's loader of every TaskManager
     * alive: {@code RequestEngine.entries -> RequestHook.hook -> DuckDBMemoryMonitor$$Lambda -> ChildFirstClassLoader}).
     */
    static List<Driver> registeredDrivers(ClassLoader contextLoader) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(contextLoader);
        try {
            return Collections.list(DriverManager.getDrivers());
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * Flink's shared pools (the TaskManager's I/O threads, its actor dispatchers; named {@code flink-*}) create their
     * threads on demand with the context class loader of whichever thread asked first (Flink's ExecutorThreadFactory
     * does not set one), and a pool thread lives as long as the TaskManager: one created while a task of this job
     * handed it work would keep this job's loader, and its metaspace, after the job ended. Such threads get
     * {@code replacement} (the loader's parent, Flink's own) instead. The job's own threads end with it and are left alone.
     *
     * @return how many threads were changed
     */
    static int releaseSharedThreads(ClassLoader ours, ClassLoader replacement) {
        int released = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread != Thread.currentThread() && thread.getName().startsWith("flink-")
                    && thread.getContextClassLoader() == ours) {
                thread.setContextClassLoader(replacement);
                released++;
            }
        }
        return released;
    }
}
