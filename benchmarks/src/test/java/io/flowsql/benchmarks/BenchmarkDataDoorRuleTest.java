package io.flowsql.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import io.flowsql.access.DataDoorRules;
import io.flowsql.access.DataDoors;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.exec.SafeExecutor;
import org.junit.jupiter.api.Test;

/**
 * The benchmarks reach data through a door too ({@link DataDoorRules}, udfs' rule): scoring, gold checks, judges'
 * schemas and learning measurements run SQL and read schemas through the operator's door of each database
 * ({@link DataDoors#operator}: an evaluation serves no tenant). Only the packages below touch the engine itself.
 */
class BenchmarkDataDoorRuleTest {
    private static final String MODULE = "io.flowsql.benchmarks";

    /** The packages that need the engine itself, and why. */
    static final String[] RAW_ENGINE = {
        // per-engine targets and database loaders: they create, fill and set up (PostgreSQL roles, DuckDB files,
        // MariaDB) the databases a room is later made of
        "io.flowsql.benchmarks.engine..",
        // benchmarks of the SQL layer itself: the value index implementations, the executor's time limit on slow SQL,
        // a million-value database; they measure the parts the door is built from
        "io.flowsql.benchmarks.sql..",
        // retrieval over a warehouse made in memory from many databases (one merged schema and one value index with no
        // database id a door could name) or loaded into PostgreSQL and read back from its catalog
        "io.flowsql.benchmarks.retrieval..",
    };

    private static final JavaClasses BENCHMARKS = DataDoorRules.importModule(MODULE);

    @Test
    void benchmarksRunSqlAndReadSchemasThroughADoor() {
        DataDoorRules.noBypass(MODULE, RAW_ENGINE).check(BENCHMARKS);
    }

    @Test
    void onlyTheRawEnginePackagesHoldAnExecutorACatalogOrAValueIndex() {
        DataDoorRules.noHolder(MODULE, RAW_ENGINE).check(BENCHMARKS);
    }

    /** The rules bite: a scorer that keeps an executor, takes a catalog and calls both is reported three times over. */
    @Test
    void theRulesCatchAPlantedBypass() {
        JavaClasses planted = new ClassFileImporter().importClasses(PlantedScorer.class);
        EvaluationResult calls = DataDoorRules.noBypass(MODULE, RAW_ENGINE).evaluate(planted);
        assertThat(calls.getFailureReport().getDetails())
                .anyMatch(d -> d.contains("SafeExecutor.execute")).anyMatch(d -> d.contains("SchemaCatalog.schema"));
        EvaluationResult holds = DataDoorRules.noHolder(MODULE, RAW_ENGINE).evaluate(planted);
        assertThat(holds.getFailureReport().getDetails())
                .anyMatch(d -> d.contains("PlantedScorer.executor holds SafeExecutor"))
                .anyMatch(d -> d.contains("takes SchemaCatalog"));
    }

    /** What the rules must catch (test code: not imported by the rules above). */
    static final class PlantedScorer {
        private final SafeExecutor executor;
        private final SchemaCatalog catalog;

        PlantedScorer(SafeExecutor executor, SchemaCatalog catalog) {
            this.executor = executor;
            this.catalog = catalog;
        }

        Object score(String db) {
            executor.execute(db, "SELECT 1");
            return catalog.schema(db);
        }
    }
}
