package io.flowsql.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import io.flowsql.access.DataDoorRules;
import io.flowsql.sql.ValueIndex;
import io.flowsql.sql.exec.SafeExecutor;
import org.junit.jupiter.api.Test;

/**
 * The console reaches data only through a {@code DataDoor} for the caller's tenant ({@link DataDoorRules}, udfs'
 * rule, with no exception): no class calls an executor, a catalog's schemas or a value index, or keeps one.
 */
class ConsoleDataDoorRuleTest {
    private static final String MODULE = "io.flowsql.console";
    private static final JavaClasses CONSOLE = DataDoorRules.importModule(MODULE);

    @Test
    void theConsoleNeverCallsAnExecutorACatalogOrAValueIndex() {
        DataDoorRules.noBypass(MODULE).check(CONSOLE);
    }

    @Test
    void theConsoleHoldsNoExecutorCatalogOrValueIndex() {
        DataDoorRules.noHolder(MODULE).check(CONSOLE);
    }

    /** The rules bite: a "Run" handler that keeps an executor and looks values up itself is reported. */
    @Test
    void theRulesCatchAPlantedRunner() {
        JavaClasses planted = new ClassFileImporter().importClasses(PlantedRunner.class);
        EvaluationResult calls = DataDoorRules.noBypass(MODULE).evaluate(planted);
        assertThat(calls.getFailureReport().getDetails())
                .anyMatch(d -> d.contains("SafeExecutor.execute")).anyMatch(d -> d.contains("ValueIndex.find"));
        EvaluationResult holds = DataDoorRules.noHolder(MODULE).evaluate(planted);
        assertThat(holds.getFailureReport().getDetails())
                .anyMatch(d -> d.contains("PlantedRunner.executor holds SafeExecutor"));
    }

    /** What the rules must catch (test code: not imported by the rules above). */
    static final class PlantedRunner {
        private final SafeExecutor executor;

        PlantedRunner(SafeExecutor executor) {
            this.executor = executor;
        }

        Object run(String db, String sql, ValueIndex values) {
            values.find("a hidden value", 5);
            return executor.execute(db, sql);
        }
    }
}
