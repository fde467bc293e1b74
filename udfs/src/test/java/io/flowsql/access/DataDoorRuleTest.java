package io.flowsql.access;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.sqlfix.RepairMemory;
import io.flowsql.retrieval.EmbeddingRetriever;
import io.flowsql.sql.ValueIndex;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One door to data: outside {@code io.flowsql.access} (the room and its doors) and the SQL layer itself (the engine
 * internals: executors, catalogs, value indexes, the schema renderer's example rows over a schema a door already cut)
 * no class runs SQL on an executor, reads a schema from a catalog or looks values up in a value index, and only those
 * and the engine's wiring (which builds the room) hold any of them. What was learned over the data (the example
 * library, the repair memory, the embedding retriever) is held by the room alone and reached through a door
 * ({@link Scoped}). A stage, an agent, the feedback check or a Flink function that called one directly would be a way
 * to data that never names its tenant; here it fails the build.
 */
public class DataDoorRuleTest {
    private static final JavaClasses UDFS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.flowsql");

    /**
     * A call that runs SQL, reads a schema or looks values up without a door: the executor's {@code execute*}, the
     * catalog's {@code schema}, the value indexes' {@code forDatabase} and {@code find}.
     */
    public static final DescribedPredicate<JavaMethodCall> BYPASSES_THE_DOOR = new DescribedPredicate<>(
            "runs SQL on an executor, reads a schema from a catalog or looks values up in a value index") {
        @Override
        public boolean test(JavaMethodCall call) {
            JavaClass owner = call.getTargetOwner();
            String name = call.getName();
            return owner.isAssignableTo(SafeExecutor.class) && name.startsWith("execute")
                    || owner.isAssignableTo(SchemaCatalog.class) && name.equals("schema")
                    || owner.isAssignableTo(CachingValueIndexProvider.class) && name.equals("forDatabase")
                    || owner.isAssignableTo(ValueIndex.class) && name.equals("find");
        }
    };

    /** The room's own package and the SQL layer under it. */
    private static final String[] INSIDE = {"io.flowsql.access..", "io.flowsql.sql.."};

    @Test
    void onlyTheRoomRunsSqlOrReadsSchemas() {
        noClasses().that().resideOutsideOfPackages(INSIDE).should().callMethodWhere(BYPASSES_THE_DOOR)
                .because("data is reached only through a DataDoor for a tenant").check(UDFS);
    }

    /**
     * A choice of few-shot examples or remembered repairs without the asker's filter (the {@code similar} overloads
     * that take no {@code Predicate}, which is {@code DataDoor.mayShow} in the stages): a library learned from one
     * tenant's SQL would show it to another.
     */
    public static final DescribedPredicate<JavaMethodCall> CHOOSES_UNFILTERED = new DescribedPredicate<>(
            "chooses few-shot examples or repairs without the asker's filter") {
        @Override
        public boolean test(JavaMethodCall call) {
            JavaClass owner = call.getTargetOwner();
            List<JavaClass> parameters = call.getTarget().getRawParameterTypes();
            return (owner.isEquivalentTo(ExampleLibrary.class) || owner.isEquivalentTo(RepairMemory.class))
                    && call.getName().equals("similar")
                    && (parameters.isEmpty() || !parameters.get(parameters.size() - 1).isEquivalentTo(Predicate.class));
        }
    };

    @Test
    void examplesAndRepairsAreChosenThroughTheAsker() {
        noClasses().that().doNotBelongToAnyOf(ExampleLibrary.class, RepairMemory.class)
                .should().callMethodWhere(CHOOSES_UNFILTERED)
                .because("an example or repair is shown only when the asker's door may show its SQL").check(UDFS);
    }

    @Test
    void theLibraryRuleCatchesAnUnfilteredChoice() {
        EvaluationResult result = noClasses().should().callMethodWhere(CHOOSES_UNFILTERED)
                .evaluate(new ClassFileImporter().importClasses(Bypass.class));
        assertThat(result.getFailureReport().getDetails())
                .anyMatch(d -> d.contains("ExampleLibrary.similar")).anyMatch(d -> d.contains("RepairMemory.similar"));
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
        assertThat(result.getFailureReport().getDetails())
                .anyMatch(d -> d.contains("CachingValueIndexProvider.forDatabase"))
                .anyMatch(d -> d.contains("ValueIndex.find"));
    }

    /** The room's package. */
    static final String ROOM = "io.flowsql.access";

    /** The data: an executor, a catalog, the value indexes (the room and the SQL layer under it may hold them). */
    static final List<Class<?>> DATA = List.of(SafeExecutor.class, SchemaCatalog.class,
            CachingValueIndexProvider.class, ValueIndex.class);
    /** What was learned over the data: held by the room alone, seen by a stage only through a door ({@link Scoped}). */
    static final List<Class<?>> LEARNED = List.of(ExampleLibrary.class, RepairMemory.class, EmbeddingRetriever.class);

    /**
     * Whether {@code c} may hold or use {@code type}: the room ({@code room}: {@value #ROOM}), the engine's wiring
     * ({@code io.flowsql.engine}, which builds the room), the SQL layer for the data itself, and a learned type's own
     * class with its nested views.
     */
    static boolean mayHold(JavaClass c, Class<?> type, String room) {
        String pkg = c.getPackageName();
        return pkg.equals(room) || pkg.startsWith(room + ".") || pkg.equals("io.flowsql.engine")
                || DATA.contains(type) && (pkg.equals("io.flowsql.sql") || pkg.startsWith("io.flowsql.sql."))
                || LEARNED.contains(type) && (c.isEquivalentTo(type)
                        || c.getEnclosingClass().map(e -> e.isEquivalentTo(type)).orElse(false));
    }

    /**
     * Every place outside the room and the wiring that holds one of the seven types: a field, a constructor parameter,
     * a call that hands one out (such as {@code Engine.sql()}), and for the learned types also a method parameter or a
     * call of a constructor or an instance method. The data's reading calls are {@link #BYPASSES_THE_DOOR}.
     */
    static List<String> strayHolders(JavaClasses classes, String room) {
        List<String> stray = new ArrayList<>();
        for (JavaClass c : classes) {
            for (Class<?> type : Stream.concat(DATA.stream(), LEARNED.stream()).toList()) {
                if (mayHold(c, type, room)) {
                    continue;
                }
                c.getFields().stream().filter(f -> f.getRawType().isAssignableTo(type))
                        .forEach(f -> stray.add("field " + f.getFullName()));
                c.getConstructors().stream().filter(k -> takes(k, type))
                        .forEach(k -> stray.add("constructor " + k.getFullName()));
                if (!LEARNED.contains(type)) {
                    c.getMethodCallsFromSelf().stream().filter(call -> call.getTarget().getRawReturnType().isAssignableTo(type))
                            .forEach(call -> stray.add("call " + call.getDescription()));
                    continue;
                }
                c.getMethods().stream().filter(m -> takes(m, type)).forEach(m -> stray.add("method " + m.getFullName()));
                Stream.<JavaCall<?>>concat(c.getMethodCallsFromSelf().stream(), c.getConstructorCallsFromSelf().stream()).filter(call -> call.getTargetOwner().isAssignableTo(type))
                        .filter(call -> uses(call.getTarget(), type))
                        .forEach(call -> stray.add("call " + call.getDescription()));
            }
        }
        return stray;
    }

    private static boolean takes(JavaCodeUnit unit, Class<?> type) {
        return unit.getRawParameterTypes().stream().anyMatch(p -> p.isAssignableTo(type));
    }

    /** A constructor, an instance method, or a static factory of {@code type}: what hands one out or asks it. */
    private static boolean uses(AccessTarget.CodeUnitCallTarget target, Class<?> type) {
        return target.getName().equals("<init>")
                || target.resolveMember().map(m -> !m.getModifiers().contains(JavaModifier.STATIC)
                        || m.getRawReturnType().isAssignableTo(type)).orElse(true);
    }

    @Test
    void onlyTheRoomAndTheWiringHoldTheDataOrWhatWasLearnedFromIt() {
        assertThat(strayHolders(UDFS, ROOM)).as("holders outside the room (they should take a DataDoors and ask a door)")
                .isEmpty();
    }

    /**
     * The holder rule bites: a class that keeps a library, takes a catalog, gets an executor from the engine or asks a
     * memory itself is reported.
     */
    @Test
    void theHolderRuleCatchesANewHolder() {
        // the planted classes sit in the room's package, so the rule is asked of a room elsewhere
        List<String> stray = strayHolders(new ClassFileImporter().importClasses(NewHolder.class, Bypass.class),
                "io.flowsql.elsewhere");
        assertThat(stray).anyMatch(d -> d.startsWith("field ") && d.contains("NewHolder.library"))
                .anyMatch(d -> d.startsWith("field ") && d.contains("NewHolder.retriever"))
                .anyMatch(d -> d.startsWith("constructor ") && d.contains("NewHolder.<init>(" + SchemaCatalog.class.getName()))
                .anyMatch(d -> d.startsWith("method ") && d.contains("Bypass.read"))
                .anyMatch(d -> d.startsWith("call ") && d.contains("RepairMemory.similar"))
                .anyMatch(d -> d.startsWith("call ") && d.contains("RepairMemory.inMemory"))
                .anyMatch(d -> d.startsWith("call ") && d.contains("ExampleLibrary.<init>"))
                .anyMatch(d -> d.startsWith("call ") && d.contains("Engine.sql()"));
    }

    /** A stage that keeps its own library and retriever and is built from a catalog: what the holder rule must catch. */
    static final class NewHolder {
        final ExampleLibrary library = new ExampleLibrary(List.of());
        final EmbeddingRetriever retriever = null;

        NewHolder(SchemaCatalog catalog) {
        }
    }

    /** What the rule must catch (test code, not imported by the other rules). */
    static final class Bypass {
        Object read(SchemaCatalog catalog, SafeExecutor executor, CachingValueIndexProvider values, RepairMemory memory,
                    io.flowsql.engine.Engine engine) {
            executor.execute("db", "SELECT 1");
            values.forDatabase("db").find("a hidden value", 5);
            new ExampleLibrary(List.of()).similar("q", "db", "q", 3);
            RepairMemory.inMemory().similar("q", "SELECT 1", 3);
            engine.sql().close();
            return catalog.schema("db");
        }
    }
}
