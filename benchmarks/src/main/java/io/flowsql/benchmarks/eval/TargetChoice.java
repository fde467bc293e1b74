package io.flowsql.benchmarks.eval;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.target.TargetDatabases;
import io.flowsql.sql.engine.DatabaseEngine;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/** The engine the benchmark's databases are asked on, shared by {@code score} and {@code run}. */
public final class TargetChoice {

    @Option(names = "--target", description = "The engine the questions are asked on and the "
            + "predictions run on: sqlite (default), postgres, duckdb or mariadb. The gold still runs on SQLite, where Spider "
            + "defines it; the benchmark's databases are loaded into the engine (or taken from --target-databases)")
    String target;

    @Option(names = "--target-databases", description = "Job options declaring the target's copies of the databases "
            + "(databases.<db>.url=..., one a line), e.g. work/postgres/databases.properties of deploy/postgres-start.sh; "
            + "without it the databases are loaded into a PostgreSQL started here or into DuckDB files under --target-work")
    Path targetDatabases;

    @Option(names = "--target-work", defaultValue = "work/eval-target", description = "Folder for the loaded copies "
            + "(DuckDB files, PostgreSQL's data directory and its reader's secret); default ${DEFAULT-VALUE}")
    Path work;

    DatabaseEngine engine() {
        return target == null ? DatabaseEngine.embedded() : DatabaseEngine.parse(target);
    }

    boolean onSqlite() {
        return !engine().jdbc();
    }

    /** The target's copies of the databases of {@code bench}'s runnable questions (loaded, or declared in the file). */
    TargetDatabases open(Benchmark bench, int poolSize) {
        Set<String> dbs = new LinkedHashSet<>();
        for (BenchmarkItem item : bench.runnableItems()) {
            dbs.add(item.dbId());
        }
        return targetDatabases != null ? TargetDatabases.declaredIn(targetDatabases, engine(), dbs)
                : TargetDatabases.load(engine(), bench.databaseRoot(), dbs, work.toAbsolutePath(), poolSize);
    }
}
