package io.flowsql.sql.compare;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.HexFormat;

/**
 * One canonical text per value, so that values the comparison calls equal get the same text: integer
 * 1 and real 1.0 agree, other reals are rounded to {@value #SIGNIFICANT_DIGITS} significant digits, NULL equals
 * NULL, text stays case-sensitive and is never equal to a number.
 */
public final class CanonicalValue {

    /** Significant digits kept of a real: enough to tell real values apart, few enough to hide float noise. */
    public static final int SIGNIFICANT_DIGITS = 10;
    private static final MathContext ROUNDING = new MathContext(SIGNIFICANT_DIGITS, RoundingMode.HALF_EVEN);

    private CanonicalValue() {}

    public static String of(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return "n" + d;
            }
            if (d == Math.rint(d) && Math.abs(d) < 0x1p53) {
                return "n" + (long) d;
            }
            return "n" + BigDecimal.valueOf(d).round(ROUNDING).stripTrailingZeros().toPlainString();
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return "n" + ((Number) value).longValue();
        }
        if (value instanceof Number number) {
            return "n" + new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
        }
        if (value instanceof byte[] bytes) {
            return "x" + HexFormat.of().formatHex(bytes);
        }
        return "s" + escape(value.toString());
    }

    /** Escapes the separators the fingerprint uses between values and rows. */
    private static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\u001f' -> out.append("\\u");
                case '\u001e' -> out.append("\\r");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
