package io.flowsql.agents.opensearch.extract;

import io.flowsql.agents.common.ValueText;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageSql;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.retrieval.EmbeddingRetriever;
import io.flowsql.retrieval.VectorIndex;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ValueMatch;
import io.flowsql.access.DataDoor;
import io.flowsql.agents.common.SchemaContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * {@code opensearch.retrieve}: OpenSearch-SQL's embedding retrieval after extraction, through the OpenAI embeddings API.
 * <ul>
 * <li>Columns: the question's word n-grams (1-4 words) plus the column words its wh-words call for (who → name; when
 * → date, time; where → country, city, location, place; which → name, id, date) are embedded; each phrase keeps its
 * {@code retrieveColumnsPerPhrase} nearest columns at cosine ≥ {@code retrieveColumnMinScore} (the authors' 4 and
 * 0.7).</li>
 * <li>Values: each extracted value and entity (numbers skipped) is embedded with the database values the value index
 * proposes for it ({@code retrieveValueCandidates}); those at cosine ≥ {@code retrieveValueMinScore} are kept, an
 * exact (case-folded) match always. The authors embed every value of the database offline; we re-rank the value
 * index's candidates instead, which needs no offline step and no vectors of a whole BIRD database in memory.</li>
 * </ul>
 * When both uses embed with the same model, the phrases and the values go in one embeddings request
 * ({@code opensearch.retrieve.columns+values} in the meter), else in one each.
 * Both search only what the question's tenant may see: columns of its visible schema
 * ({@link SchemaContext#visibleSchema}), values of its allowed tables.
 * Writes {@code notes["retrieve.columns"]}, {@code notes["retrieve.values"]} and adds the values to
 * {@code ctx.matchedValues} (which the generator and the corrector show). Without an extraction (stage disabled) the
 * question's n-grams still retrieve columns, and the question alone proposes values.
 */
public final class RetrievalStage implements Stage {
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");
    private static final Map<String, List<String>> WH_RECALL = Map.of(
            "who", List.of("name"),
            "which", List.of("name", "id", "date"),
            "when", List.of("date", "time"),
            "where", List.of("country", "city", "location", "place"));
    private static final int MAX_PHRASES = 160;

    private final SchemaContext schemas;
    private final int perPhrase;
    private final double columnMinScore;
    private final double valueMinScore;
    private final int valueCandidates;

    public RetrievalStage(SchemaContext schemas, int perPhrase, double columnMinScore, double valueMinScore, int valueCandidates) {
        this.schemas = schemas;
        this.perPhrase = perPhrase;
        this.columnMinScore = columnMinScore;
        this.valueMinScore = valueMinScore;
        this.valueCandidates = valueCandidates;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        DataDoor door = schemas.doors().door(ctx.dbId, ctx.tenant);
        Optional<EmbeddingRetriever.Shown> held = door.learned(EmbeddingRetriever.class);
        if (held.isEmpty()) {
            trace.note = "no embedding retriever: retrieval skipped";
            return CompletableFuture.completedFuture(null);
        }
        EmbeddingRetriever.Shown retriever = held.get();
        List<String> phrases = phrases(ctx.question);
        ValuesAsked asked = valuesAsked(ctx, door);
        // the phrases and the values in one embeddings request when both uses take the same model; the scoring goes
        // to the stage's work pool: the embeddings complete on the LLM client's callback threads
        EmbeddingRetriever.TwoLists vectors = retriever.embedBoth(EmbeddingRetriever.COLUMNS_USE, phrases,
                EmbeddingRetriever.VALUES_USE, asked.texts(), EmbeddingRetriever.COLUMNS_AND_VALUES_USE, trace);
        CompletableFuture<List<String>> columns = retriever.columns(trace).thenCombine(vectors.first(), (index, near) ->
                StageSql.offload(trace, () -> CompletableFuture.completedFuture(columnsNear(index, near))))
                .thenCompose(scored -> scored);
        CompletableFuture<List<String>> matched = asked.texts().isEmpty() ? CompletableFuture.completedFuture(List.of())
                : vectors.second().thenCompose(near -> StageSql.offload(trace,
                        () -> CompletableFuture.completedFuture(valuesNear(asked.candidates(), near))));
        // retrieval only adds hints: an endpoint without embeddings (llama-server started without --embeddings) or a
        // failed call leaves them out and the request goes on, noted in the trace
        java.util.concurrent.atomic.AtomicReference<String> failure = new java.util.concurrent.atomic.AtomicReference<>();
        columns = columns.exceptionally(error -> { failure.set(String.valueOf(rootOf(error).getMessage())); return List.of(); });
        matched = matched.exceptionally(error -> { failure.set(String.valueOf(rootOf(error).getMessage())); return List.of(); });
        return columns.thenCombine(matched, (cols, vals) -> {
            synchronized (ctx) {
                Extraction.put(ctx, Extraction.RETRIEVED_COLUMNS, cols);
                Extraction.put(ctx, Extraction.RETRIEVED_VALUES, vals);
                vals.stream().filter(v -> !ctx.matchedValues.contains(v)).forEach(ctx.matchedValues::add);
            }
            trace.note = phrases.size() + " phrases → " + cols.size() + " columns; " + vals.size() + " values"
                    + (failure.get() == null ? "" : "; embeddings failed, retrieval skipped: " + failure.get());
            return null;
        });
    }

    private static Throwable rootOf(Throwable error) {
        Throwable t = error;
        while ((t instanceof java.util.concurrent.CompletionException || t instanceof java.util.concurrent.ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** The candidates of each value asked for, and the texts to embed: each value asked, then its candidates. */
    private record ValuesAsked(Map<String, List<ValueMatch>> candidates, List<String> texts) {}

    /** What values are looked up for: the extraction's values and entities, else the question itself. */
    private ValuesAsked valuesAsked(RequestContext ctx, DataDoor door) {
        Set<String> asked = new LinkedHashSet<>(Extraction.list(ctx, Extraction.VALUES));
        asked.addAll(Extraction.list(ctx, Extraction.ENTITIES));
        asked.removeIf(v -> v.isBlank() || NUMBER.matcher(v.strip()).matches());
        if (asked.isEmpty() && !ctx.notes.containsKey(Extraction.COLUMNS)) {
            asked.add(ctx.question);
        }
        Map<String, List<ValueMatch>> candidates = new LinkedHashMap<>();
        List<String> texts = new ArrayList<>();
        for (String value : asked) {
            List<ValueMatch> found = door.values(value, valueCandidates);
            if (!found.isEmpty()) {
                candidates.put(value, found);
                texts.add(value);
                found.forEach(m -> texts.add(m.value()));
            }
        }
        return new ValuesAsked(candidates, texts);
    }

    /** The columns within {@code columnMinScore} of a phrase, at most {@code perPhrase} a phrase, in the order found. */
    private List<String> columnsNear(VectorIndex<ColumnRef> index, List<float[]> vectors) {
        Set<String> found = new LinkedHashSet<>();
        for (float[] phrase : vectors) {
            for (VectorIndex.Hit<ColumnRef> hit : index.search(phrase, perPhrase, columnMinScore)) {
                found.add(hit.item().table() + "." + hit.item().column());
            }
        }
        return new ArrayList<>(found);
    }

    /** The candidates the value asked for matches exactly or within {@code valueMinScore}, as prompt lines. */
    private List<String> valuesNear(Map<String, List<ValueMatch>> candidates, List<float[]> vectors) {
        Set<String> kept = new LinkedHashSet<>();
        int at = 0;
        for (Map.Entry<String, List<ValueMatch>> entry : candidates.entrySet()) {
            float[] asking = vectors.get(at++);
            for (ValueMatch m : entry.getValue()) {
                float[] candidate = vectors.get(at++);
                boolean exact = m.value().strip().equalsIgnoreCase(entry.getKey().strip());
                if (exact || VectorIndex.cosine(asking, candidate) >= valueMinScore) {
                    kept.add(ValueText.of(m));
                }
            }
        }
        return new ArrayList<>(kept);
    }

    /** The question's 1-4 word n-grams and the column words its wh-words call for (at most {@value #MAX_PHRASES}). */
    static List<String> phrases(String question) {
        String[] words = question.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\s]", " ").trim().split("\\s+");
        Set<String> out = new LinkedHashSet<>();
        for (int n = 1; n <= 4; n++) {
            for (int i = 0; i + n <= words.length; i++) {
                out.add(String.join(" ", java.util.Arrays.copyOfRange(words, i, i + n)));
            }
        }
        for (String word : words) {
            out.addAll(WH_RECALL.getOrDefault(word, List.of()));
        }
        out.remove("");
        return out.stream().limit(MAX_PHRASES).toList();
    }
}
