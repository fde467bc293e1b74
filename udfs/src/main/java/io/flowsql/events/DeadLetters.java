package io.flowsql.events;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Builds dead letters that always fit their topic, however large or hostile the refused record: the value becomes
 * an excerpt whose JSON-escaped size is bounded (a byte 0x01 escapes to six characters, a quote to two), plus its
 * size and SHA-256; the key and the reason are bounded the same way.
 */
public final class DeadLetters {
    /** Escaped bytes of the value's excerpt at most, by default. */
    public static final int DEFAULT_EXCERPT_BYTES = 4_096;
    /** Escaped bytes of the key and of the reason at most. */
    static final int MAX_KEY_BYTES = 512;
    static final int MAX_REASON_BYTES = 2_048;

    private DeadLetters() {}

    /**
     * @param excerptBytes at most this many bytes of the value's excerpt once escaped into JSON
     */
    public static DeadLetterEvent of(byte[] key, byte[] value, String topic, int partition, long offset, String reason,
                                     String receivedAt, int excerptBytes) {
        DeadLetterEvent d = new DeadLetterEvent(null, topic, partition, offset, excerpt(reason, MAX_REASON_BYTES), receivedAt);
        if (value != null) {
            String text = new String(value, StandardCharsets.UTF_8);
            d.raw = excerpt(text, excerptBytes);
            d.rawTruncated = d.raw.length() < text.length();
            d.rawBytes = (long) value.length;
            d.rawSha256 = sha256(value);
        }
        if (key != null) {
            d.key = excerpt(new String(key, StandardCharsets.UTF_8), MAX_KEY_BYTES);
        }
        return d;
    }

    /** The longest prefix of {@code text} whose JSON string encoding takes at most {@code maxBytes} bytes. */
    public static String excerpt(String text, int maxBytes) {
        if (text == null) {
            return null;
        }
        long used = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int cost = escapedBytes(cp);
            if (used + cost > maxBytes) {
                break;
            }
            used += cost;
            i += Character.charCount(cp);
        }
        return text.substring(0, i);
    }

    private static int escapedBytes(int cp) {
        if (cp == '"' || cp == '\\' || cp == '\b' || cp == '\f' || cp == '\n' || cp == '\r' || cp == '\t') {
            return 2;
        }
        if (cp < 0x20 || cp == 0xFFFD) {
            return 6;
        }
        if (cp < 0x80) {
            return 1;
        }
        if (cp < 0x800) {
            return 2;
        }
        // a lone surrogate may be escaped as \\uXXXX; a supplementary character takes 4 bytes, or 12 as two escapes
        return cp < 0x10000 ? 6 : 12;
    }

    private static String sha256(byte[] value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-256", e);
        }
    }
}
