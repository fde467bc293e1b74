package io.flowsql.benchmarks.eval;

import io.flowsql.access.DataDoors;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flowsql.agents.sqlfix.RepairRecord;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import io.flowsql.benchmarks.eval.score.Scorer;
import io.flowsql.sql.catalog.DatabaseLocator;
import io.flowsql.sql.compare.ComparisonMode;
import io.flowsql.sql.compare.ResultComparator;
import io.flowsql.sql.exec.SafeExecutor;
import io.flowsql.sql.exec.SqlExecutorConfig;
import io.flowsql.sql.exec.SqliteSafeExecutor;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code repair-memory}: writes SQLFixAgent's seed repairs (JSON lines, {@code agents.repair-memory-seed}) from published
 * Spider dev prediction files, each pair executed against the gold result ({@link RepairSeeds}).
 */
@Command(name = "repair-memory", mixinStandardHelpOptions = true,
        description = "Build SQLFixAgent's seed repairs from published Spider dev predictions checked against the gold SQL.")
public final class RepairMemoryCommand implements Callable<Integer> {
    static final List<String> PUBLISHED = List.of("DAIL-SQL+GPT-4.txt", "C3-ChatGPT.txt", "DIN-SQL-GPT-4.csv");

    @Option(names = "--data", defaultValue = "../shared/data", description = "Benchmark data folder (default: ${DEFAULT-VALUE})")
    Path data;

    @Option(names = "--predictions", split = ",", description = "Prediction files, one SQL per Spider dev question "
            + "(default: the three published ones under <data>/predictions)")
    List<Path> predictions;

    @Option(names = "--databases", split = ",", description = "Only these databases")
    Set<String> databases;

    @Option(names = "--out", required = true, description = "The seed file to write")
    Path out;

    @Override
    public Integer call() throws Exception {
        List<Path> files = predictions != null && !predictions.isEmpty() ? predictions
                : PUBLISHED.stream().map(f -> data.resolve("predictions").resolve(f)).toList();
        Benchmark bench = new BenchmarkLoaders(data).load("spider-dev", null);
        List<RepairRecord> seeds;
        try (SafeExecutor executor = new SqliteSafeExecutor(DatabaseLocator.forSharedData(data), SqlExecutorConfig.defaults())) {
            seeds = RepairSeeds.build(bench, new Scorer(DataDoors.open(executor, null), new ResultComparator(ComparisonMode.SPIDER_TEST_SUITE), null),
                    files, db -> databases == null || databases.isEmpty() || databases.contains(db));
        }
        write(seeds, out);
        System.out.printf("wrote %d verified repairs from %d prediction files to %s%n", seeds.size(), files.size(), out);
        return 0;
    }

    static void write(List<RepairRecord> seeds, Path file) throws java.io.IOException {
        ObjectMapper json = new ObjectMapper();
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (RepairRecord r : seeds) {
                w.write(json.writeValueAsString(r));
                w.newLine();
            }
        }
    }
}
