package io.flowsql.llm;

import java.util.List;

/** What the disk cache keeps of a response: enough to replay it, nothing about timing. */
record CachedAnswer(List<String> choices, int promptTokens, int completionTokens, boolean estimated, String model,
        boolean simulated, List<String> finishReasons) {

    static CachedAnswer of(ChatResponse response) {
        return new CachedAnswer(response.choices(), response.usage().promptTokens(),
                response.usage().completionTokens(), response.usage().estimated(), response.model(),
                response.simulated(), response.finishReasons());
    }

    /** An embeddings answer: each vector as the Base64 of its little-endian floats, in the choices' places. */
    static CachedAnswer of(EmbeddingResponse response) {
        List<String> encoded = response.vectors().stream().map(CachedAnswer::encode).toList();
        return new CachedAnswer(encoded, response.usage().promptTokens(), 0, response.usage().estimated(),
                response.model(), response.simulated(), List.of());
    }

    EmbeddingResponse toEmbeddings() {
        return new EmbeddingResponse(choices.stream().map(CachedAnswer::decode).toList(),
                new TokenUsage(promptTokens, 0, estimated), model, simulated, 0, 0, true);
    }

    private static String encode(float[] vector) {
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(vector.length * Float.BYTES)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (float v : vector) {
            bytes.putFloat(v);
        }
        return java.util.Base64.getEncoder().encodeToString(bytes.array());
    }

    private static float[] decode(String text) {
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(java.util.Base64.getDecoder().decode(text))
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        float[] vector = new float[bytes.remaining() / Float.BYTES];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = bytes.getFloat();
        }
        return vector;
    }

    ChatResponse toResponse() {
        return new ChatResponse(choices, new TokenUsage(promptTokens, completionTokens, estimated), model, simulated,
                0, 0, true, finishReasons);
    }
}
