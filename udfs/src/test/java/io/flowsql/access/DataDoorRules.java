package io.flowsql.access;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.elements.GivenClassesConjunction;
import io.flowsql.sql.ValueIndex;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import java.util.List;

/**
 * The door rule of {@link DataDoorRuleTest} for the modules around udfs (console, benchmarks; this class ships in the
 * udfs test-jar): outside the packages a module names, no class calls an executor, a catalog's schemas or a value index
 * ({@link DataDoorRuleTest#BYPASSES_THE_DOOR}), nor keeps one in a field or takes one in a constructor. Each module's
 * test states why its allowed packages need the engine itself.
 */
public final class DataDoorRules {
    /** What only the room (and the code that builds it) may hold. */
    public static final List<Class<?>> DATA = List.of(SafeExecutor.class, SchemaCatalog.class,
            CachingValueIndexProvider.class, ValueIndex.class);

    private DataDoorRules() {
    }

    /**
     * The main classes of {@code module} (a package, e.g. {@code io.flowsql.console}) with the SQL layer and the room,
     * so that an executor's implementations are known as executors.
     */
    public static JavaClasses importModule(String module) {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(module, "io.flowsql.sql", "io.flowsql.access");
    }

    /** No class of {@code module} outside {@code allowed} runs SQL, reads a schema or looks values up without a door. */
    public static ArchRule noBypass(String module, String... allowed) {
        return inModuleOutside(module, allowed).should()
                .callMethodWhere(DataDoorRuleTest.BYPASSES_THE_DOOR)
                .because("data is reached only through a DataDoor (an evaluation may use an operator's door)");
    }

    /** No class of {@code module} outside {@code allowed} keeps an executor, a catalog or a value index. */
    public static ArchRule noHolder(String module, String... allowed) {
        return inModuleOutside(module, allowed).should(HOLD_DATA)
                .because("a class that holds the data could reach it without a door");
    }

    private static GivenClassesConjunction inModuleOutside(String module, String... allowed) {
        return noClasses().that().resideInAPackage(module + "..").and().resideOutsideOfPackages(allowed);
    }

    /** Satisfied by each field or constructor parameter of a data type (so {@code noClasses()} reports each one). */
    static final ArchCondition<JavaClass> HOLD_DATA =
            new ArchCondition<>("hold an executor, a catalog or a value index (field or constructor parameter)") {
                @Override
                public void check(JavaClass item, ConditionEvents events) {
                    boolean holds = false;
                    for (JavaField field : item.getFields()) {
                        if (isData(field.getRawType())) {
                            holds = true;
                            events.add(SimpleConditionEvent.satisfied(field, field.getFullName() + " holds "
                                    + field.getRawType().getSimpleName() + " in " + item.getSourceCodeLocation()));
                        }
                    }
                    for (JavaConstructor constructor : item.getConstructors()) {
                        for (JavaClass parameter : constructor.getRawParameterTypes()) {
                            if (isData(parameter)) {
                                holds = true;
                                events.add(SimpleConditionEvent.satisfied(constructor, constructor.getFullName()
                                        + " takes " + parameter.getSimpleName() + " in "
                                        + item.getSourceCodeLocation()));
                            }
                        }
                    }
                    if (!holds) {
                        events.add(SimpleConditionEvent.violated(item, item.getName() + " holds no data"));
                    }
                }
            };

    private static boolean isData(JavaClass type) {
        return DATA.stream().anyMatch(type::isAssignableTo);
    }
}
