package io.flowsql.benchmarks.soak;

import io.flowsql.benchmarks.throughput.BenchmarkQuestions;
import io.flowsql.devstack.FreePorts;
import io.flowsql.devstack.LocalKafkaCluster;
import io.flowsql.devstack.TopicSpec;
import io.flowsql.events.QuestionEvent;
import io.flowsql.job.FlowSqlJob;
import io.flowsql.job.JobConfig;
import io.flowsql.job.JobOptions;
import io.flowsql.job.JobSinks;
import io.flowsql.job.JobSources;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The soak: questions at a steady rate across presets through the real job (MiniCluster in this JVM, exactly-once
 * sinks) on a three-node Kafka cluster and the simulated LLM, faults at random intervals (kill -9 and restart of a
 * broker, a stop and start of the simulator), figures of every process every few minutes, and one summary line.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = "Steady questions, random faults, resource figures over time (deploy/bench.sh soak --minutes N).")
public final class SoakBenchmark implements Callable<Integer> {
    @Option(names = "--minutes", description = "length of the run (default ${DEFAULT-VALUE})")
    int minutes = 5;
    @Option(names = "--rate", description = "questions per second (default ${DEFAULT-VALUE})")
    double rate = 2;
    @Option(names = "--presets", split = ",", description = "presets the questions cycle through (default ${DEFAULT-VALUE})")
    List<String> presets = List.of("opensearch", "mag-sql", "sqlfix", "mmsql", "full");
    @Option(names = "--sample-minutes", description = "minutes between resource figures (default ${DEFAULT-VALUE})")
    int sampleMinutes = 1;
    @Option(names = "--outage-seconds", description = "how long a killed broker or stopped simulator stays down (default ${DEFAULT-VALUE})")
    int outageSeconds = 10;
    @Option(names = "--seed", description = "seed of the fault schedule (default ${DEFAULT-VALUE})")
    long seed = 42;
    @Option(names = "--shared-data", description = "benchmark data folder (default ${DEFAULT-VALUE})")
    Path sharedData = Path.of("../shared/data");

    private volatile String phase = "start";

    public static void main(String[] args) {
        System.exit(new CommandLine(new SoakBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        long runNanos = TimeUnit.MINUTES.toNanos(minutes);
        System.out.printf("soak: %d min, %.1f questions/s, presets %s, faults broker-kill and llm-restart (outage %d s),"
                + " %d cores shared%n", minutes, rate, presets, outageSeconds, Runtime.getRuntime().availableProcessors());
        SoakLedger ledger = new SoakLedger();
        Random random = new Random(seed);
        List<String> faults = new ArrayList<>();
        List<ProcessFigures> first = null;
        List<ProcessFigures> last;
        try (LocalKafkaCluster kafka = LocalKafkaCluster.start(Files.createTempDirectory("flowsql-soak-kafka"));
                RestartableLlm llm = RestartableLlm.start(sharedData, FreePorts.next())) {
            kafka.createTopics(new TopicSpec("questions", 2), new TopicSpec("answers", 2), new TopicSpec("dead-letters", 1));
            JobClient job = startJob(kafka.bootstrapServers(), llm.baseUrl());
            ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();
            try (SoakTraffic traffic = new SoakTraffic(kafka.bootstrapServers(), ledger)) {
                List<QuestionEvent> questions = questions(runNanos);
                AtomicInteger next = new AtomicInteger();
                sender.scheduleAtFixedRate(() -> {
                    int i = next.getAndIncrement();
                    if (i < questions.size()) {
                        traffic.send(questions.get(i), phase);
                    }
                }, 0, (long) (1_000_000 / rate), TimeUnit.MICROSECONDS);

                // the run's clock, the fault schedule and the resource baseline start with the first answer: job start-up
                // (threads, classes, pools) is not growth
                long warmDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
                while (ledger.answered() == 0 && System.nanoTime() < warmDeadline) {
                    Thread.sleep(200);
                }
                phase = "steady";
                first = figures(kafka);
                print(first);
                long start = System.nanoTime();
                long nextSample = start + TimeUnit.MINUTES.toNanos(sampleMinutes);
                List<String> kinds = new ArrayList<>(List.of("broker-kill", "llm-restart"));
                Collections.shuffle(kinds, random);
                int planned = Math.max(kinds.size(), minutes);
                long slot = (runNanos - TimeUnit.SECONDS.toNanos(30)) / planned;
                List<long[]> faultTimes = new ArrayList<>();
                for (int f = 0; f < planned; f++) {
                    long at = start + TimeUnit.SECONDS.toNanos(20) + f * slot + (long) (random.nextDouble() * slot / 3);
                    nextSample = sampleUntil(at, nextSample, kafka);
                    String kind = kinds.get(f % kinds.size());
                    phase = kind;
                    long faultStart = System.nanoTime();
                    String what = inject(kind, kafka, llm, random);
                    long faultEnd = System.nanoTime();
                    faultTimes.add(new long[] {faultStart, faultEnd});
                    faults.add(kind + " (" + what + ", " + TimeUnit.NANOSECONDS.toMillis(faultEnd - faultStart) + " ms)");
                    System.out.printf("%5.0f s fault %d: %s%n", (faultEnd - start) / 1e9, f + 1, faults.get(f));
                    phase = kind + "-after";
                    nextSample = sampleUntil(faultEnd + TimeUnit.SECONDS.toNanos(20), nextSample, kafka);
                    phase = "steady";
                }
                sampleUntil(start + runNanos, nextSample, kafka);
                sender.shutdownNow();
                phase = "drain";
                traffic.awaitAnswers(ledger.sent(), TimeUnit.MINUTES.toNanos(3));
                System.out.println("recovery per fault (fault start → first answer to a question sent after it started):");
                for (int f = 0; f < faultTimes.size(); f++) {
                    long firstAnswer = ledger.firstAnswerToQuestionSentAfter(faultTimes.get(f)[0]);
                    System.out.printf("  %s: %s%n", faults.get(f), firstAnswer == 0 ? "none"
                            : TimeUnit.NANOSECONDS.toMillis(firstAnswer - faultTimes.get(f)[0]) + " ms");
                }
                last = figures(kafka);
                System.out.printf("dead letters: %d; answer statuses %s%n", traffic.deadLetters(), ledger.statuses());
                ledger.latencyLines().forEach(l -> System.out.println("latency " + l));
                print(last);
                System.out.printf("summary: minutes=%d sent=%d answered=%d dead_lettered=%d doubled=%d lost=%d faults=%d"
                                + " heap_growth_mb=%d threads_growth=%d fds_growth=%d%n", minutes, ledger.sent(),
                        ledger.answered(), traffic.deadLetters(), ledger.doubled(), ledger.lost(), faults.size(),
                        last.get(0).heapMb() - first.get(0).heapMb(), total(last, true) - total(first, true),
                        total(last, false) - total(first, false));
            } finally {
                sender.shutdownNow();
                job.cancel().get(60, TimeUnit.SECONDS);
            }
        }
        return 0;
    }

    private List<QuestionEvent> questions(long runNanos) throws java.io.IOException {
        // enough for the run and up to 5 minutes of start-up before the first answer
        int count = (int) Math.ceil(rate * (TimeUnit.NANOSECONDS.toSeconds(runNanos) + 300));
        List<QuestionEvent> out = new ArrayList<>();
        List<List<QuestionEvent>> perPreset = new ArrayList<>();
        for (String preset : presets) {
            perPreset.add(BenchmarkQuestions.shuffled(sharedData, preset, count / presets.size() + 1, "soak-" + preset + "-", seed));
        }
        for (int i = 0; out.size() < count; i++) {
            out.add(perPreset.get(i % presets.size()).get(i / presets.size()));
        }
        return out;
    }

    private JobClient startJob(String bootstrapServers, String llmBaseUrl) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        options.put(JobOptions.BOOTSTRAP_SERVERS.key(), bootstrapServers);
        options.put(JobOptions.SHARED_DATA.key(), sharedData.toString());
        options.put(JobOptions.LLM_BASE_URL.key(), llmBaseUrl);
        options.put(JobOptions.CHECKPOINT_INTERVAL.key(), "1s");
        options.put(JobOptions.TRANSACTION_TIMEOUT.key(), "60s");
        options.put(JobOptions.PARALLELISM.key(), "2");
        JobConfig config = JobConfig.of(options);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, new Configuration());
        FlowSqlJob.configure(env, config);
        FlowSqlJob.build(env, JobSources.kafka(config), JobSinks.kafka(config), config);
        return env.executeAsync("flowsql-soak");
    }

    /** Runs one fault to its end (the component back); returns what it did. */
    private String inject(String kind, LocalKafkaCluster kafka, RestartableLlm llm, Random random) throws Exception {
        if (kind.equals("broker-kill")) {
            int node = 1 + random.nextInt(LocalKafkaCluster.SIZE);
            kafka.kill(node);
            Thread.sleep(TimeUnit.SECONDS.toMillis(outageSeconds));
            try {
                kafka.restart(node);
            } catch (IllegalStateException e) {
                System.out.printf("node %d did not come back (%s); starting it once more%n", node, e.getMessage());
                if (kafka.isAlive(node)) {
                    kafka.kill(node);
                }
                kafka.restart(node);
                return "node " + node + " kill -9, down " + outageSeconds + " s, restarted at the second attempt";
            }
            return "node " + node + " kill -9, down " + outageSeconds + " s, restarted";
        }
        llm.stop();
        Thread.sleep(TimeUnit.SECONDS.toMillis(outageSeconds));
        llm.restart();
        return "simulator stopped " + outageSeconds + " s and started on the same port";
    }

    private long sampleUntil(long untilNanos, long nextSample, LocalKafkaCluster kafka) throws InterruptedException {
        while (System.nanoTime() < untilNanos) {
            if (System.nanoTime() >= nextSample) {
                print(figures(kafka));
                nextSample = System.nanoTime() + TimeUnit.MINUTES.toNanos(sampleMinutes);
            }
            Thread.sleep(Math.max(1, Math.min(1000, TimeUnit.NANOSECONDS.toMillis(untilNanos - System.nanoTime()))));
        }
        return nextSample;
    }

    private static List<ProcessFigures> figures(LocalKafkaCluster kafka) {
        List<ProcessFigures> out = new ArrayList<>(List.of(ProcessFigures.ofThisJvm()));
        for (int n = 1; n <= LocalKafkaCluster.SIZE; n++) {
            if (kafka.isAlive(n)) {
                out.add(ProcessFigures.ofProcess("broker-" + n, kafka.pid(n)));
            }
        }
        return out;
    }

    private static void print(List<ProcessFigures> figures) {
        System.out.printf("%tT resources:%n", System.currentTimeMillis());
        figures.forEach(f -> System.out.println("  " + f.line()));
    }

    private static int total(List<ProcessFigures> figures, boolean threads) {
        return figures.stream().mapToInt(f -> threads ? f.threads() : f.fds()).sum();
    }
}
