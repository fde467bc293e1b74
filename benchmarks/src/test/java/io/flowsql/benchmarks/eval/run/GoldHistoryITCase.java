package io.flowsql.benchmarks.eval.run;

import io.flowsql.benchmarks.eval.SharedData;
import io.flowsql.benchmarks.eval.load.Benchmark;
import io.flowsql.benchmarks.eval.load.BenchmarkItem;
import io.flowsql.benchmarks.eval.load.BenchmarkLoaders;
import io.flowsql.simulator.RecordedRequest;
import io.flowsql.simulator.SimulatedMessage;
import io.flowsql.simulator.oracle.SqlErrorInjector;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two dialogue protocols through broker → job → simulated LLM: the second turn of CoSQL's first dialogue is sent
 * without the first. With {@code --history gold} their prompts show the first turn's question and
 * gold SQL (read from the simulator's request log); with the system's own history the job never saw that turn, so
 * its prompts cannot.
 */
class GoldHistoryITCase {

    private static String prompts(LocalStack stack, String question) {
        return stack.simulatedRequests().stream().map(RecordedRequest::request)
                .filter(r -> r.messages().stream().anyMatch(m -> m.content().contains(question)))
                .flatMap(r -> r.messages().stream()).map(SimulatedMessage::content).collect(Collectors.joining("\n"));
    }

    @Test
    void goldHistoryReachesThePromptsAndOwnHistoryDoesNot() throws Exception {
        Path data = SharedData.root();
        Benchmark cosql = new BenchmarkLoaders(data).load("cosql-dev", null);
        List<BenchmarkItem> dialogue = cosql.items().stream().filter(i -> "d0".equals(i.dialogueId())).toList();
        BenchmarkItem first = dialogue.get(0);
        Benchmark later = cosql.withItems(dialogue.subList(1, 2));
        String firstSql = first.goldSql().strip().replaceAll("\\s+", " ");
        String secondQuestion = dialogue.get(1).question();
        Path dir = Files.createDirectories(Path.of("target", "gold-history-it"));

        try (LocalStack stack = LocalStack.start(data, cosql.databaseRoot(), null, "simulated-oracle",
                List.of(data.resolve("cosql/cosql_dev.json")), SqlErrorInjector.uniform(0, 1), 1)) {
            Path goldAnswers = dir.resolve("gold.jsonl");
            Files.deleteIfExists(goldAnswers);
            KafkaBenchmarkRunner gold = new KafkaBenchmarkRunner(stack.bootstrapServers(), LocalStack.QUESTIONS, LocalStack.ANSWERS,
                    null, "gold-it", new GoldHistory(cosql));
            assertThat(gold.run(rename(later, "gold"), goldAnswers, Duration.ofMinutes(3)).unanswered()).isZero();
            String goldPrompts = prompts(stack, secondQuestion);
            assertThat(goldPrompts).contains(first.question()).contains("SQL: " + firstSql);

            Path ownAnswers = dir.resolve("own.jsonl");
            Files.deleteIfExists(ownAnswers);
            int before = stack.simulatedRequests().size();
            KafkaBenchmarkRunner own = new KafkaBenchmarkRunner(stack.bootstrapServers(), LocalStack.QUESTIONS, LocalStack.ANSWERS, null, "own-it");
            assertThat(own.run(rename(later, "own"), ownAnswers, Duration.ofMinutes(3)).unanswered()).isZero();
            String ownPrompts = stack.simulatedRequests().subList(before, stack.simulatedRequests().size()).stream()
                    .map(RecordedRequest::request).filter(r -> r.messages().stream().anyMatch(m -> m.content().contains(secondQuestion)))
                    .flatMap(r -> r.messages().stream()).map(SimulatedMessage::content).collect(Collectors.joining("\n"));
            assertThat(ownPrompts).isNotEmpty().doesNotContain(first.question());
        }
    }

    /** The same items under another benchmark name, so the two runs use different request and dialogue ids. */
    private static Benchmark rename(Benchmark b, String suffix) {
        return new Benchmark(b.name() + "-" + suffix, b.items(), b.databaseRoot());
    }
}
