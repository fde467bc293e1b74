package io.flowsql.sql.engine.duckdb;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DuckDB's driver loaded in a class loader of its own, as a job's loader on a session cluster loads it: once the job is
 * done with it (its driver deregistered, as the engine does at close), nothing may keep that loader alive. Without
 * {@link DuckDbJfrHook#prevent(ClassLoader)} the driver's static initializer leaves a JFR hook of its classes in the JVM
 * for good, and the loader is never collected.
 */
class DuckDbJfrHookTest {

    @Test
    void aLoaderThatInitializedDuckDbsDriverCanBeCollectedOnceItsDriverIsDeregistered() throws Exception {
        WeakReference<ClassLoader> loader = loadDuckDbDriverInItsOwnLoader();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (loader.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(100);
        }
        assertThat(loader.get()).as("the class loader that ran DuckDB's driver initializer, after GCs").isNull();
    }

    private static WeakReference<ClassLoader> loadDuckDbDriverInItsOwnLoader() throws Exception {
        URL duckdbJar = org.duckdb.DuckDBDriver.class.getProtectionDomain().getCodeSource().getLocation();
        try (IsolatedLoader loader = new IsolatedLoader(duckdbJar)) {
            assertThat(DuckDbJfrHook.prevent(loader)).as("the monitor marked as initialized").isTrue();
            Class<?> driver = Class.forName("org.duckdb.DuckDBDriver", true, loader);
            assertThat(driver.getClassLoader()).isSameAs(loader);
            // the driver registered itself with DriverManager; deregistered by a class of its loader, as LoaderRelease does
            ((Runnable) loader.define(DeregisterOwnDrivers.class).getDeclaredConstructor().newInstance()).run();
            return new WeakReference<>(loader);
        }
    }

    /** Defined in the isolated loader: deregisters the JDBC drivers of that loader (DriverManager checks the caller's). */
    public static final class DeregisterOwnDrivers implements Runnable {
        @Override
        public void run() {
            for (Driver d : Collections.list(DriverManager.getDrivers())) {
                if (d.getClass().getClassLoader() == getClass().getClassLoader()) {
                    try {
                        DriverManager.deregisterDriver(d);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
    }

    /** The DuckDB jar over the platform loader (java.sql, jdk.jfr), and classes of this test defined on demand. */
    private static final class IsolatedLoader extends URLClassLoader {
        IsolatedLoader(URL jar) {
            super(new URL[] {jar}, ClassLoader.getPlatformClassLoader());
        }

        Class<?> define(Class<?> ofTheTest) throws Exception {
            String resource = ofTheTest.getName().replace('.', '/') + ".class";
            try (InputStream in = DuckDbJfrHookTest.class.getClassLoader().getResourceAsStream(resource)) {
                byte[] bytes = in.readAllBytes();
                return defineClass(ofTheTest.getName(), bytes, 0, bytes.length);
            }
        }
    }
}
