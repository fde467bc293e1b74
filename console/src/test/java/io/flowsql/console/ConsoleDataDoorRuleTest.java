package io.flowsql.console;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.exec.SafeExecutor;
import org.junit.jupiter.api.Test;

/** The console reaches data only through a {@code DataDoor} for the caller's tenant: no executor or catalog call. */
class ConsoleDataDoorRuleTest {
    @Test
    void theConsoleNeverCallsAnExecutorOrACatalog() {
        JavaClasses console = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.flowsql.console");
        noClasses().that().resideInAPackage("io.flowsql.console..")
                .should().accessClassesThat().areAssignableTo(SafeExecutor.class)
                .orShould().accessClassesThat().areAssignableTo(SchemaCatalog.class)
                .because("the console runs SQL and reads schemas through the door of the caller's tenant")
                .check(console);
    }
}
