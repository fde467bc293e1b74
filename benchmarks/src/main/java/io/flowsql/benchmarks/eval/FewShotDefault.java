package io.flowsql.benchmarks.eval;

import io.flowsql.job.JobOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OpenSearch-SQL's few-shot library for a local evaluation run: the job's default is none (production has no
 * {@code ../shared}), so {@code run --local} sets {@code agents.fewshot-sources} to SParC's and CoSQL's dev dialogues
 * when they are under the data folder and the evaluated benchmark is not made of them (Spider dev and BIRD: the
 * job never shows an example of the question's own database; CoSQL and MMSQL are built on CoSQL's dialogues, so they
 * get none). An explicit {@code -D agents.fewshot-sources=...} (blank too) is kept. The choice is printed.
 */
final class FewShotDefault {
    /** The dialogue files the library is built from, under the data folder. */
    static final List<String> SOURCES = List.of("cosql/sparc_dev_SQLonly.json", "cosql/cosql_dev_SQLonly.json");
    /** Benchmarks whose questions come from those dialogues: a library of them would show the evaluated questions. */
    private static final Set<String> MADE_OF_THE_SOURCES = Set.of("cosql-dev", "mmsql-test");

    private FewShotDefault() {}

    /** Adds the sources to {@code options} when they apply; returns the line that says what the run uses. */
    static String apply(String benchmark, Path data, Map<String, String> options) {
        String key = JobOptions.AGENT_FEWSHOT_SOURCES.key();
        if (options.containsKey(key)) {
            String given = options.get(key).strip();
            return "few-shot library: " + (given.isEmpty() ? "none (-D " + key + " blank)" : "from " + given + " (-D " + key + ")");
        }
        if (MADE_OF_THE_SOURCES.contains(benchmark)) {
            return "few-shot library: none (" + benchmark + " is made of the SParC/CoSQL dialogues the library would come from)";
        }
        List<Path> files = SOURCES.stream().map(s -> data.resolve(s).toAbsolutePath()).toList();
        if (!files.stream().allMatch(Files::isRegularFile)) {
            return "few-shot library: none (no " + String.join(", ", SOURCES) + " under " + data + ")";
        }
        options.put(key, String.join(",", files.stream().map(Path::toString).toList()));
        return "few-shot library: first turns of " + String.join(", ", SOURCES)
                + " (other databases' examples only; -D " + key + "= turns it off)";
    }
}
