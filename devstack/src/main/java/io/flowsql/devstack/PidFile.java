package io.flowsql.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A PID file the deploy scripts wrote, read as deploy/lib.sh's {@code pid_alive} reads it: its number names the
 * process it was written for only while that number is a process of its own (not a thread of another: Linux draws
 * thread ids from the same pool, and a signal sent to a thread's id ends its whole process) started no later than
 * the file was written. PIDs wrap around within minutes on a busy machine (pid_max 32768), so a stale file's number
 * soon names something else. docs/OPERATIONS.md#pid-files
 */
public final class PidFile {

    /** How much later than the file's modification time (whole seconds) its process may seem to have started. */
    private static final Duration CLOCK_SLACK = Duration.ofSeconds(2);

    private PidFile() {}

    /** The number in {@code file} (empty when the file is missing or holds no number). */
    public static Optional<Long> number(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            return text.matches("\\d{1,10}") ? Optional.of(Long.parseLong(text)) : Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file, e);
        }
    }

    /** The live process {@code file} was written for, if it still runs. */
    public static Optional<ProcessHandle> process(Path file) {
        return number(file).flatMap(pid -> ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .filter(p -> isProcessNotThread(pid) && startedBeforeWritten(p, file)));
    }

    /** True when {@code pid} leads its own thread group (Linux's /proc; true where there is none). */
    static boolean isProcessNotThread(long pid) {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        if (!Files.isDirectory(Path.of("/proc/self"))) {
            return true;
        }
        try {
            return Files.readAllLines(status, StandardCharsets.UTF_8).stream()
                    .filter(line -> line.startsWith("Tgid:"))
                    .anyMatch(line -> line.substring("Tgid:".length()).strip().equals(Long.toString(pid)));
        } catch (IOException gone) {
            return false;
        }
    }

    private static boolean startedBeforeWritten(ProcessHandle process, Path file) {
        Optional<Instant> started = process.info().startInstant();
        try {
            Instant written = Files.getLastModifiedTime(file).toInstant();
            return started.map(s -> !s.isAfter(written.plus(CLOCK_SLACK))).orElse(true);
        } catch (IOException gone) {
            return false;
        }
    }
}
