package io.flowsql.benchmarks.replay;

import io.flowsql.benchmarks.SmallInputs;
import io.flowsql.access.DataDoors;
import io.flowsql.agents.common.AgentSettings;
import io.flowsql.agents.opensearch.OpenSearchAlignStage;
import io.flowsql.agents.opensearch.align.model.ModelAligner;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import io.flowsql.benchmarks.eval.metrics.Accuracy;
import io.flowsql.benchmarks.eval.metrics.ExecutionAccuracy;
import io.flowsql.benchmarks.eval.metrics.ItemOutcome;
import io.flowsql.benchmarks.eval.score.Prediction;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.engine.Engine;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.pipeline.Pipeline;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Strategy;
import io.flowsql.engine.StageDeclaration;
import io.flowsql.engine.StageParts;
import io.flowsql.engine.StageRegistry;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.StageKind;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import io.flowsql.simulator.replay.PredictionFile;
import io.flowsql.simulator.replay.PredictionReplay;
import io.flowsql.simulator.replay.ReplayResponder;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.index.CachingValueIndexProvider;
import io.flowsql.sql.index.LcsValueScorer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * The self-consistency vote on real model output: the three published Spider dev prediction files are
 * replayed by the simulator as the n = 3 samples of {@code opensearch.generate}; the project's alignment,
 * execution and vote stages run on them over HTTP, and every figure is official-semantics EX (Spider's
 * test-suite comparison, the evaluation scorer's) on the dev questions whose database is present.
 * Usage: ReplayVoteBenchmark [shared-data-dir (default ../shared/data)] [prediction files... (default the three)]
 */
public final class ReplayVoteBenchmark {
    /** Questions under FLOWSQL_BENCH_SMALL. */
    private static final int SMALL_QUESTIONS = 20;
    private static final List<String> DEFAULT_FILES = List.of("DAIL-SQL+GPT-4.txt", "C3-ChatGPT.txt", "DIN-SQL-GPT-4.csv");

    public static void main(String[] args) throws Exception {
        Path data = Path.of(args.length > 0 ? args[0] : "../shared/data");
        List<Path> files = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            files.add(Path.of(args[i]));
        }
        if (files.isEmpty()) {
            DEFAULT_FILES.forEach(f -> files.add(data.resolve("predictions").resolve(f)));
        }
        new ReplayVoteBenchmark().run(data, files);
    }

    /**
     * The vote's figures before the model alignment (docs/AGENTS.md, rules only), printed beside this run's: without
     * alignment, and with the four rules (then the only alignment).
     */
    static final Map<String, String> BEFORE = Map.of(
            "vote over the 3, without alignment", "86.5%",
            "vote over the 3, with alignment by the rules", "84.1%");

    /** One row of the table. */
    record Row(String label, Accuracy ex) {
        String line() {
            String before = BEFORE.containsKey(label) ? " (before: " + BEFORE.get(label) + ")" : "";
            return String.format(Locale.ROOT, "| %s | %.1f%%%s | %d/%d |", label, ex.percent(), before, ex.correct(),
                    ex.total());
        }
    }

    List<Row> run(Path data, List<Path> files) throws Exception {
        Benchmark bench = new BenchmarkLoaders(data).load("spider-dev", null);
        if (SmallInputs.on()) {
            bench = bench.withItems(bench.runnableItems().stream().limit(SMALL_QUESTIONS).toList());
            SmallInputs.announce("the first " + SMALL_QUESTIONS + " runnable Spider dev questions");
        }
        DatabaseLocator locator = DatabaseLocator.forSharedData(data);
        List<Row> rows = new ArrayList<>();
        try (SafeExecutor executor = new SqliteSafeExecutor(locator, SqlExecutorConfig.defaults())) {
            Scorer scorer = new Scorer(DataDoors.open(executor, null), new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE), null);
            List<List<String>> perFile = new ArrayList<>();
            for (Path f : files) {
                List<String> sqls = PredictionFile.read(f).sqls();
                perFile.add(sqls);
                rows.add(new Row(f.getFileName() + " alone", ex(scorer, bench, byOrdinal(sqls))));
            }
            PredictionReplay replay = PredictionReplay.load(data.resolve("spider/dev.json"), files);
            SimulatedLlmServer server = SimulatedLlmServer.start(SimulatorConfig.builder()
                    .responders(ReplayResponder.over(AgentResponders.all(), replay)).recordRequests(false).build());
            try (server; OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(
                    LlmClientConfig.builder(server.baseUrl()).defaultModel("replay").callTimeout(Duration.ofSeconds(30))
                            .totalBudget(Duration.ofSeconds(60)).build()).build()) {
                Engine engine = new Engine(client, executor, new SqliteSchemaCatalog(locator),
                        CachingValueIndexProvider.ngram(locator, LcsValueScorer.defaults(), 8));
                for (Variant v : variants(files.size())) {
                    List<RequestContext> answered = answerAll(bench, StageParts.standard(engine, v.settings()), v.align());
                    for (int k = 0; v.perFile() && k < files.size(); k++) {
                        rows.add(new Row(files.get(k).getFileName() + " alone, " + v.label(),
                                ex(scorer, bench, candidateOf(answered, "opensearch#" + k))));
                    }
                    if (v.align() && OpenSearchAlignStage.MODEL.equals(v.settings().opensearchAlignMode)) {
                        System.out.println(alignmentCounts(answered));
                    }
                    rows.add(new Row("vote over the " + files.size() + ", " + v.label(),
                            ex(scorer, bench, answered.stream().map(c -> c.finalSql).toList())));
                }
            }
            rows.add(new Row("any of the " + files.size() + " right (upper bound of any choice)",
                    anyRight(scorer, bench, perFile)));
        }
        System.out.println("| predictions | EX (Spider test-suite semantics) | correct/total |");
        System.out.println("|---|---|---|");
        rows.forEach(r -> System.out.println(r.line()));
        return rows;
    }

    /** One way of running the vote: alignment off, on, or on with one rule switched off. */
    private record Variant(String label, boolean align, AgentSettings settings, boolean perFile) {}

    private static List<Variant> variants(int samples) {
        List<Variant> out = new ArrayList<>();
        out.add(new Variant("without alignment", false, settings(samples), false));
        AgentSettings byModel = settings(samples);
        byModel.opensearchAlignMode = OpenSearchAlignStage.MODEL;
        out.add(new Variant("with model alignment (its calls answered by the simulator's aligner, no real model)", true,
                byModel, true));
        out.add(new Variant("with alignment by the rules", true, rules(samples), true));
        for (String rule : List.of("value", "max-subquery-to-order-by", "not-null-on-order-by", "null-comparison")) {
            AgentSettings s = rules(samples);
            switch (rule) {
                case "value" -> s.alignValues = false;
                case "max-subquery-to-order-by" -> s.alignMaxSubqueryToOrderBy = false;
                case "not-null-on-order-by" -> s.alignNotNullOnOrderBy = false;
                default -> s.alignNullComparison = false;
            }
            out.add(new Variant("with alignment by the rules but rule " + rule + " off", true, s, false));
        }
        return out;
    }

    /** The four fixed rules: the alignment before the model alignment, kept as an ablation (the figures of 84.1 %). */
    private static AgentSettings rules(int samples) {
        AgentSettings s = settings(samples);
        s.opensearchAlignMode = OpenSearchAlignStage.RULES;
        return s;
    }

    private static AgentSettings settings(int samples) {
        AgentSettings s = AgentSettings.defaults();
        s.candidates = samples;
        return s;
    }

    /**
     * The stages a replay runs, derived from the registry's {@code opensearch} preset: its generation (the preset's
     * model stage that writes the SQL, answered here by the replay) and every later stage that asks no model (a
     * simulated answer would not be real model output): generation, alignment, execution, vote and answer, in order.
     */
    static List<StageDeclaration> replayStages() {
        List<StageDeclaration> preset = StageRegistry.stagesOf(StageRegistry.OPENSEARCH);
        // the generator: the preset's model stage that writes the SQL (extraction and retrieval before it ask the model too)
        int generation = IntStream.range(0, preset.size())
                .filter(i -> preset.get(i).kind() == StageKind.LLM && preset.get(i).name().endsWith(".generate"))
                .findFirst().orElseThrow();
        // the alignment asks a model in its default mode: kept, its steps answered by the simulator (see variants)
        return IntStream.range(generation, preset.size())
                .filter(i -> i == generation || preset.get(i).kind() != StageKind.LLM
                        || preset.get(i).prompts().equals(ModelAligner.PROMPTS))
                .mapToObj(preset::get).toList();
    }

    /** {@link #replayStages} built from {@code parts}; without {@code align} the alignment stage is left out. */
    static List<NamedStage> replayStages(StageParts parts, boolean align) {
        return replayStages().stream().map(d -> StageRegistry.build(d, parts))
                .filter(s -> align || !(s.stage() instanceof OpenSearchAlignStage)).toList();
    }

    /** Every runnable question through generate (replayed) → [align] → execute → vote → finalize, in order. */
    private static List<RequestContext> answerAll(Benchmark bench, StageParts parts, boolean align) throws Exception {
        Pipeline pipeline = new Pipeline(new Strategy("replay-vote", replayStages(parts, align)));
        List<RequestContext> out = new ArrayList<>();
        for (BenchmarkItem item : bench.runnableItems()) {
            RequestContext ctx = new RequestContext();
            ctx.requestId = "replay-" + item.id();
            ctx.dbId = item.dbId();
            ctx.question = item.question();
            ctx.strategy = StageRegistry.OPENSEARCH;
            out.add(pipeline.run(ctx).get(120, TimeUnit.SECONDS));
        }
        return out;
    }

    /** How many candidates the model alignment changed: by a model's answer, or by the fixed rewrites alone. */
    private static String alignmentCounts(List<RequestContext> answered) {
        long byModel = 0;
        long fixedOnly = 0;
        for (RequestContext ctx : answered) {
            for (var c : ctx.candidates) {
                String note = ctx.notes.get("align." + c.source);
                if (note != null) {
                    if (note.contains(":model")) {
                        byModel++;
                    } else {
                        fixedOnly++;
                    }
                }
            }
        }
        return "model alignment: " + byModel + " candidates changed by an aligner answer, " + fixedOnly
                + " by fixed rewrites only";
    }

    private static List<String> candidateOf(List<RequestContext> answered, String source) {
        return answered.stream().map(ctx -> ctx.candidates.stream().filter(c -> c.source.equals(source))
                .map(c -> c.sql).findFirst().orElse("")).toList();
    }

    private static Map<Integer, String> byOrdinal(List<String> sqls) {
        Map<Integer, String> out = new java.util.HashMap<>();
        for (int i = 0; i < sqls.size(); i++) {
            out.put(i, sqls.get(i));
        }
        return out;
    }

    private static Accuracy ex(Scorer scorer, Benchmark bench, Map<Integer, String> sqlByOrdinal) {
        List<Prediction> predictions = sqlByOrdinal.entrySet().stream()
                .map(e -> new Prediction(null, e.getKey(), e.getValue(), null, List.of())).toList();
        return ExecutionAccuracy.overall(scorer.score(bench, predictions, done -> { }));
    }

    /** EX of one SQL per runnable item (in runnable order). */
    private static Accuracy ex(Scorer scorer, Benchmark bench, List<String> sqlPerRunnable) {
        List<BenchmarkItem> items = bench.runnableItems();
        Map<Integer, String> byOrdinal = new java.util.HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            byOrdinal.put(items.get(i).ordinal(), sqlPerRunnable.get(i) == null ? "" : sqlPerRunnable.get(i));
        }
        return ex(scorer, bench, byOrdinal);
    }

    private static Accuracy anyRight(Scorer scorer, Benchmark bench, List<List<String>> perFile) {
        List<List<ItemOutcome>> outcomes = new ArrayList<>();
        for (List<String> sqls : perFile) {
            List<Prediction> predictions = new ArrayList<>();
            for (int i = 0; i < sqls.size(); i++) {
                predictions.add(new Prediction(null, i, sqls.get(i), null, List.of()));
            }
            outcomes.add(scorer.score(bench, predictions, done -> { }));
        }
        Accuracy acc = Accuracy.empty();
        for (int i = 0; i < outcomes.get(0).size(); i++) {
            final int item = i;
            acc = acc.plus(outcomes.stream().anyMatch(o -> o.get(item).correct()));
        }
        return acc;
    }
}
