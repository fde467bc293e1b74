package io.flowsql.benchmarks.eval;

import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The options that pick a benchmark and where its files are, shared by {@code score} and {@code run}. */
public final class BenchmarkChoice {

    @Option(names = "--benchmark", required = true, description = "One of: " + BenchmarkLoaders.KINDS)
    String benchmark;

    @Option(names = "--benchmark-path", description = "Folder of the benchmark (default: under --data)")
    Path benchmarkPath;

    @Option(names = "--data", defaultValue = "../shared/data", description = "Benchmark data folder (default: ${DEFAULT-VALUE})")
    Path data;

    Benchmark load() {
        return new BenchmarkLoaders(data).load(benchmark, benchmarkPath);
    }

    /** The file with the benchmark's questions and gold SQL. */
    Path questionsFile() {
        return new BenchmarkLoaders(data).questionsFile(benchmark, benchmarkPath);
    }
}
