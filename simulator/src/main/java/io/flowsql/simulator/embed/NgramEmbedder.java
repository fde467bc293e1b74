package io.flowsql.simulator.embed;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The simulator's stand-in for an embedding model: a text's character trigrams (lower-cased, each word padded with
 * spaces, underscores read as spaces) hashed into {@value #DIMENSIONS} signed buckets, L2-normalised. Deterministic,
 * and texts that share spelling get a high cosine ("singer name" ~ "singer_name" ~ "name of the singer"), which is
 * all column and value retrieval needs to be exercised; it knows no synonyms ("age" is not near "old").
 */
public final class NgramEmbedder {
    public static final int DIMENSIONS = 256;

    private NgramEmbedder() {}

    public static float[] embed(String text) {
        float[] vector = new float[DIMENSIONS];
        String normal = " " + (text == null ? "" : text).toLowerCase(Locale.ROOT)
                .replaceAll("[_\\W]+", " ").trim() + " ";
        for (int i = 0; i + 3 <= normal.length(); i++) {
            int hash = fnv(normal.substring(i, i + 3));
            vector[Math.floorMod(hash, DIMENSIONS)] += (hash >>> 31) == 0 ? 1f : -1f;
        }
        double norm = 0;
        for (float v : vector) {
            norm += v * v;
        }
        if (norm == 0) {
            vector[0] = 1f; // an empty text still gets a unit vector
            return vector;
        }
        float scale = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < vector.length; i++) {
            vector[i] *= scale;
        }
        return vector;
    }

    /** 32-bit FNV-1a of the UTF-8 bytes: the same bucket on every JVM. */
    private static int fnv(String gram) {
        int hash = 0x811c9dc5;
        for (byte b : gram.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x01000193;
        }
        return hash;
    }
}
