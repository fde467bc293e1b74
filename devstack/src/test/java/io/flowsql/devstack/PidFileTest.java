package io.flowsql.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stale PID file must not get another process signalled: deploy/lib.sh's pid_alive and stop_pid_file (which every
 * stop script uses) and {@link PidFile} (the cluster tests' view of the same files) are asked about a real child JVM
 * through a file naming it, naming one of its threads (kill on a thread's id ends the whole JVM: the CI failures of
 * JobManagerRestartIT, whose ZooKeeper and TaskManager another test's stop ended), and naming it but written before
 * it started (a number handed out again); and lib.sh's child_alive, which the scripts ask before signalling a child
 * of their own ($!), about a child that runs, one that has ended, and processes and threads that are not its children.
 */
class PidFileTest {

    private static final Path PROJECT = Path.of(System.getProperty("flowsql.project.dir"));

    @TempDir
    Path dir;

    private Process child;

    @BeforeEach
    void startChild() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc");
        String java = ProcessHandle.current().info().command().orElse("java");
        child = new ProcessBuilder(java, "-Xmx16m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                SleepingChild.class.getName()).redirectErrorStream(true).redirectOutput(dir.resolve("child.out").toFile())
                .start();
    }

    @AfterEach
    void stopChild() {
        if (child != null) {
            child.destroyForcibly();
        }
    }

    @Test
    void aFileWrittenForTheRunningProcessNamesItAndItsStopEndsIt() throws Exception {
        Path file = write("child.pid", child.pid());

        assertThat(PidFile.process(file)).map(ProcessHandle::pid).contains(child.pid());
        assertThat(shell("pid_alive", file)).as("pid_alive").isZero();
        assertThat(shell("stop_pid_file", file, "10")).isZero();
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("the child stopped").isTrue();
        assertThat(file).doesNotExist();
    }

    @Test
    void aFileNamingAThreadOfAnotherProcessNamesNothingAndItsStopSignalsNoOne() throws Exception {
        long thread = aThreadOf(child.pid());
        Path file = write("stale.pid", thread);
        assertThat(ProcessHandle.of(thread)).as("the JDK's view: the thread's id looks like a live process").isPresent();

        assertThat(PidFile.process(file)).isEmpty();
        assertThat(shell("pid_alive", file)).as("pid_alive").isNotZero();
        assertThat(shell("stop_pid_file", file, "1")).isZero();
        assertThat(child.isAlive()).as("the JVM the thread belongs to still runs").isTrue();
        assertThat(file).as("the stale file is removed").doesNotExist();
    }

    @Test
    void aFileWrittenBeforeTheProcessStartedNamesNothingAndItsStopSignalsNoOne() throws Exception {
        Path file = write("old.pid", child.pid());
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(Duration.ofHours(1))));

        assertThat(PidFile.process(file)).isEmpty();
        assertThat(shell("pid_alive", file)).as("pid_alive").isNotZero();
        assertThat(shell("stop_pid_file", file, "1")).isZero();
        assertThat(child.isAlive()).as("the process the number now names still runs").isTrue();
    }

    @Test
    void aFileWithoutAProcessNumberNamesNothing() throws Exception {
        // kill -0 0 asks this shell's whole process group, so a bare kill -0 called a file holding 0 alive
        Path file = dir.resolve("zero.pid");
        Files.writeString(file, "0\n");
        assertThat(PidFile.process(file)).isEmpty();
        assertThat(shell("pid_alive", file)).isNotZero();
        assertThat(PidFile.process(dir.resolve("missing.pid"))).isEmpty();
    }

    @Test
    void childAliveNamesOnlyARunningChildOfTheShell() throws Exception {
        long thread = aThreadOf(child.pid());
        // exit codes say which check failed; the JVM and its thread are live processes, but not this shell's children
        String script = "sleep 30 & c=$!; child_alive $c || exit 11; kill $c; wait $c || true; "
                + "child_alive $c && exit 12; child_alive " + child.pid() + " && exit 13; child_alive " + thread
                + " && exit 14; exit 0";
        assertThat(shell(script)).as("bash: " + script).isZero();
        assertThat(child.isAlive()).isTrue();
    }

    private Path write(String name, long pid) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, pid + "\n", StandardCharsets.UTF_8);
        return file;
    }

    /** A thread of process {@code pid} other than its main one (a JVM starts a dozen at once). */
    private static long aThreadOf(long pid) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                var other = tasks.map(t -> Long.parseLong(t.getFileName().toString())).filter(t -> t != pid).findFirst();
                if (other.isPresent()) {
                    return other.get();
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("process " + pid + " started no thread");
    }

    /** Runs deploy/lib.sh's {@code function} with {@code args} in bash; its exit code. */
    private int shell(String function, Object... args) throws Exception {
        String call = function + Stream.of(args).map(a -> " '" + a + "'").reduce("", String::concat);
        return shell(call);
    }

    /** Runs {@code call} in bash after sourcing deploy/lib.sh (set -euo pipefail, as the scripts); its exit code. */
    private int shell(String call) throws Exception {
        Process bash = new ProcessBuilder("bash", "-c", "set -euo pipefail; source deploy/lib.sh; " + call)
                .directory(PROJECT.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("bash.out").toFile())
                .start();
        assertThat(bash.waitFor(60, TimeUnit.SECONDS)).as("bash " + call).isTrue();
        return bash.exitValue();
    }
}
