package io.flowsql.knowledge;

import io.flowsql.access.DataDoors;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.StageTrace;
import io.flowsql.retrieval.EmbeddingRetriever;
import io.flowsql.retrieval.VectorIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Knowledge matched by meaning: the question and its {@link KnowledgeCandidates} are embedded ({@code /v1/embeddings},
 * use {@value #USE}) and the candidates at least {@code minSimilarity} (cosine) from the question, most similar first,
 * join the term matches' evidence up to the per-question bound. Term matches come first and are never displaced. An
 * entry's vector is cached by its id (an id's text never changes), at most {@value #CACHED} vectors, least recently
 * used evicted; so a question costs one embedding call of the question and the candidates not yet seen. A failed
 * call leaves the term matches alone and says so in the trace. One per engine.
 */
public final class SimilarKnowledge {
    /** The embedding use (model option {@code llm.embedding-model.knowledge.similar}). */
    public static final String USE = "knowledge.similar";
    static final int CACHED = 4096;

    private final DataDoors doors;
    private final double minSimilarity;
    private final int perQuestion;
    private final Map<String, float[]> vectors = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
            return size() > CACHED;
        }
    };

    /** @param doors the room whose embedding retriever embeds (through the question's door; none held: skipped) */
    public SimilarKnowledge(DataDoors doors, double minSimilarity, int perQuestion) {
        this.doors = doors;
        this.minSimilarity = minSimilarity;
        this.perQuestion = perQuestion;
    }

    /** Adds to {@code ctx}'s evidence the candidates similar enough to its question; the future never fails. */
    public CompletableFuture<Void> resolve(RequestContext ctx, StageTrace trace) {
        List<KnowledgeEntry> candidates = KnowledgeCandidates.take(ctx);
        int room = perQuestion - KnowledgeEvidence.used(ctx).size();
        if (candidates.isEmpty() || room <= 0 || minSimilarity <= 0 || ctx.question == null) {
            return CompletableFuture.completedFuture(null);
        }
        List<KnowledgeEntry> unseen = new ArrayList<>();
        Map<String, float[]> known = new HashMap<>();
        synchronized (vectors) {
            for (KnowledgeEntry e : candidates) {
                float[] v = vectors.get(e.knowledgeId);
                if (v == null) {
                    unseen.add(e);
                } else {
                    known.put(e.knowledgeId, v);
                }
            }
        }
        List<String> texts = new ArrayList<>(List.of(ctx.question));
        unseen.forEach(e -> texts.add(text(e)));
        CompletableFuture<List<float[]>> embedded;
        try {
            embedded = doors.door(ctx.dbId, ctx.tenant).learned(EmbeddingRetriever.class)
                    .map(embeddings -> embeddings.embed(USE, texts, trace))
                    .orElseGet(() -> CompletableFuture.failedFuture(new IllegalStateException("no embedding retriever")));
        } catch (RuntimeException e) {
            embedded = CompletableFuture.failedFuture(e);
        }
        return embedded.handle((got, error) -> {
            if (error != null || got == null || got.size() != texts.size()) {
                note(trace, "knowledge by similarity skipped: " + (error != null ? error.getMessage() : "no vectors"));
                return null;
            }
            for (int i = 0; i < unseen.size(); i++) {
                known.put(unseen.get(i).knowledgeId, got.get(i + 1));
            }
            synchronized (vectors) {
                unseen.forEach(e -> vectors.put(e.knowledgeId, known.get(e.knowledgeId)));
            }
            List<float[]> ofCandidates = candidates.stream().map(e -> known.get(e.knowledgeId)).toList();
            List<KnowledgeEntry> chosen = new VectorIndex<>(candidates, ofCandidates).search(got.get(0), room, minSimilarity)
                    .stream().map(VectorIndex.Hit::item).toList();
            KnowledgeEvidence.attach(ctx, chosen);
            return null;
        });
    }

    /** What an entry is embedded as: its term and its definition. */
    static String text(KnowledgeEntry e) {
        return e.term.strip() + ": " + e.definition.strip();
    }

    private static void note(StageTrace trace, String text) {
        if (trace != null) {
            synchronized (trace) {
                trace.note = trace.note == null || trace.note.isEmpty() ? text : trace.note + "; " + text;
            }
        }
    }
}
