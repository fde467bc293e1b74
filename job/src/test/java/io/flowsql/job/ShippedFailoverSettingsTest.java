package io.flowsql.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.executiongraph.failover.ExponentialDelayRestartBackoffTimeStrategy;
import org.apache.flink.runtime.executiongraph.failover.RestartBackoffTimeStrategy;
import org.apache.flink.runtime.executiongraph.failover.RestartBackoffTimeStrategyFactoryLoader;
import org.apache.flink.util.clock.ManualClock;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/FAULTS.md#jobmanager-and-taskmanagers: failure detection and restarts as the project ships them (the config.yaml
 * deploy/flink-cluster-start.sh writes, read by Flink's loader; the Kubernetes manifest's flinkConfiguration).
 * Heartbeats find a killed TaskManager in seconds (Flink's defaults took 15.5 s). Restarts
 * (docs/FAULTS.md#restart-back-off): Flink's own strategy, built by Flink's loader and driven on a manual clock. A job
 * that has run for minutes since its last restart restarts after the initial back-off again (with a 10 min threshold
 * a TaskManager killed every few minutes cost up to 31 s), and one that fails soon after every restart still backs
 * off to the maximum.
 */
class ShippedFailoverSettingsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path clusterDir;

    @ParameterizedTest
    @ValueSource(strings = {"local", "kubernetes"})
    void aKilledTaskManagerIsFoundInSecondsAndASilentOneWithinHalfAMinute(String shipped) throws Exception {
        Configuration config = shipped(shipped);
        Duration interval = config.get(HeartbeatManagerOptions.HEARTBEAT_INTERVAL);
        Duration timeout = config.get(HeartbeatManagerOptions.HEARTBEAT_TIMEOUT);
        int failures = config.get(HeartbeatManagerOptions.HEARTBEAT_RPC_FAILURE_THRESHOLD);
        assertThat(interval.multipliedBy(failures)).as(shipped + ": a killed TaskManager, refused heartbeat RPCs in a row")
                .isLessThanOrEqualTo(Duration.ofSeconds(10));
        assertThat(timeout).as(shipped + ": a silent one; not so short that a GC pause fails a healthy one")
                .isBetween(Duration.ofSeconds(20), Duration.ofSeconds(30));
        assertThat(config.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("exponential-delay");
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "kubernetes"})
    void aJobThatRanMinutesSinceItsLastRestartRestartsAfterTheInitialBackOff(String shipped) throws Exception {
        Configuration config = shipped(shipped);
        ManualClock clock = new ManualClock(Duration.ofDays(1).toNanos());
        RestartBackoffTimeStrategy restarts = strategy(config, clock);
        long initial = config.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF).toMillis();
        double jitter = config.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR);

        // three failures, each a second after the restart before it: the back-off climbs (1, 2, 4 s)
        long backoff = 0;
        for (int i = 0; i < 3; i++) {
            backoff = failAfter(restarts, clock, Duration.ofSeconds(1));
        }
        assertThat(backoff).as("the third back-off has climbed").isGreaterThan(2 * initial);

        // then the job runs two minutes (a TaskManager killed every few minutes, as in the soak) and fails again
        long after = failAfter(restarts, clock, Duration.ofMinutes(2));
        assertThat(after).as(shipped + ": back-off after two good minutes (reset-backoff-threshold "
                        + config.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD) + ")")
                .isBetween((long) (initial * (1 - jitter)), (long) Math.ceil(initial * (1 + jitter)));
    }

    /** The crash-loop guard: whenever the job fails, it is never restarted more often than once per max-backoff. */
    @ParameterizedTest
    @ValueSource(strings = {"local", "kubernetes"})
    void aJobFailingAfterEveryRestartIsRestartedAtMostOncePerMaxBackOff(String shipped) throws Exception {
        Configuration config = shipped(shipped);
        long max = config.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF).toMillis();
        double jitter = config.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR);
        Duration threshold = config.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD);
        assertThat(threshold).as("a reset never restarts a failing job sooner than the capped back-off would")
                .isGreaterThanOrEqualTo(Duration.ofMillis(max));
        for (Duration runs : List.of(Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(29),
                threshold.minusSeconds(1), threshold.plusSeconds(1), Duration.ofMinutes(5))) {
            ManualClock clock = new ManualClock(Duration.ofDays(1).toNanos());
            RestartBackoffTimeStrategy restarts = strategy(config, clock);
            long backoff = 0;
            for (int i = 0; i < 12; i++) {
                backoff = failAfter(restarts, clock, runs);
            }
            assertThat(runs.toMillis() + backoff).as(shipped + ": failing %s after each restart, time between two restarts", runs)
                    .isGreaterThanOrEqualTo((long) (max * (1 - jitter)));
            if (runs.compareTo(threshold) < 0) {
                assertThat(backoff).as(shipped + ": failing %s after each restart backs off to the maximum", runs)
                        .isGreaterThanOrEqualTo((long) (max * (1 - jitter)));
            }
        }
    }

    /** Lets the job run {@code runs} since its restart, fails it and restarts it: returns the back-off it waited. */
    private static long failAfter(RestartBackoffTimeStrategy restarts, ManualClock clock, Duration runs) {
        clock.advanceTime(runs);
        assertThat(restarts.notifyFailure(new RuntimeException("task failed"))).as("a new failure, not a merged one").isTrue();
        assertThat(restarts.canRestart()).isTrue();
        long backoff = restarts.getBackoffTime();
        clock.advanceTime(Duration.ofMillis(backoff));
        return backoff;
    }

    /** The strategy Flink's loader picks for a checkpointed job on a cluster of {@code config}, on {@code clock}. */
    private static RestartBackoffTimeStrategy strategy(Configuration config, ManualClock clock) throws Exception {
        RestartBackoffTimeStrategy.Factory factory =
                RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategyFactory(new Configuration(), config, true);
        assertThat(factory).isInstanceOf(ExponentialDelayRestartBackoffTimeStrategy.ExponentialDelayRestartBackoffTimeStrategyFactory.class);
        Field time = factory.getClass().getDeclaredField("clock"); // Flink sets only a system clock from outside its package
        time.setAccessible(true);
        time.set(factory, clock);
        return factory.create();
    }

    private Configuration shipped(String which) throws Exception {
        Path project = Path.of(System.getProperty("flowsql.project.dir"));
        if (which.equals("kubernetes")) {
            Map<String, Object> flink = YAML.convertValue(YAML.readTree(project.resolve("deploy/kubernetes/flowsql-flinkdeployment.yaml")
                    .toFile()).path("spec").path("flinkConfiguration"), Map.class);
            Map<String, String> values = new HashMap<>();
            flink.forEach((k, v) -> values.put(k, String.valueOf(v)));
            return Configuration.fromMap(values);
        }
        return GlobalConfiguration.loadConfiguration(writeLocalConfig(project).toString());
    }

    /** deploy/flink-cluster-start.sh with FLINK_CONFIG_ONLY=1 into the test's own folder: its conf/ folder. */
    private Path writeLocalConfig(Path project) throws Exception {
        Path start = project.resolve("deploy/flink-cluster-start.sh");
        assertThat(java.nio.file.Files.readString(start)).as("a script without it would start a cluster").contains("FLINK_CONFIG_ONLY");
        ProcessBuilder script = new ProcessBuilder("bash", start.toString())
                .redirectErrorStream(true);
        script.environment().put("FLINK_CONFIG_ONLY", "1");
        script.environment().put("FLINK_CLUSTER_DIR", clusterDir.toString());
        Process process = script.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as(output).isZero();
        return clusterDir.resolve("conf");
    }
}
