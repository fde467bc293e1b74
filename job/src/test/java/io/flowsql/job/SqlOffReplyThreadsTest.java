package io.flowsql.job;

import io.flowsql.devstack.KafkaBrokerExtension;
import io.flowsql.engine.EngineConfig;
import io.flowsql.engine.EngineFactory;
import io.flowsql.engine.EngineLease;
import io.flowsql.engine.StageRegistry;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionMapper;
import io.flowsql.job.journal.KafkaJournalSource;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.oracle.GoldSqlOracle;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.exec.StatementThreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SQL never runs on a thread that completes model calls. The engine as the job builds it ({@link EngineFactory#shared})
 * with the stage journal on a real broker (so every reply first resumes on the journal's acknowledgement thread)
 * calls the simulated LLM over HTTP, and every stage of every preset runs as the stage operators run it (each on the
 * engine's work pool, {@link NamedStage#applyOn}). The oracle's SQL is corrupted for a third of the calls, so the
 * stages that run SQL on a model reply all do: MAG-SQL's sub-SQL refiner, the linker's soft schema, OpenSearch's
 * correction, MMSQL's refiner (and SQLFix's refiner when its review flags). {@link StatementThreads} records the thread of every
 * statement: only the work pool may appear, never {@code flowsql-llm-callback-N} nor {@code stage-journal-acks}
 * (where these statements ran before the fix).
 */
class SqlOffReplyThreadsTest {
    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @Test
    void everyStatementOfEveryPresetRunsOnTheWorkPoolWithTheJournalOn() throws Exception {
        Path sharedData = Path.of(System.getProperty("flowsql.shared.data"));
        GoldSqlOracle oracle = GoldSqlOracle.load(sharedData.resolve("spider/dev.json"), sharedData.resolve("cosql/cosql_dev.json"));
        List<QuestionEvent> questions = SpiderQuestions.of(sharedData, "concert_singer", 3);
        long forbiddenBefore = StatementThreads.onForbiddenThreads();
        StatementThreads.forgetKinds();
        try (SimulatedLlmServer llm = SimulatedLlmServer.start(SimulatorConfig.builder().port(0)
                     .latency(LatencyModel.fixed(20)).responders(AgentResponders.all()).oracle(oracle)
                     .errorInjector(SqlErrorInjector.uniform(0.35, 11)).seed(5).build());
             EngineLease lease = EngineFactory.shared(EngineConfig.of(
                     LlmClientConfig.builder(llm.baseUrl()).defaultModel("sim").callTimeout(Duration.ofSeconds(10))
                             .totalBudget(Duration.ofSeconds(30)).build(),
                     DatabaseLocator.forSharedData(sharedData), "full")
                     .withJournal(new KafkaJournalSource(KAFKA.bootstrapServers(), "journal-threads", Duration.ofHours(1))))) {
            List<CompletableFuture<RequestContext>> runs = new ArrayList<>();
            for (String preset : StageRegistry.presetNames()) {
                if (StageRegistry.FULL.equals(preset)) {
                    continue;
                }
                for (QuestionEvent q : questions) {
                    RequestContext ctx = QuestionMapper.toContext(q, "test", System.currentTimeMillis());
                    ctx.requestId = preset + "-" + q.requestId;
                    ctx.strategy = preset;
                    runs.add(run(lease, preset, ctx));
                }
            }
            List<String> stagesRun = new ArrayList<>();
            for (CompletableFuture<RequestContext> run : runs) {
                RequestContext done = run.get(120, TimeUnit.SECONDS);
                done.trace.forEach(t -> stagesRun.add(t.stage));
            }
            assertThat(StatementThreads.kindsSeen()).as("the threads statements ran on (before: stage-journal-acks)")
                    .isNotEmpty().allSatisfy(kind -> assertThat(kind).startsWith("flowsql-work-"));
            assertThat(StatementThreads.onForbiddenThreads() - forbiddenBefore)
                    .as("statements on a callback or journal thread").isZero();
            assertThat(stagesRun).as("the stages that run SQL on a model reply ran")
                    .contains("magsql.link", "magsql.generate", "opensearch.correct", "mmsql.refine");
            assertThat(llm.requestCount()).isGreaterThan(runs.size());
        }
    }

    /** The preset's stages one after another, each started on the engine's work pool as a stage operator starts it. */
    private static CompletableFuture<RequestContext> run(EngineLease lease, String preset, RequestContext ctx) {
        CompletableFuture<RequestContext> chain = CompletableFuture.completedFuture(ctx);
        for (var declaration : StageRegistry.stagesOf(preset)) {
            NamedStage stage = lease.runtime().stage(declaration.name());
            if (stage != null) {
                chain = chain.thenCompose(c -> stage.appliesTo(c) ? stage.applyOn(lease.runtime().work(), c)
                        : CompletableFuture.completedFuture(c));
            }
        }
        return chain;
    }
}
