package io.flowsql.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A standalone Flink session cluster on 127.0.0.1 run by the project's own deploy scripts (flink-cluster-start.sh,
 * flink-submit.sh, flink-stop-savepoint.sh, flink-cluster-stop.sh), each of its processes a separate JVM, on free
 * ports, with everything it writes under {@code dir}. The scripts' output goes to this JVM's stdout (the test log).
 * {@link #close} stops whatever the scripts started, and a shutdown hook does it too if the JVM is ended. Used by the
 * job's cluster test and the cluster scaling benchmark.
 */
public final class ScriptedFlinkCluster implements AutoCloseable {
    private static final Pattern JOB_ID = Pattern.compile("^job id: ([0-9a-f]{32})$", Pattern.MULTILINE);
    private static final Pattern JAR_ID = Pattern.compile("^jar id: (\\S+)$", Pattern.MULTILINE);
    private static final Pattern SAVEPOINT = Pattern.compile("^savepoint: (\\S+)$", Pattern.MULTILINE);
    private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(6);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path projectDir;
    private final Path dir;
    private final Map<String, String> env = new HashMap<>();
    private final String restUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final Thread stopOnExit = new Thread(this::stopQuietly, "stop-flink-cluster");
    /** The id the cluster gave each jar file this object uploaded, by the file as it was then (path, size, time). */
    private final Map<String, String> uploadedJars = new HashMap<>();

    /**
     * {@code mvn}: the Maven command the start script resolves the cluster's classpath with (it inherits the build's
     * local repository and offline flag); {@code taskManagerMemory}: process size of each TaskManager.
     */
    public ScriptedFlinkCluster(Path projectDir, Path dir, String mvn, int slotsPerTaskManager, String taskManagerMemory) {
        this.projectDir = projectDir;
        this.dir = dir;
        int restPort = FreePorts.next();
        restUrl = "http://127.0.0.1:" + restPort;
        env.put("FLINK_CLUSTER_DIR", dir.toString());
        env.put("FLINK_REST_PORT", Integer.toString(restPort));
        env.put("FLINK_RPC_PORT", Integer.toString(FreePorts.next()));
        env.put("FLINK_SLOTS", Integer.toString(slotsPerTaskManager));
        env.put("FLINK_TM_MEMORY", taskManagerMemory);
        env.put("FLINK_REST_URL", restUrl);
        env.put("MVN", mvn);
        // Generous: on a loaded 2-core machine starting the JVMs and opening the job's tasks can take minutes.
        env.put("FLINK_START_TIMEOUT", "300");
        env.put("FLINK_SUBMIT_TIMEOUT", "300");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
    }

    /** The cluster's folder (FLINK_CLUSTER_DIR): configuration, logs, checkpoints, the changelog's files. */
    public Path dir() {
        return dir;
    }

    /**
     * JobManager high availability with ZooKeeper (FLINK_HA=zookeeper: the start script runs a ZooKeeper server of its own
     * on a free port and keeps it when the JobManager dies), so a JobManager killed and started again ({@link #start})
     * resumes its jobs; call before the first start.
     */
    public ScriptedFlinkCluster zooKeeperHa() {
        env.put("FLINK_HA", "zookeeper");
        env.put("FLINK_ZK_PORT", Integer.toString(FreePorts.next()));
        return this;
    }

    /**
     * Caches the classpaths the scripts resolve with Maven in {@code folder} (FLINK_CLASSPATH_CACHE_DIR) instead of beside
     * this cluster's folder, so that clusters sharing the folder (a build's cluster tests) resolve each one once; call
     * before the first start.
     */
    public ScriptedFlinkCluster classpathCache(Path folder) {
        env.put("FLINK_CLASSPATH_CACHE_DIR", folder.toString());
        return this;
    }

    /**
     * More JVM flags for every JVM the scripts start, the cluster's JobManager and TaskManagers among them
     * (FLOWSQL_JVM_OPTS, space-separated; deploy/lib.sh), e.g. a test's cheaper JIT and collector; call before the first start.
     */
    public ScriptedFlinkCluster javaOptions(String flags) {
        env.put("FLOWSQL_JVM_OPTS", flags);
        return this;
    }

    /** Starts the JobManager if needed and TaskManagers until {@code taskManagers} run; waits until all registered. */
    public void start(int taskManagers) {
        run(Map.of("FLINK_TASKMANAGERS", Integer.toString(taskManagers)), "flink-cluster-start.sh");
    }

    /** Submits the job jar with {@code args}, restoring {@code savepoint} when present; returns the running job's id. */
    public String submit(Path jobJar, Optional<String> savepoint, List<String> args) {
        List<String> command = new ArrayList<>(List.of("flink-submit.sh"));
        savepoint.ifPresent(path -> command.addAll(List.of("--from-savepoint", path)));
        command.addAll(args);
        return find(JOB_ID, runJar(jobJar, Map.of(), command));
    }

    /**
     * Runs flink-submit.sh on {@code jobJar}: uploaded on its first submission only, later ones run the jar the cluster
     * already holds (FLOWSQL_JAR_ID; the script uploads it again when the cluster answers that it holds no such jar, e.g.
     * a JobManager with another upload folder). The shaded job jar is over 100 MB: each upload took seconds.
     */
    private String runJar(Path jobJar, Map<String, String> extraEnv, List<String> command) {
        String file = jarVersion(jobJar);
        Map<String, String> scriptEnv = new HashMap<>(extraEnv);
        scriptEnv.put("FLOWSQL_JOB_JAR", jobJar.toString());
        String known = uploadedJars.get(file);
        if (known != null) {
            scriptEnv.put("FLOWSQL_JAR_ID", known);
        }
        ScriptRun script = execute(scriptEnv, command.toArray(String[]::new));
        // remembered also when the cluster refused the job: the jar was uploaded before the run request
        Matcher id = JAR_ID.matcher(script.stdout());
        if (id.find()) {
            uploadedJars.put(file, id.group(1));
        }
        return script.orThrow();
    }

    /** The jar file as it is now: its path, size and modification time (a rebuilt jar is uploaded again). */
    private static String jarVersion(Path jar) {
        try {
            return jar.toAbsolutePath() + " " + Files.size(jar) + " " + Files.getLastModifiedTime(jar).toMillis();
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + jar, e);
        }
    }

    /**
     * Runs {@code deploy/flowsql-sql.sh --submit args} (the README's command): FlowSQL's bundled SQL script, filled in
     * from {@code args}, submitted to this cluster in the job jar; returns the running job's id.
     */
    public String submitFlowSqlScript(Path jobJar, List<String> args) {
        List<String> command = new ArrayList<>(List.of("flowsql-sql.sh", "--submit"));
        command.addAll(args);
        return find(JOB_ID, runJar(jobJar, Map.of(), command));
    }

    /**
     * Runs {@code deploy/flowsql-sql.sh --client args} (the README's command): the bundled script, filled in from
     * {@code args}, through Flink's own SQL client against this cluster; {@code extraEnv} is added to the script's
     * environment (e.g. FLOWSQL_JOB_CLASSPATH). Returns the id of the job its INSERT started.
     */
    public String runFlowSqlScriptInClient(Path jobJar, Map<String, String> extraEnv, List<String> args) {
        Map<String, String> scriptEnv = new HashMap<>(extraEnv);
        scriptEnv.put("FLOWSQL_JOB_JAR", jobJar.toString());
        List<String> command = new ArrayList<>(List.of("flowsql-sql.sh", "--client"));
        command.addAll(args);
        return find(JOB_ID, run(scriptEnv, command.toArray(String[]::new)));
    }

    /**
     * Types {@code statements} into Flink's own SQL client (deploy/flink-sql-client.sh without -f: the interactive
     * client, the job jar added to the session) against this cluster, as a user at its prompt would; returns what it
     * printed.
     */
    public String sqlClientSession(Path jobJar, String statements) {
        try {
            Files.createDirectories(dir);
            Path input = Files.createTempFile(dir, "sql-client-", ".in");
            Files.writeString(input, statements, StandardCharsets.UTF_8);
            try {
                return execute(Map.of("FLOWSQL_JOB_JAR", jobJar.toString()), input, "flink-sql-client.sh").orThrow();
            } finally {
                Files.delete(input);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the job with a savepoint (drain=false) and returns the savepoint's path. */
    public String stopWithSavepoint(String jobId) {
        return find(SAVEPOINT, run(Map.of(), "flink-stop-savepoint.sh", jobId));
    }

    /** The parallelism of every vertex of the job, by vertex name. */
    public Map<String, Integer> vertexParallelism(String jobId) {
        Map<String, Integer> out = new HashMap<>();
        get("/jobs/" + jobId).path("vertices").forEach(v -> out.put(v.path("name").asText(), v.path("parallelism").asInt()));
        return out;
    }

    /** The savepoint or checkpoint the job was restored from, as its checkpoint statistics name it (empty if none yet). */
    public Optional<String> restoredFrom(String jobId) {
        JsonNode restored = get("/jobs/" + jobId + "/checkpoints").path("latest").path("restored");
        return restored.hasNonNull("external_path") ? Optional.of(restored.path("external_path").asText()) : Optional.empty();
    }

    /** Cancels the job and waits (up to 2 minutes) until it has stopped. */
    public void cancel(String jobId) {
        try {
            http.send(HttpRequest.newBuilder(URI.create(restUrl + "/jobs/" + jobId + "?mode=cancel"))
                    .method("PATCH", HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.discarding());
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (System.nanoTime() < deadline && !List.of("CANCELED", "FAILED", "FINISHED")
                    .contains(get("/jobs/" + jobId).path("state").asText())) {
                Thread.sleep(500);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cancelling " + jobId, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** CPU time (user + system) the cluster's running processes have used so far, as the OS counts it. */
    public Duration cpuTime() {
        Duration total = Duration.ZERO;
        for (long pid : processes().values()) {
            total = total.plus(ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).orElse(Duration.ZERO));
        }
        return total;
    }

    /**
     * The processes the start script started that still run, by the name of their PID file (jobmanager, taskmanager-1,
     * zookeeper …): a file whose process ended (a killed TaskManager's) is left out, also when its number has since
     * been given to another process or thread ({@link PidFile}).
     */
    public Map<String, Long> processes() {
        Map<String, Long> out = new TreeMap<>();
        try (var pidFiles = Files.list(dir.resolve("pids"))) {
            for (Path pidFile : pidFiles.toList()) {
                PidFile.process(pidFile).ifPresent(process -> out.put(
                        pidFile.getFileName().toString().replaceFirst("\\.pid$", ""), process.pid()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the cluster's PID files", e);
        }
        return out;
    }

    /** Registered TaskManagers and their slots in all: {taskmanagers, slots-total}. */
    public int[] overview() {
        JsonNode overview = get("/overview");
        return new int[] {overview.path("taskmanagers").asInt(), overview.path("slots-total").asInt()};
    }

    public JsonNode get(String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(restUrl + path))
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + path + " → HTTP " + response.statusCode() + ": " + response.body());
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + restUrl + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The process id of TaskManager {@code n} (1-based), from the start script's PID file. */
    public long taskManagerPid(int n) {
        return runningPid("taskmanager-" + n);
    }

    /** The JobManager's process id, from the start script's PID file. */
    public long jobManagerPid() {
        return runningPid("jobmanager");
    }

    /** The id of the running process of PID file {@code name}.pid (its number once that process ended is no one's). */
    private long runningPid(String name) {
        Path file = dir.resolve("pids").resolve(name + ".pid");
        return PidFile.process(file).map(ProcessHandle::pid).orElseThrow(() -> new IllegalStateException(
                "no running process of " + file + " (number in it: " + PidFile.number(file).orElse(null) + ")"));
    }

    /** Cancels running jobs and stops every process of the cluster (flink-cluster-stop.sh). */
    @Override
    public void close() {
        try {
            System.out.printf("[flink-cluster] its running processes used %.1f s CPU (the JVM that started it: %.1f s)%n",
                    cpuTime().toMillis() / 1000.0, ProcessHandle.current().info().totalCpuDuration()
                            .orElse(Duration.ZERO).toMillis() / 1000.0);
            run(Map.of(), "flink-cluster-stop.sh");
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: nothing to remove
            }
        }
    }

    private void stopQuietly() {
        try {
            run(Map.of(), "flink-cluster-stop.sh");
        } catch (RuntimeException e) {
            System.err.println("stopping the Flink cluster failed: " + e.getMessage());
        }
    }

    /** Runs deploy/{@code command[0]} with the rest as arguments; returns its stdout, fails on a non-zero exit. */
    private String run(Map<String, String> extraEnv, String... command) {
        return execute(extraEnv, command).orThrow();
    }

    /** A script's run: its output, and what went wrong if it failed (null when it exited with 0). */
    private record ScriptRun(String stdout, String failure) {
        String orThrow() {
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
            return stdout;
        }
    }

    /** Runs deploy/{@code command[0]} with the rest as arguments until it ends (or {@link #SCRIPT_TIMEOUT}). */
    private ScriptRun execute(Map<String, String> extraEnv, String... command) {
        return execute(extraEnv, null, command);
    }

    /** Runs deploy/{@code command[0]} as above, its standard input read from {@code stdin} (none when null). */
    private ScriptRun execute(Map<String, String> extraEnv, Path stdin, String... command) {
        List<String> line = new ArrayList<>(List.of("bash", projectDir.resolve("deploy").resolve(command[0]).toString()));
        line.addAll(List.of(command).subList(1, command.length));
        try {
            Files.createDirectories(dir);
            Path out = Files.createTempFile(dir, "script-", ".out");
            Path err = Files.createTempFile(dir, "script-", ".err");
            ProcessBuilder builder = new ProcessBuilder(line).directory(projectDir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            if (stdin != null) {
                builder.redirectInput(stdin.toFile());
            }
            builder.environment().putAll(env);
            builder.environment().putAll(extraEnv);
            Process process = builder.start();
            boolean done = process.waitFor(SCRIPT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (!done) {
                process.destroyForcibly();
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            Files.delete(out);
            Files.delete(err);
            System.out.print(stdout);
            System.err.print(stderr);
            if (!done || process.exitValue() != 0) {
                // the script's own words (e.g. the cluster's answer refusing a job) are part of the failure
                return new ScriptRun(stdout, "deploy/" + String.join(" ", command) + (done ? " exited with "
                        + process.exitValue() : " did not end within " + SCRIPT_TIMEOUT) + "; logs in " + dir.resolve("log")
                        + "\n" + stderr);
            }
            return new ScriptRun(stdout, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String find(Pattern pattern, String output) {
        Matcher m = pattern.matcher(output);
        if (!m.find()) {
            throw new IllegalStateException("no " + pattern + " in the script's output:\n" + output);
        }
        return m.group(1);
    }
}
