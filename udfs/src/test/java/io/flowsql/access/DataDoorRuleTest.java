package io.flowsql.access;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.exec.SafeExecutor;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Who may hold an executor or a catalog (a ratchet towards one door per database and tenant): the SQL layer itself,
 * the engine that builds the parts, {@code StageSql} (the door for model-written SQL) and the few holders named here,
 * each with its reason. A new field of either type anywhere else (a stage, an agent, the feedback check, a Flink
 * function) fails here: it would be a way to data that does not pass the tenant's gate.
 */
class DataDoorRuleTest {
    private static final JavaClasses UDFS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.flowsql");

    /** Holders outside the SQL layer and the engine, and why each may. */
    private static final Set<String> KNOWN = Set.of(
            "io.flowsql.pipeline.StageSql",                   // the door: every statement passes the tenant's gate
            "io.flowsql.agents.common.SchemaContext",         // the catalog, cut to the tenant's visible tables
            "io.flowsql.agents.opensearch.OpenSearchAlignStage",  // the whole schema only without a SchemaContext (tests)
            "io.flowsql.agents.opensearch.fewshot.FewShotStage"); // masks schema names out of the question, shows none

    private static final DescribedPredicate<JavaClass> MAY_HOLD = new DescribedPredicate<>("the SQL layer, the engine, "
            + "StageSql or a known holder") {
        @Override
        public boolean test(JavaClass c) {
            String name = c.getName().replaceAll("\\$.*", "");
            return name.startsWith("io.flowsql.sql.") || name.startsWith("io.flowsql.engine.") || KNOWN.contains(name);
        }
    };

    @Test
    void onlyTheDoorAndTheSqlLayerHoldAnExecutorOrACatalog() {
        fields().that().haveRawType(SafeExecutor.class).should().beDeclaredInClassesThat(MAY_HOLD).check(UDFS);
        fields().that().haveRawType(SchemaCatalog.class).should().beDeclaredInClassesThat(MAY_HOLD).check(UDFS);
    }
}
