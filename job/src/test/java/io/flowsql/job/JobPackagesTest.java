package io.flowsql.job;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The job module's packages form no cycle: the root package (the job graph, its options and their wiring, the Kafka
 * connectors built from them) uses {@code kafka} (serde, parsing), {@code topology} (the stages' chains) and
 * {@code journal}, and none of them reaches back into it. udfs' own packages are checked by udfs' DependencyRulesTest.
 */
class JobPackagesTest {

    @Test
    void noPackageCycles() throws URISyntaxException {
        Path classes = Path.of(FlowSqlJob.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        JavaClasses job = new ClassFileImporter().importPath(classes);
        slices().matching("io.flowsql.(**)").should().beFreeOfCycles().check(job);
    }
}
