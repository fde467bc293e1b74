package io.flowsql.agents.sqlfix;

import io.flowsql.access.DataDoor;
import io.flowsql.access.Scoped;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SQLFixAgent's memory of past repairs, kept across requests (and restarts) in a JSON-lines file: loaded
 * once, appended on every successful repair, searched for the repairs whose question and SQL look most
 * like the current ones. Safe to share between threads.
 */
public final class RepairMemory implements Scoped<RepairMemory.Shown> {
    private static final Logger LOG = LoggerFactory.getLogger(RepairMemory.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<Path, RepairMemory> BY_PATH = new ConcurrentHashMap<>();

    private final Optional<Path> file;
    private final boolean learns;
    private final List<Remembered> records = new ArrayList<>();
    private final java.util.Set<Path> seeds = new java.util.HashSet<>();

    /** A repair with the word sets of its question and wrong SQL, computed once rather than on every lookup. */
    private record Remembered(RepairRecord repair, TokenOverlap words) {
        static Remembered of(RepairRecord repair) {
            return new Remembered(repair, TokenOverlap.of(repair.question(), repair.wrongSql()));
        }
    }

    private RepairMemory(Optional<Path> file, boolean learns) {
        this.file = file;
        this.learns = learns;
    }

    /** A memory that lives only as long as this object (nothing is written). */
    public static RepairMemory inMemory() {
        return new RepairMemory(Optional.empty(), true);
    }

    /** A memory backed by a JSON-lines file, loaded now (a missing file is an empty memory). */
    public static RepairMemory open(Path path) {
        RepairMemory memory = new RepairMemory(Optional.of(path), true);
        memory.load(path);
        return memory;
    }

    /**
     * The repairs of a file (or none, for a null path) as they are now, learning nothing new: what the refiner is shown
     * then no longer depends on the order in which parallel requests finish, so a run replayed from the LLM response
     * cache sends exactly the prompts it recorded.
     */
    public static RepairMemory frozen(Path path) {
        RepairMemory memory = new RepairMemory(Optional.ofNullable(path), false);
        if (path != null) {
            memory.load(path);
        }
        return memory;
    }

    /** The one memory of this JVM for a file, so every strategy built in the JVM appends to the same object. */
    public static RepairMemory shared(Path path) {
        return BY_PATH.computeIfAbsent(path.toAbsolutePath().normalize(), RepairMemory::open);
    }

    private void load(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try {
            for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    readLine(line).map(Remembered::of).ifPresent(records::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read repair memory " + path, e);
        }
        LOG.info("repair memory {}: {} repairs loaded", path, records.size());
    }

    private static Optional<RepairRecord> readLine(String line) {
        try {
            return Optional.of(JSON.readValue(line, RepairRecord.class));
        } catch (JsonProcessingException e) {
            LOG.warn("skipping an unreadable repair memory line: {}", e.getOriginalMessage());
            return Optional.empty();
        }
    }

    /**
     * Adds the verified repairs of a seed file (JSON lines, built by {@code eval.sh repair-memory}) to what this memory
     * searches, once per file however often it is asked; they are never appended to the memory's own file.
     */
    public synchronized RepairMemory seededWith(Path seedFile) {
        Path key = seedFile.toAbsolutePath().normalize();
        if (!seeds.add(key)) {
            return this;
        }
        if (!Files.exists(seedFile)) {
            throw new IllegalArgumentException("repair memory seed " + seedFile + " does not exist (eval.sh repair-memory writes it)");
        }
        int before = records.size();
        load(seedFile);
        LOG.info("repair memory: {} seeded repairs from {}", records.size() - before, seedFile);
        return this;
    }

    /** Remembers a repair and appends it to the file (a frozen memory ignores it). */
    public synchronized void add(RepairRecord record) {
        if (!learns) {
            return;
        }
        records.add(Remembered.of(record));
        file.ifPresent(path -> append(path, record));
    }

    private static void append(Path path, RepairRecord record) {
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (BufferedWriter out = Files.newBufferedWriter(path, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
                out.write(JSON.writeValueAsString(record));
                out.newLine();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to repair memory " + path, e);
        }
    }

    /** The repairs most similar to this question and wrong SQL, best first, at most {@code limit}, none below a minimal overlap. */
    public List<RepairRecord> similar(String question, String wrongSql, int limit) {
        return similar(question, wrongSql, limit, List.of());
    }

    /**
     * The same ranking over the remembered repairs and {@code extra} ones (a request's live repairs from the feedback
     * topic; an extra repair wins a tie).
     */
    public List<RepairRecord> similar(String question, String wrongSql, int limit, List<RepairRecord> extra) {
        return similar(null, question, wrongSql, limit, extra);
    }

    /**
     * As above, leaving out the seeded repairs of {@code dbId} (null: none left out): seeds built from an evaluation
     * set's own predictions must never show a question its own database's gold SQL.
     */
    public List<RepairRecord> similar(String dbId, String question, String wrongSql, int limit, List<RepairRecord> extra) {
        return similar(dbId, question, wrongSql, limit, extra, r -> true);
    }

    /** As above, choosing only repairs {@code shown} accepts (the asker's policy: {@code DataDoor.mayShow}). */
    public List<RepairRecord> similar(String dbId, String question, String wrongSql, int limit, List<RepairRecord> extra,
                                      java.util.function.Predicate<RepairRecord> shown) {
        TokenOverlap query = TokenOverlap.of(question, wrongSql);
        List<Remembered> pool = new ArrayList<>(extra.stream().map(Remembered::of).toList());
        synchronized (this) {
            records.stream().filter(r -> dbId == null || !r.repair().seeded() || !dbId.equalsIgnoreCase(r.repair().dbId()))
                    .forEach(pool::add);
        }
        return pool.stream()
                .filter(r -> shown.test(r.repair()))
                .map(r -> Map.entry(r.repair(), query.similarity(r.words())))
                .filter(e -> e.getValue() > 0.1)
                .sorted(Map.Entry.<RepairRecord, Double>comparingByValue(Comparator.reverseOrder()))
                .limit(limit)
                .map(Map.Entry::getKey)
                .toList();
    }

    public synchronized int size() {
        return records.size();
    }

    @Override
    public Shown through(DataDoor door) {
        return new Shown(this, door);
    }

    /**
     * The memory as one door's tenant may see it: only repairs whose wrong and fixed SQL that tenant may be shown on the
     * repair's database ({@link DataDoor#mayShowOn}), filtered before the best are taken.
     */
    public static final class Shown {
        private final RepairMemory memory;
        private final DataDoor door;

        private Shown(RepairMemory memory, DataDoor door) {
            this.memory = memory;
            this.door = door;
        }

        /** A door's view of no memory at all: only the extra (live) repairs are ranked, nothing is remembered. */
        public static Shown none(DataDoor door) {
            return new Shown(new RepairMemory(Optional.empty(), false), door);
        }

        /**
         * The repairs (remembered and {@code extra}) most similar to this question and wrong SQL that the tenant may be
         * shown; with {@code seedsOfOtherDatabasesOnly} no seeded repair of the door's database.
         */
        public List<RepairRecord> similar(String question, String wrongSql, int limit, List<RepairRecord> extra,
                                          boolean seedsOfOtherDatabasesOnly) {
            return memory.similar(seedsOfOtherDatabasesOnly ? door.dbId() : null, question, wrongSql, limit, extra,
                    r -> door.mayShowOn(r.dbId(), r.wrongSql(), r.fixedSql()));
        }

        /** Remembers a repair (shown to others only through their own doors). */
        public void add(RepairRecord record) {
            memory.add(record);
        }
    }
}
