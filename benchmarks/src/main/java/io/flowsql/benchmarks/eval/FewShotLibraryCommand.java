package io.flowsql.benchmarks.eval;

import io.flowsql.access.DataDoors;
import io.flowsql.llm.LlmClientConfig;
import io.flowsql.llm.OpenAiCompatibleClient;
import io.flowsql.simulator.LatencyModel;
import io.flowsql.simulator.SimulatedLlmServer;
import io.flowsql.simulator.SimulatorConfig;
import io.flowsql.simulator.agents.AgentResponders;
import java.time.Duration;

import io.flowsql.agents.opensearch.fewshot.ExampleLibrary;
import io.flowsql.agents.opensearch.fewshot.FewShotExample;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.catalog.SqliteSchemaCatalog;
import io.flowsql.sql.catalog.SchemaCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * {@code fewshot-library}: writes OpenSearch-SQL's few-shot example library (JSON Lines) from any benchmark split's
 * questions with gold SQL, each question masked with its database's schema; {@code --databases} or {@code --half}
 * keep only some databases (so a library can be built from one half and evaluated on the other); or, with
 * {@code --from-savepoint}, exports the live library a running job learned from its feedback topic.
 */
@Command(name = "fewshot-library", mixinStandardHelpOptions = true,
        description = "Build the few-shot example library (JSON lines) from a benchmark split's gold SQL.")
public final class FewShotLibraryCommand implements Callable<Integer> {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Input input;

    /** A benchmark split's gold SQL, or the live library of a running job's savepoint. */
    static final class Input {
        @ArgGroup(exclusive = false)
        BenchmarkChoice benchmark;

        @Option(names = "--from-savepoint", description = "Export the live library (learned from the feedback topic) of this "
                + "savepoint or retained checkpoint folder instead (docs/AGENTS.md \"Learning from feedback\")")
        Path savepoint;
    }

    @Option(names = "--database-root", description = "With --from-savepoint: folder of <db>/<db>.sqlite, to mask the questions (default: <data>/spider/database)")
    Path databaseRoot;

    @Option(names = "--out", required = true, description = "The library file to write")
    Path out;

    @Option(names = "--databases", split = ",", description = "Only these databases")
    Set<String> databases;

    @Option(names = "--half", description = "first or second: only the first or second half of the split's databases (by name)")
    String half;

    @Option(names = "--reasoning-llm", description = "Base URL of an OpenAI-compatible server that writes each example's "
            + "reasoning (question, chain of thought, SQL; API key from LLM_API_KEY); without it (or --reasoning-simulated) "
            + "the examples carry no reasoning")
    String reasoningLlm;

    @Option(names = "--reasoning-model", defaultValue = "gpt-4o-mini", description = "The model that writes the reasoning (default ${DEFAULT-VALUE})")
    String reasoningModel;

    @Option(names = "--reasoning-simulated", description = "Write the reasoning with the project's simulator, in process: a "
            + "text made from the SQL by rules, marked \"reasoningSimulated\": true in the library (to try the format)")
    boolean reasoningSimulated;

    @Override
    public Integer call() throws Exception {
        if (input.savepoint != null) {
            Path root = databaseRoot != null ? databaseRoot : Path.of("../shared/data/spider/database");
            List<FewShotExample> live = LiveLibraryExport.read(input.savepoint, List.of(root));
            ExampleLibrary.write(live, out);
            System.out.printf("wrote %d live examples from %s to %s%n", live.size(), input.savepoint, out);
            return 0;
        }
        Benchmark bench = input.benchmark.load();
        List<FewShotExample> examples = build(bench, keep(bench, databases, half));
        String reasoning = "";
        if (reasoningSimulated || reasoningLlm != null) {
            FewShotReasoning.Written written = withReasoning(examples, catalogOf(bench));
            examples = written.examples();
            reasoning = String.format(" (%d with a reasoning, %d of them simulated)", written.reasoned(), written.simulated());
        }
        ExampleLibrary.write(examples, out);
        System.out.printf("wrote %d examples from %s to %s%s%n", examples.size(), bench.name(), out, reasoning);
        return 0;
    }

    /** The examples with a reasoning written by the model at --reasoning-llm, or by the simulator in process. */
    private FewShotReasoning.Written withReasoning(List<FewShotExample> examples, SchemaCatalog catalog) {
        SimulatedLlmServer simulator = reasoningSimulated ? SimulatedLlmServer.start(SimulatorConfig.builder()
                .latency(LatencyModel.ZERO).responders(AgentResponders.all()).recordRequests(false).build()) : null;
        String url = simulator != null ? simulator.baseUrl() : reasoningLlm;
        try (OpenAiCompatibleClient client = OpenAiCompatibleClient.builder(LlmClientConfig.builder(url)
                .apiKey(simulator != null ? null : System.getenv("LLM_API_KEY")).defaultModel(reasoningModel)
                .callTimeout(Duration.ofSeconds(120)).build()).build()) {
            return new FewShotReasoning(client, reasoningModel).write(examples, DataDoors.open(null, catalog));
        } finally {
            if (simulator != null) {
                simulator.close();
            }
        }
    }

    private static SchemaCatalog catalogOf(Benchmark bench) {
        return new SqliteSchemaCatalog(new DatabaseLocator(List.of(bench.databaseRoot()), List.of()));
    }

    /** The databases to keep: the named ones, else a half of the sorted database ids, else all. */
    public static Set<String> keep(Benchmark bench, Set<String> named, String half) {
        TreeSet<String> all = new TreeSet<>();
        bench.items().forEach(i -> all.add(i.dbId()));
        if (named != null && !named.isEmpty()) {
            return named;
        }
        if (half == null) {
            return all;
        }
        List<String> sorted = new ArrayList<>(all);
        int mid = sorted.size() / 2;
        return switch (half) {
            case "first" -> new TreeSet<>(sorted.subList(0, mid));
            case "second" -> new TreeSet<>(sorted.subList(mid, sorted.size()));
            default -> throw new IllegalArgumentException("--half must be first or second, not '" + half + "'");
        };
    }

    /** Examples of the items with gold SQL on the kept databases whose schema is known. */
    public static List<FewShotExample> build(Benchmark bench, Set<String> keep) {
        SchemaCatalog catalog = catalogOf(bench);
        List<String[]> items = new ArrayList<>();
        for (BenchmarkItem item : bench.runnableItems()) {
            if (item.owesSql() && keep.contains(item.dbId())) {
                items.add(new String[] {bench.name() + "#" + item.id(), item.dbId(), item.question(), item.goldSql()});
            }
        }
        return ExampleLibrary.build(items, catalog);
    }
}
