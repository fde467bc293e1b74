package io.flowsql.benchmarks.throughput;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A Java Flight Recorder profile of one stretch of a run (the sustained run), kept to the job's threads when read: the
 * execution samples of each part of the job ({@link CpuAccount#jobPartOf}: Flink task threads, checkpoints, stage work,
 * LLM client...) with the methods they were in, at the top of the stack ("self") and anywhere in it ("total"), so a
 * reader sees where the job's CPU goes without the simulator, the broker and the benchmark's client in the way.
 */
final class ProfileRecording implements AutoCloseable {
    private final Recording recording;
    private final Path file;

    private ProfileRecording(Recording recording, Path file) {
        this.recording = recording;
        this.file = file;
    }

    /** Starts JFR's "profile" settings (Java execution samples every 10 ms) now; the file is written at {@link #close}. */
    static ProfileRecording start(Path file) throws IOException, java.text.ParseException {
        Recording recording = new Recording(Configuration.getConfiguration("profile"));
        recording.setName("flowsql-sustained");
        recording.start();
        return new ProfileRecording(recording, file);
    }

    Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        recording.stop();
        recording.dump(file);
        recording.close();
    }

    /** Execution samples of the job's threads by part: samples, and the busiest methods (self and in the stack). */
    static Map<String, Part> read(Path file, int top) throws IOException {
        Map<String, Counts> byPart = new TreeMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
                continue;
            }
            RecordedThread thread = event.getThread("sampledThread");
            RecordedStackTrace stack = event.getStackTrace();
            if (thread == null || stack == null || stack.getFrames().isEmpty() || thread.getJavaName() == null) {
                continue;
            }
            String name = thread.getJavaName();
            if (!CpuAccount.isJobThreadName(name)) {
                continue;
            }
            byPart.computeIfAbsent(CpuAccount.jobPartOf(name), p -> new Counts()).add(stack.getFrames());
        }
        Map<String, Part> parts = new TreeMap<>();
        byPart.forEach((part, counts) -> parts.put(part, counts.part(top)));
        return parts;
    }

    /** One part's samples and its busiest methods as "Class.method count". */
    record Part(int samples, List<Map.Entry<String, Integer>> self, List<Map.Entry<String, Integer>> total) {}

    private static final class Counts {
        private int samples;
        private final Map<String, Integer> self = new HashMap<>();
        private final Map<String, Integer> total = new HashMap<>();

        void add(List<RecordedFrame> frames) {
            samples++;
            self.merge(method(frames.get(0)), 1, Integer::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame frame : frames) {
                String method = method(frame);
                if (seen.add(method)) {
                    total.merge(method, 1, Integer::sum);
                }
            }
        }

        Part part(int top) {
            return new Part(samples, busiest(self, top), busiest(total, top));
        }

        private static List<Map.Entry<String, Integer>> busiest(Map<String, Integer> counts, int top) {
            return counts.entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(top).toList();
        }

        private static String method(RecordedFrame frame) {
            String type = frame.getMethod().getType().getName();
            return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
        }
    }
}
