package io.flowsql.agents.opensearch.fewshot;

import io.flowsql.access.DataDoor;
import io.flowsql.access.DataDoors;
import io.flowsql.access.Scoped;
import io.flowsql.sql.catalog.SchemaCatalog;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.text.similarity.CosineSimilarity;

/**
 * OpenSearch-SQL's few-shot library: examples in a JSON Lines file, retrieved for a question by the cosine
 * similarity (Apache Commons Text) of the masked questions' word and word-pair counts. Immutable once loaded;
 * {@link #shared(Path)} gives one instance per file per JVM. The engine's library is held by the data room
 * ({@link DataDoors#holding}); stages see it only through a request's door ({@link Shown}).
 */
public final class ExampleLibrary implements Scoped<ExampleLibrary.Shown> {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<Path, ExampleLibrary> SHARED = new ConcurrentHashMap<>();
    private static final CosineSimilarity COSINE = new CosineSimilarity();

    private final List<FewShotExample> examples;
    private final List<Map<CharSequence, Integer>> vectors;
    private final Map<String, FewShotExample> byId = new HashMap<>();

    public ExampleLibrary(List<FewShotExample> examples) {
        this.examples = List.copyOf(examples);
        this.vectors = this.examples.stream().map(e -> vector(e.maskedQuestion())).toList();
        this.examples.forEach(e -> byId.put(e.id(), e));
    }

    /** A scored retrieval. */
    public record Hit(FewShotExample example, double similarity) {}

    @Override
    public Shown through(DataDoor door) {
        return new Shown(this, door);
    }

    /**
     * The library as one door's tenant may see it: only examples whose SQL that tenant may be shown on the example's
     * database ({@link DataDoor#mayShowOn}), chosen for a question of the door's database.
     */
    public static final class Shown {
        private final ExampleLibrary library;
        private final DataDoor door;

        private Shown(ExampleLibrary library, DataDoor door) {
            this.library = library;
            this.door = door;
        }

        /** {@code examples} (such as a request's live examples) as {@code door}'s tenant may see them. */
        public static Shown of(List<FewShotExample> examples, DataDoor door) {
            return new Shown(new ExampleLibrary(examples), door);
        }

        /**
         * The k most similar examples the tenant may be shown to a masked question of the door's database, the filter
         * applied before the top k is taken (see {@link ExampleLibrary#similar(String, String, String, int, boolean,
         * java.util.function.Predicate)}).
         */
        public List<Hit> similar(String maskedQuestion, String question, int k, boolean otherDatabasesOnly) {
            return library.similar(maskedQuestion, door.dbId(), question, k, otherDatabasesOnly, this::mayShow);
        }

        /** The example of this id, when the tenant may be shown it. */
        public java.util.Optional<FewShotExample> byId(String id) {
            return library.byId(id).filter(this::mayShow);
        }

        private boolean mayShow(FewShotExample e) {
            return door.mayShowOn(e.dbId(), e.sql());
        }
    }

    public static ExampleLibrary load(Path file) {
        List<FewShotExample> out = new ArrayList<>();
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).isBlank()) {
                    continue;
                }
                try {
                    out.add(JSON.readValue(lines.get(i), FewShotExample.class));
                } catch (IOException e) {
                    throw new IllegalArgumentException(file + ":" + (i + 1) + ": not a few-shot example: " + e.getMessage(), e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the few-shot library " + file, e);
        }
        return new ExampleLibrary(out);
    }

    public static ExampleLibrary shared(Path file) {
        return SHARED.computeIfAbsent(file.toAbsolutePath().normalize(), ExampleLibrary::load);
    }

    /**
     * The library at {@code file} (null: kept in memory only), built at first start from dialogue files in the
     * SParC/CoSQL layout ({@link DialogueExamples}) when the file does not exist yet; written through a temporary file
     * and a move, so a second JVM starting at the same moment reads a whole library or builds its own.
     */
    public static ExampleLibrary sharedOrBuilt(Path file, List<Path> sources, SchemaCatalog catalog) {
        Path key = file != null ? file.toAbsolutePath().normalize()
                : Path.of("memory:" + sources.stream().map(p -> p.toAbsolutePath().normalize().toString()).sorted()
                        .collect(java.util.stream.Collectors.joining("|")));
        return SHARED.computeIfAbsent(key, k -> {
            if (file != null && Files.exists(file)) {
                return load(file);
            }
            List<FewShotExample> built = DialogueExamples.build(sources, catalog);
            if (file != null) {
                writeAtomically(built, file);
            }
            return new ExampleLibrary(built);
        });
    }

    private static void writeAtomically(List<FewShotExample> examples, Path file) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            write(examples, tmp);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the few-shot library " + file, e);
        }
    }

    /** Builds examples from (id, db, question, sql) items, masking each question with its database's schema. */
    public static List<FewShotExample> build(List<String[]> items, SchemaCatalog catalog) {
        List<FewShotExample> out = new ArrayList<>();
        DataDoors doors = DataDoors.open(null, catalog);
        for (String[] item : items) {
            String masked = QuestionMasker.mask(item[2], doors.operator(item[1]).schema());
            out.add(new FewShotExample(item[0], item[1], item[2], masked, null, item[3]));
        }
        return out;
    }

    public static void write(List<FewShotExample> examples, Path file) {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (FewShotExample e : examples) {
                out.write(JSON.writeValueAsString(e));
                out.newLine();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the few-shot library " + file, e);
        }
    }

    public int size() {
        return examples.size();
    }

    /** Every example, in file order. */
    public List<FewShotExample> examples() {
        return examples;
    }

    public java.util.Optional<FewShotExample> byId(String id) {
        return java.util.Optional.ofNullable(byId.get(id));
    }

    /**
     * The k most similar examples to a masked question (ties: library order), leaving out the question itself
     * (same database and text) so an evaluation never shows a question its own answer.
     */
    public List<Hit> similar(String maskedQuestion, String dbId, String question, int k) {
        return similar(maskedQuestion, dbId, question, k, false);
    }

    /**
     * As above; with {@code otherDatabasesOnly} no example of the question's own database is chosen, as the authors'
     * examples (Spider's or BIRD's training set) never share a database with the questions evaluated.
     */
    public List<Hit> similar(String maskedQuestion, String dbId, String question, int k, boolean otherDatabasesOnly) {
        return similar(maskedQuestion, dbId, question, k, otherDatabasesOnly, e -> true);
    }

    /** As above, choosing only examples {@code shown} accepts (the asker's policy: {@code DataDoor.mayShow}). */
    public List<Hit> similar(String maskedQuestion, String dbId, String question, int k, boolean otherDatabasesOnly,
                             java.util.function.Predicate<FewShotExample> shown) {
        Map<CharSequence, Integer> query = vector(maskedQuestion);
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < examples.size(); i++) {
            FewShotExample e = examples.get(i);
            boolean sameDatabase = e.dbId().equalsIgnoreCase(dbId);
            if (sameDatabase && (otherDatabasesOnly || e.question().strip().equalsIgnoreCase(question.strip()))
                    || !shown.test(e)) {
                continue;
            }
            Double score = COSINE.cosineSimilarity(query, vectors.get(i));
            hits.add(new Hit(e, score == null || score.isNaN() ? 0 : score));
        }
        hits.sort(Comparator.comparingDouble(Hit::similarity).reversed());
        return List.copyOf(hits.subList(0, Math.min(k, hits.size())));
    }

    /** Counts of the masked question's words and adjacent word pairs. */
    private static Map<CharSequence, Integer> vector(String masked) {
        Map<CharSequence, Integer> counts = new HashMap<>();
        String[] words = masked == null ? new String[0] : masked.strip().split("\\s+");
        for (int i = 0; i < words.length; i++) {
            if (words[i].isEmpty()) {
                continue;
            }
            counts.merge(words[i], 1, Integer::sum);
            if (i + 1 < words.length) {
                counts.merge(words[i] + " " + words[i + 1], 1, Integer::sum);
            }
        }
        return counts;
    }
}
