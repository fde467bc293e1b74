package io.flowsql.pipeline;

import org.apache.flink.types.StringValue;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The primitives of the request context's wire format ({@link ContextCodec}): variable-length numbers, strings and
 * enums that may be null, and counts where 0 means a null list, so a mostly empty context costs a few bytes.
 */
final class ContextWire {
    private ContextWire() {}

    static void writeVarLong(DataOutput out, long value) throws IOException {
        long v = (value << 1) ^ (value >> 63); // zig-zag: small negatives stay small
        while ((v & ~0x7FL) != 0) {
            out.writeByte((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.writeByte((int) v);
    }

    static long readVarLong(DataInput in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (v >>> 1) ^ -(v & 1);
            }
        }
        throw new IOException("malformed variable-length number in a request context");
    }

    static void writeInt(DataOutput out, int value) throws IOException {
        writeVarLong(out, value);
    }

    static int readInt(DataInput in) throws IOException {
        return Math.toIntExact(readVarLong(in));
    }

    /** A collection's size, or null: written as size + 1, 0 meaning null. */
    static void writeCount(DataOutput out, java.util.Collection<?> items) throws IOException {
        writeInt(out, items == null ? 0 : items.size() + 1);
    }

    /** The size {@link #writeCount} wrote, -1 for null. */
    static int readCount(DataInput in) throws IOException {
        return readInt(in) - 1;
    }

    /**
     * Flink's {@link StringValue#writeString} bytes (null-safe): the length + 1 as 7-bit groups, then each char, one
     * byte when below 0x80. A string of ASCII only, most of a context, is written as those bytes in one call rather
     * than a call per char (a profile of the sustained run had a quarter of the task threads' samples there).
     */
    static void writeString(DataOutput out, String s) throws IOException {
        byte[] ascii = s == null ? null : asciiBytes(s);
        if (ascii == null) {
            StringValue.writeString(s, out);
            return;
        }
        int length = ascii.length + 1;
        while (length >= 0x80) {
            out.write(length | 0x80);
            length >>>= 7;
        }
        out.write(length);
        out.write(ascii);
    }

    /** The string's chars as bytes when every one is below 0x80; else null. */
    private static byte[] asciiBytes(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
        if (bytes.length != s.length()) {
            return null; // a surrogate pair became one replacement
        }
        for (int i = 0; i < bytes.length; i++) {
            // negative: 0x80-0xFF; '?' where the string has none: a char the charset replaced
            if (bytes[i] < 0 || bytes[i] == '?' && s.charAt(i) != '?') {
                return null;
            }
        }
        return bytes;
    }

    static String readString(DataInput in) throws IOException {
        return StringValue.readString(in);
    }

    static void writeStrings(DataOutput out, List<String> items) throws IOException {
        writeCount(out, items);
        if (items != null) {
            for (String s : items) {
                writeString(out, s);
            }
        }
    }

    static List<String> readStrings(DataInput in) throws IOException {
        int n = readCount(in);
        if (n < 0) {
            return null;
        }
        List<String> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            items.add(readString(in));
        }
        return items;
    }

    /** An enum constant by name (so reordering constants keeps stored contexts readable), or null. */
    static void writeEnum(DataOutput out, Enum<?> value) throws IOException {
        writeString(out, value == null ? null : value.name());
    }

    static <E extends Enum<E>> E readEnum(DataInput in, Class<E> type) throws IOException {
        String name = readString(in);
        if (name == null) {
            return null;
        }
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw new IOException("a stored request context names " + type.getSimpleName() + "." + name + ", which no longer exists", e);
        }
    }

    static void writeSpans(DataOutput out, long[] spans) throws IOException {
        writeInt(out, spans == null ? 0 : spans.length + 1);
        if (spans != null) {
            for (long v : spans) {
                writeVarLong(out, v);
            }
        }
    }

    static long[] readSpans(DataInput in) throws IOException {
        int n = readInt(in) - 1;
        if (n < 0) {
            return null;
        }
        long[] spans = new long[n];
        for (int i = 0; i < n; i++) {
            spans[i] = readVarLong(in);
        }
        return spans;
    }
}
