package io.flowsql.benchmarks.eval.score;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a prediction file into lines and decodes each one on its own, so one line that is not UTF-8 is reported
 * with its line number (and the others are read) instead of failing the whole file.
 */
final class PredictionLines {

    /** One line: its text, or why it could not be decoded (then {@code text} holds it with the bad bytes replaced). */
    record Line(int number, String text, String undecodable) {}

    private PredictionLines() {}

    static List<Line> read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read predictions " + file, e);
        }
        List<Line> lines = new ArrayList<>();
        int start = 0;
        int number = 1;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                if (i == bytes.length && start == i) {
                    break;
                }
                int end = i > start && bytes[i - 1] == '\r' ? i - 1 : i;
                lines.add(decode(file, number++, bytes, start, end - start));
                start = i + 1;
            }
        }
        return lines;
    }

    /** Decodes the whole text; when it is not UTF-8, the text with the bad bytes replaced and why. */
    static Line decodeWhole(Path file, byte[] bytes) {
        return decode(file, 0, bytes, 0, bytes.length);
    }

    private static Line decode(Path file, int number, byte[] bytes, int offset, int length) {
        ByteBuffer in = ByteBuffer.wrap(bytes, offset, length);
        CharBuffer out = CharBuffer.allocate(length);
        CharsetDecoder decoder = strict();
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (!result.isError()) {
            return new Line(number, out.flip().toString(), null);
        }
        int bad = in.position() - offset;
        String where = number > 0 ? file + ":" + number : file.toString();
        String reason = where + ": not valid UTF-8 (byte 0x" + String.format("%02X", bytes[offset + bad] & 0xff)
                + " at byte " + (bad + 1) + (number > 0 ? " of the line" : "") + ")";
        return new Line(number, new String(bytes, offset, length, StandardCharsets.UTF_8), reason);
    }

    private static CharsetDecoder strict() {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    }
}
