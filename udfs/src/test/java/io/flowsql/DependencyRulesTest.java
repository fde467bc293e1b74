package io.flowsql;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.flowsql.sql.ExecutionResult;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Dependencies point one way: Flink functions → engine (stage wiring) → agents → pipeline contracts → SQL, LLM and
 * journal. A new import against that direction, a package cycle, one method's agents using another's, or a new
 * interface nobody gave a reason for fails here (module edges, such as udfs never seeing the job, Maven enforces).
 */
class DependencyRulesTest {
    private static final JavaClasses UDFS = mainClasses();

    /**
     * Every interface of the module's main code and why it is one; a new interface needs an entry (a second
     * implementation, a callback type, or an implementation outside this module), else inline it.
     */
    private static final Map<String, String> INTERFACES = Map.ofEntries(
            Map.entry("io.flowsql.pipeline.Stage", "about twenty stage classes"),
            Map.entry("io.flowsql.flink.EarlierAnswers", "the job's reader of the answers topic (RecentAnswers: udfs has no Kafka client) and tests' fixed sets"),
            Map.entry("io.flowsql.pipeline.Stage$Local", "the stages without a model call (vote, align, few-shot, execute, finalize)"),
            Map.entry("io.flowsql.llm.LlmClient", "the HTTP client, the recording/replaying cache around it, scripted clients in agent tests"),
            Map.entry("io.flowsql.journal.StageJournal", "the Kafka journal lives in the job module (udfs needs no Kafka client); NONE; an in-memory one in tests"),
            Map.entry("io.flowsql.journal.StageJournalSource", "opens the job module's Kafka journal where the engine runs; NONE"),
            Map.entry("io.flowsql.access.Scoped", "the room holds the example library, the repair memory and the embedding retriever (three implementations in agent packages the room may not depend on) and shows each through a door"),
            Map.entry("io.flowsql.sql.ValueIndex", "the trigram index the engine uses and the LCS scan it is checked and benchmarked against"),
            Map.entry("io.flowsql.agents.opensearch.align.AlignmentRule", "four alignment rules"),
            Map.entry("io.flowsql.sql.catalog.SchemaCatalog", "the SQLite catalog, the live JDBC catalog (PostgreSQL, DuckDB) and the routing one over both"),
            Map.entry("io.flowsql.sql.exec.SafeExecutor", "the SQLite executor, the JDBC executor (PostgreSQL, DuckDB) and the routing one over both"),
            Map.entry("io.flowsql.sql.engine.EngineProfile", "one profile per engine (SQLite, PostgreSQL, DuckDB): the engine's rules live only there"),
            Map.entry("io.flowsql.sql.retrieve.RelevanceScorer", "the lexical scorer, sums of scorers (plus), and the embedding scorer the OpenSearch-SQL work adds"));

    private static JavaClasses mainClasses() {
        try {
            Path classes = Path.of(ExecutionResult.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return new ClassFileImporter().importPath(classes);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void layersAreUsedFromAboveOnly() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Flink functions").definedBy("io.flowsql.flink..")
                .layer("Engine").definedBy("io.flowsql.engine..")
                .layer("Events").definedBy("io.flowsql.events..")
                .layer("Agents").definedBy("io.flowsql.agents..")
                .layer("Pipeline contracts").definedBy("io.flowsql.pipeline")
                .layer("SQL, LLM, journal").definedBy("io.flowsql.sql..", "io.flowsql.llm..", "io.flowsql.journal..")
                .whereLayer("Flink functions").mayNotBeAccessedByAnyLayer()
                .whereLayer("Engine").mayOnlyBeAccessedByLayers("Flink functions")
                .whereLayer("Events").mayOnlyBeAccessedByLayers("Flink functions")
                .whereLayer("Agents").mayOnlyBeAccessedByLayers("Engine")
                .whereLayer("Pipeline contracts").mayOnlyBeAccessedByLayers("Flink functions", "Engine", "Events", "Agents")
                .whereLayer("SQL, LLM, journal")
                .mayOnlyBeAccessedByLayers("Flink functions", "Engine", "Events", "Agents", "Pipeline contracts")
                .check(UDFS);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.flowsql.(**)").should().beFreeOfCycles().check(UDFS);
    }

    @Test
    void eachMethodsAgentsShareOnlyTheCommonPlatform() {
        slices().matching("io.flowsql.agents.(*)..").should().notDependOnEachOther()
                .ignoreDependency(alwaysTrue(), resideInAPackage("io.flowsql.agents.common.."))
                // MMSQL's refiner corrects with OpenSearch-SQL's execution-guided corrector, by design (docs/AGENTS.md)
                .ignoreDependency(resideInAPackage("io.flowsql.agents.mmsql.."), resideInAPackage("io.flowsql.agents.opensearch.correct.."))
                .check(UDFS);
        noClasses().that().resideInAPackage("io.flowsql.agents.common..")
                .should().dependOnClassesThat().resideInAnyPackage("io.flowsql.agents.magsql..", "io.flowsql.agents.mmsql..",
                        "io.flowsql.agents.opensearch..", "io.flowsql.agents.sqlfix..")
                .check(UDFS);
    }

    @Test
    void everyInterfaceHasAStatedReason() {
        TreeSet<String> unexplained = new TreeSet<>();
        for (JavaClass c : UDFS) {
            if (c.isInterface() && !c.isAnnotation() && !INTERFACES.containsKey(c.getName())) {
                unexplained.add(c.getName());
            }
        }
        assertThat(unexplained).as("interfaces without a reason in INTERFACES (one implementation? inline it)").isEmpty();
    }
}
