package io.flowsql.config.llm;

import java.util.Locale;

/**
 * How the embeddings endpoint is asked to write its vectors ({@code encoding_format}). The client reads either form
 * whatever it asked for, so a server that ignores the field still works; only a server that refuses base64 needs
 * {@link #FLOAT}.
 */
public enum EmbeddingEncoding {
    /**
     * Each vector as one base64 string of little-endian 32-bit floats (OpenAI, llama.cpp, vLLM): a fifth of the bytes
     * and no number to parse. Reading the float form held 199 of the job threads' 1,249 samples in a profile of the
     * sustained throughput run (issue 41, stop 56).
     */
    BASE64,
    /** Each vector as a JSON list of numbers. */
    FLOAT;

    public static EmbeddingEncoding parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("llm.embedding-encoding must be base64 or float; got: " + text);
        }
    }

    /** The value of the request's {@code encoding_format}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
