package io.flowsql.retrieval;

import io.flowsql.access.DataDoor;
import io.flowsql.access.Scoped;
import io.flowsql.llm.EmbeddingRequest;
import io.flowsql.llm.EmbeddingResponse;
import io.flowsql.llm.LlmClient;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.sql.ColumnRef;
import io.flowsql.sql.ColumnSchema;
import io.flowsql.sql.DatabaseSchema;
import io.flowsql.sql.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Embedding retrieval as OpenSearch-SQL's extraction does it: a database's columns embedded once (as their readable
 * names, {@code table column} plus the description when there is one) into a {@link VectorIndex} kept per database,
 * and any texts embedded per question. Every embedding call is counted into the stage's trace (calls, prompt tokens,
 * latency, model, simulated). One per engine, held by the data room; stages reach it through a request's door
 * ({@link Shown}), so a column index is only ever of the tables the door's tenant may see.
 */
public final class EmbeddingRetriever implements Scoped<EmbeddingRetriever.Shown> {
    /** The embedding use (model option {@code llm.embedding-model.<use>}) for columns and for values. */
    public static final String COLUMNS_USE = "opensearch.retrieve.columns";
    public static final String VALUES_USE = "opensearch.retrieve.values";
    /** Both of the above in one request ({@link #embedBoth}), when they take the same model. */
    public static final String COLUMNS_AND_VALUES_USE = "opensearch.retrieve.columns+values";

    private final LlmClient llm;
    private final Map<String, CompletableFuture<VectorIndex<ColumnRef>>> columnIndexes = new ConcurrentHashMap<>();

    public EmbeddingRetriever(LlmClient llm) {
        this.llm = llm;
    }

    @Override
    public Shown through(DataDoor door) {
        return new Shown(this, door);
    }

    /** The retriever as one door sees it: the column index of the tables the door's tenant may see. */
    public static final class Shown {
        private final EmbeddingRetriever retriever;
        private final DataDoor door;

        private Shown(EmbeddingRetriever retriever, DataDoor door) {
            this.retriever = retriever;
            this.door = door;
        }

        /** The column index of the tables the door's tenant may see ({@link DataDoor#schema}). */
        public CompletableFuture<VectorIndex<ColumnRef>> columns(StageTrace trace) {
            return retriever.columns(door.schema(), trace);
        }

        /** The vectors of {@code texts} for {@code use}, in order; counted into {@code trace}. */
        public CompletableFuture<List<float[]>> embed(String use, List<String> texts, StageTrace trace) {
            return retriever.embed(use, texts, trace);
        }

        /** {@link EmbeddingRetriever#embedBoth}. */
        public TwoLists embedBoth(String firstUse, List<String> first, String secondUse, List<String> second,
                                  String bothUse, StageTrace trace) {
            return retriever.embedBoth(firstUse, first, secondUse, second, bothUse, trace);
        }
    }

    /** The column index of a database, built on the first request for it (a failed build is tried again next time). */
    public CompletableFuture<VectorIndex<ColumnRef>> columns(DatabaseSchema schema, StageTrace trace) {
        // one index per database and set of visible tables: a tenant's index holds only its tables' columns
        String key = schema.dbId() + "\u0000" + String.join("\u0000", schema.tables().stream().map(TableSchema::name).toList());
        CompletableFuture<VectorIndex<ColumnRef>> index = columnIndexes.computeIfAbsent(key, db -> {
            List<ColumnRef> refs = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            for (TableSchema table : schema.tables()) {
                for (ColumnSchema column : table.columns()) {
                    refs.add(column.ref());
                    texts.add(columnText(column));
                }
            }
            return embed(COLUMNS_USE, texts, trace).thenApply(vectors -> new VectorIndex<>(refs, vectors));
        });
        index.whenComplete((ignored, error) -> {
            if (error != null) {
                columnIndexes.remove(key, index);
            }
        });
        return index;
    }

    /** What a column is embedded as: its table and column names read as words, and its description. */
    static String columnText(ColumnSchema column) {
        String words = (column.table() + " " + column.name()).replace('_', ' ');
        String description = column.description().isBlank() ? "" : " (" + column.description().strip() + ")";
        return words + description;
    }

    /** The vectors of {@code texts} for {@code use}, in order; counted into {@code trace}. */
    public CompletableFuture<List<float[]>> embed(String use, List<String> texts, StageTrace trace) {
        if (texts.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        return send(EmbeddingRequest.of(use, texts), trace);
    }

    /** The vectors of two lists of texts, each list's as its own future (one request's failure fails only its list). */
    public record TwoLists(CompletableFuture<List<float[]>> first, CompletableFuture<List<float[]>> second) {}

    /**
     * The vectors of {@code first} for {@code firstUse} and of {@code second} for {@code secondUse}. When the client
     * embeds both uses with the same model, one request carries both lists (named {@code bothUse}, for the meter and
     * the trace): a stage that needs both pays one exchange, not two. Otherwise, or when one list is empty, each list
     * is its own request, as {@link #embed} sends it.
     */
    public TwoLists embedBoth(String firstUse, List<String> first, String secondUse, List<String> second, String bothUse,
                              StageTrace trace) {
        String model = llm.embeddingModelOf(firstUse);
        if (first.isEmpty() || second.isEmpty() || model == null || !model.equals(llm.embeddingModelOf(secondUse))) {
            return new TwoLists(embed(firstUse, first, trace), embed(secondUse, second, trace));
        }
        List<String> texts = new ArrayList<>(first.size() + second.size());
        texts.addAll(first);
        texts.addAll(second);
        CompletableFuture<List<float[]>> both = send(new EmbeddingRequest(bothUse, texts, model), trace);
        return new TwoLists(both.thenApply(vectors -> vectors.subList(0, first.size())),
                both.thenApply(vectors -> vectors.subList(first.size(), vectors.size())));
    }

    /** Sends one request and counts it into {@code trace}; a reply with another number of vectors than texts fails. */
    private CompletableFuture<List<float[]>> send(EmbeddingRequest request, StageTrace trace) {
        long sentAt = System.currentTimeMillis();
        return llm.embed(request).thenApply(response -> {
            record(trace, response, sentAt);
            if (response.vectors().size() != request.inputs().size()) {
                throw new IllegalStateException("the embeddings endpoint returned " + response.vectors().size()
                        + " vectors for " + request.inputs().size() + " texts");
            }
            return response.vectors();
        });
    }

    private static void record(StageTrace trace, EmbeddingResponse response, long sentAt) {
        if (trace == null) {
            return;
        }
        synchronized (trace) {
            if (!response.cached()) {
                trace.countEmbedding(sentAt, System.currentTimeMillis() - sentAt);
                trace.promptTokens += response.usage().promptTokens();
                trace.retries += response.retries();
                trace.latencyMillis += response.latencyMillis();
            }
            trace.simulated |= response.simulated();
            if (trace.model == null) {
                trace.model = response.model();
            }
        }
    }
}
