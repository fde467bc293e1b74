package io.flowsql.journal;

import io.flowsql.llm.ChatRequest;
import io.flowsql.llm.ReplySchema;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls of one stage applied to one request. Each call's journal key is
 * {@code <journal id>|<stage>|<fingerprint of the request>|<occurrence>}: the fingerprint covers everything
 * sent to the model (messages, sampling, limits, format), and the occurrence numbers identical requests of
 * the same stage application (0, 1, ...), so concurrent calls with different prompts get their keys
 * whatever order they are issued in, and a stage that asks the same thing twice gets both answers back.
 */
public final class JournalScope {
    private final String journalId;
    private final String stage;
    private final Map<String, AtomicInteger> occurrences = new ConcurrentHashMap<>();

    public JournalScope(String journalId, String stage) {
        this.journalId = Objects.requireNonNull(journalId, "journalId");
        this.stage = Objects.requireNonNull(stage, "stage");
    }

    public String journalId() {
        return journalId;
    }

    public String stage() {
        return stage;
    }

    /** The key of the next call with this request in this stage application. */
    public String keyFor(ChatRequest request) {
        String fingerprint = fingerprint(request);
        int occurrence = occurrences.computeIfAbsent(fingerprint, f -> new AtomicInteger()).getAndIncrement();
        return prefixOf(journalId) + stage + "|" + fingerprint + "|" + occurrence;
    }

    /** The start every key of one journal id has. */
    public static String prefixOf(String journalId) {
        return journalId + "|";
    }

    /**
     * SHA-256 (first 128 bits, hex) of the request's record text, which lists every component (the stage,
     * model override, each message, temperature, top_p, n, max_tokens, seed, stop, format and whatever a
     * later version adds), with the reply schema written out in full (its own text names it only): any change
     * to what is asked is a new key.
     */
    static String fingerprint(ChatRequest request) {
        ReplySchema reply = request.reply();
        String text = request.withReply(null) + (reply == null ? "" : "|" + reply.name() + "|" + reply.schema());
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
