package io.flowsql.benchmarks.eval.run;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.EventJson;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * The answers JSONL of a run, appended one answer per line and flushed each time, so an interrupted run
 * can resume: the request ids already present are not asked again.
 */
public final class AnswersFile implements AutoCloseable {
    private final BufferedWriter writer;

    private AnswersFile(BufferedWriter writer) {
        this.writer = writer;
    }

    public static AnswersFile append(Path file) {
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            return new AnswersFile(Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file, e);
        }
    }

    /** Request ids of the complete answers already in the file (a torn last line is ignored). */
    public static Set<String> answeredRequestIds(Path file) {
        Set<String> ids = new HashSet<>();
        if (!Files.isRegularFile(file)) {
            return ids;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                try {
                    ids.add(EventJson.parseAnswer(line.getBytes(StandardCharsets.UTF_8)).requestId);
                } catch (RuntimeException torn) {
                    // an interrupted write leaves a partial line: that question is asked again
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return ids;
    }

    public synchronized void write(AnswerEvent answer) {
        try {
            writer.write(EventJson.toJson(answer));
            writer.newLine();
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append an answer", e);
        }
    }

    @Override
    public void close() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
