package io.flowsql.access;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.exec.SafeExecutor;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One door to data: outside {@code io.flowsql.access} (the room and its doors) and the SQL layer itself (the engine
 * internals: executors, catalogs, the schema renderer's example rows over a schema a door already cut) no class runs
 * SQL on an executor or reads a schema from a catalog, and only those and the engine's wiring (which builds the room)
 * hold either. A stage, an agent, the feedback check or a Flink function that called one directly would be a way to
 * data that never names its tenant; here it fails the build.
 */
public class DataDoorRuleTest {
    private static final JavaClasses UDFS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.flowsql");

    /** A call that runs SQL or reads a schema without a door: the executor's {@code execute*}, the catalog's {@code schema}. */
    public static final DescribedPredicate<JavaMethodCall> BYPASSES_THE_DOOR = new DescribedPredicate<>(
            "runs SQL on an executor or reads a schema from a catalog") {
        @Override
        public boolean test(JavaMethodCall call) {
            JavaClass owner = call.getTargetOwner();
            String name = call.getName();
            return owner.isAssignableTo(SafeExecutor.class) && name.startsWith("execute")
                    || owner.isAssignableTo(SchemaCatalog.class) && name.equals("schema");
        }
    };

    /** The room's own package and the SQL layer under it. */
    private static final String[] INSIDE = {"io.flowsql.access..", "io.flowsql.sql.."};

    @Test
    void onlyTheRoomRunsSqlOrReadsSchemas() {
        noClasses().that().resideOutsideOfPackages(INSIDE).should().callMethodWhere(BYPASSES_THE_DOOR)
                .because("data is reached only through a DataDoor for a tenant").check(UDFS);
    }

    @Test
    void onlyTheRoomAndTheWiringHoldAnExecutorOrACatalog() {
        String[] mayHold = {"io.flowsql.access..", "io.flowsql.sql..", "io.flowsql.engine"};
        fields().that().haveRawType(SafeExecutor.class).should().beDeclaredInClassesThat().resideInAnyPackage(mayHold)
                .check(UDFS);
        fields().that().haveRawType(SchemaCatalog.class).should().beDeclaredInClassesThat().resideInAnyPackage(mayHold)
                .check(UDFS);
    }

    /** The rule bites: a class that reads a schema straight from a catalog is reported. */
    @Test
    void theRuleCatchesADirectRead() {
        JavaClasses bypass = new ClassFileImporter().importClasses(Bypass.class);
        EvaluationResult result = noClasses().that().resideOutsideOfPackages("io.flowsql.sql..")
                .should().callMethodWhere(BYPASSES_THE_DOOR).evaluate(bypass);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails()).anyMatch(d -> d.contains("SchemaCatalog.schema"));
        assertThat(result.getFailureReport().getDetails()).anyMatch(d -> d.contains("SafeExecutor.execute"));
    }

    /** What the rule must catch (test code, not imported by the other rules). */
    static final class Bypass {
        Object read(SchemaCatalog catalog, SafeExecutor executor) {
            executor.execute("db", "SELECT 1");
            return catalog.schema("db");
        }
    }
}
