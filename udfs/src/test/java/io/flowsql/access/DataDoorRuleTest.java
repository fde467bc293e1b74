package io.flowsql.access;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.sqlfix.RepairMemory;
import io.flowsql.retrieval.EmbeddingRetriever;
import io.flowsql.sql.ValueIndex;
import io.flowsql.sql.catalog.SchemaCatalog;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One door to data: outside {@code io.flowsql.access} (the room and its doors) and the SQL layer itself (the engine
 * internals: executors, catalogs, value indexes, the schema renderer's example rows over a schema a door already cut)
 * no class runs SQL on an executor, reads a schema from a catalog or looks values up in a value index, and only those
 * and the engine's wiring (which builds the room) hold any of them. A stage, an agent, the feedback check or a Flink function that called one directly would be a way to
 * data that never names its tenant; here it fails the build.
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

    @Test
    void onlyTheRoomAndTheWiringHoldAnExecutorACatalogOrAValueIndex() {
        String[] mayHold = {"io.flowsql.access..", "io.flowsql.sql..", "io.flowsql.engine"};
        for (Class<?> data : new Class<?>[] {SafeExecutor.class, SchemaCatalog.class, CachingValueIndexProvider.class,
                ValueIndex.class}) {
            fields().that().haveRawType(data).should().beDeclaredInClassesThat().resideInAnyPackage(mayHold)
                    .allowEmptyShould(true).check(UDFS);
        }
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

    /**
     * Who may hold what a tenant's examples, repairs and embeddings are chosen from. Not yet the door alone (issue 35):
     * the engine's wiring ({@code StageParts}) builds them and the stages below hold what they are handed; each of
     * these still chooses through the asker's door ({@link #examplesAndRepairsAreChosenThroughTheAsker}). The list is
     * frozen: a new holder fails here until it takes what it needs from a door.
     */
    static final String[] LEARNED_HOLDERS = {
        "io.flowsql.engine.StageParts",
        "io.flowsql.agents.sqlfix.SqlRefiner",
        "io.flowsql.agents.opensearch.align.model.ModelAligner",
        "io.flowsql.agents.opensearch.FreshGeneration",
        "io.flowsql.agents.opensearch.extract.RetrievalStage",
        "io.flowsql.agents.opensearch.OpenSearchGenerateStage",
        "io.flowsql.agents.opensearch.fewshot.FewShotStage",
        "io.flowsql.knowledge.SimilarKnowledge",
    };

    static ArchRule learnedHeldOnlyBy(Class<?> type) {
        return fields().that().haveRawType(type).should().beDeclaredInClassesThat(DescribedPredicate.describe(
                        "a frozen holder or the type itself",
                        (JavaClass c) -> List.of(LEARNED_HOLDERS).contains(c.getName()) || c.isEquivalentTo(type)))
                .allowEmptyShould(true);
    }

    @Test
    void noNewClassHoldsAnExampleLibraryARepairMemoryOrAnEmbeddingRetriever() {
        for (Class<?> learned : new Class<?>[] {ExampleLibrary.class, RepairMemory.class, EmbeddingRetriever.class}) {
            learnedHeldOnlyBy(learned).check(UDFS);
        }
    }

    /** The holder rule bites: a class outside the frozen list that keeps an example library is reported. */
    @Test
    void theHolderRuleCatchesANewHolder() {
        EvaluationResult result = learnedHeldOnlyBy(ExampleLibrary.class)
                .evaluate(new ClassFileImporter().importClasses(NewHolder.class));
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails()).anyMatch(d -> d.contains("NewHolder.library"));
    }

    /** A stage that keeps its own library: what the holder rule must catch. */
    static final class NewHolder {
        final ExampleLibrary library = new ExampleLibrary(List.of());
    }

    /** What the rule must catch (test code, not imported by the other rules). */
    static final class Bypass {
        Object read(SchemaCatalog catalog, SafeExecutor executor, CachingValueIndexProvider values) {
            executor.execute("db", "SELECT 1");
            values.forDatabase("db").find("a hidden value", 5);
            new ExampleLibrary(List.of()).similar("q", "db", "q", 3);
            RepairMemory.inMemory().similar("q", "SELECT 1", 3);
            return catalog.schema("db");
        }
    }
}
