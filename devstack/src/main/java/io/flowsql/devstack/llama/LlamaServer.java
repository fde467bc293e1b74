package io.flowsql.devstack.llama;

import io.flowsql.devstack.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * llama.cpp's own OpenAI-compatible server ({@code llama-server}) as a child process on a free loopback
 * port, for tests and benchmarks against a real third-party server. The binary comes from
 * {@code deploy/llama-server-build.sh}: {@code $LLAMA_SERVER}, else the newest build in
 * {@code ${FLOWSQL_CACHE:-~/.cache/flowsql}/llama.cpp/}. {@link #stop()} and {@link #start()} can be
 * called again to take the server away and bring it back on the same port (an outage).
 */
public final class LlamaServer implements AutoCloseable {
    /** Set (to 1) where a missing binary must fail the tests instead of skipping them: .ci/run sets it. */
    public static final String REQUIRED_ENV = "FLOWSQL_REQUIRE_LLAMA_SERVER";

    private final Path binary;
    private final Path model;
    private final Path log;
    private final int port;
    private final List<String> extraArgs;
    private Process process;

    private LlamaServer(Path binary, Path model, Path log, List<String> extraArgs) {
        this.binary = binary;
        this.model = model;
        this.log = log;
        this.extraArgs = List.copyOf(extraArgs);
        this.port = FreePorts.next();
    }

    /** The llama-server binary, when one is built. */
    public static Optional<Path> findBinary() {
        String explicit = System.getenv("LLAMA_SERVER");
        if (explicit != null && !explicit.isBlank()) {
            Path path = Path.of(explicit);
            return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
        }
        String cacheRoot = Objects.requireNonNullElse(System.getenv("FLOWSQL_CACHE"),
                System.getProperty("user.home") + "/.cache/flowsql");
        Path cache = Path.of(cacheRoot, "llama.cpp");
        if (!Files.isDirectory(cache)) {
            return Optional.empty();
        }
        try (Stream<Path> builds = Files.list(cache)) {
            return builds.map(dir -> dir.resolve("bin/llama-server")).filter(Files::isExecutable)
                    .max(Comparator.comparing(path -> path.toFile().lastModified()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Whether a missing binary must fail instead of skip (CI). */
    public static boolean required() {
        return "1".equals(System.getenv(REQUIRED_ENV)) || "true".equalsIgnoreCase(System.getenv(REQUIRED_ENV));
    }

    /**
     * Starts a server on {@code model} with the given llama-server arguments (e.g. {@code -c 8192 --parallel 4});
     * its output goes to {@code log}.
     */
    public static LlamaServer start(Path binary, Path model, Path log, List<String> args) throws IOException {
        LlamaServer server = new LlamaServer(binary, model, log, args);
        server.start();
        return server;
    }

    /** (Re)starts the process on the same port and waits until it serves (/health answers 200). */
    public synchronized void start() throws IOException {
        if (process != null && process.isAlive()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(binary.toString(), "-m", model.toString(),
                "--host", "127.0.0.1", "--port", String.valueOf(port), "--threads", "1", "--no-webui", "--no-warmup"));
        command.addAll(extraArgs);
        Files.createDirectories(log.toAbsolutePath().getParent());
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        awaitHealthy(Duration.ofSeconds(60));
    }

    /** Kills the process (SIGKILL, as a crash would) and waits until it is gone. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The running process's id, for resource figures; empty while it is stopped. */
    public synchronized OptionalLong pid() {
        return process != null && process.isAlive() ? OptionalLong.of(process.pid()) : OptionalLong.empty();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port + "/v1";
    }

    public int port() {
        return port;
    }

    public Path log() {
        return log;
    }

    private void awaitHealthy(Duration limit) throws IOException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                .timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("llama-server exited with " + process.exitValue() + "; see " + log);
            }
            try {
                if (http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for llama-server", e);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for llama-server", e);
            }
        }
        stop();
        throw new IOException("llama-server did not become healthy within " + limit.toSeconds() + " s; see " + log);
    }

    @Override
    public void close() {
        stop();
    }
}
