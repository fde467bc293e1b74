package io.flowsql.simulator;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The simulator's packages form no cycle: the root package (the server, its config, requests and the prefix cache)
 * uses {@code oracle} (gold SQL, error injection), which uses nothing of the simulator; {@code agents} and
 * {@code replay} (responders) use the root; only {@code cli} (the command line) puts them all together.
 */
class SimulatorPackagesTest {

    @Test
    void noPackageCycles() throws URISyntaxException {
        Path classes = Path.of(SimulatedLlmServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        JavaClasses simulator = new ClassFileImporter().importPath(classes);
        slices().matching("io.flowsql.(**)").should().beFreeOfCycles().check(simulator);
    }
}
