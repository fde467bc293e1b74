package io.flowsql.sql.exec;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Optional;

/**
 * A date, time or timestamp from a server engine as the text SQLite stores and its date functions write
 * ({@code 2024-01-02}, {@code 13:45:00}, {@code 2024-01-02 13:45:00}, fractions only when not zero), so the same value
 * compares equal whichever engine returned it: JDBC's {@code Timestamp.toString()} adds {@code .0}, and
 * {@code LocalDateTime.toString()} a {@code T} and drops zero seconds. Time zones are shown in UTC.
 */
final class TemporalText {
    private static final DateTimeFormatter TIME = new DateTimeFormatterBuilder().appendPattern("HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd().toFormatter();
    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder().appendPattern("yyyy-MM-dd ")
            .append(TIME).toFormatter();

    private TemporalText() {}

    static Optional<String> of(Object value) {
        if (value instanceof java.sql.Timestamp t) {
            return Optional.of(dateTime(t.toLocalDateTime()));
        }
        if (value instanceof java.sql.Date d) {
            return Optional.of(d.toLocalDate().toString());
        }
        if (value instanceof java.sql.Time t) {
            return Optional.of(t.toLocalTime().format(TIME));
        }
        if (value instanceof LocalDateTime t) {
            return Optional.of(dateTime(t));
        }
        if (value instanceof LocalDate d) {
            return Optional.of(d.toString());
        }
        if (value instanceof LocalTime t) {
            return Optional.of(t.format(TIME));
        }
        if (value instanceof OffsetDateTime t) {
            return Optional.of(dateTime(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()));
        }
        if (value instanceof OffsetTime t) {
            return Optional.of(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalTime().format(TIME));
        }
        return Optional.empty();
    }

    private static String dateTime(LocalDateTime t) {
        return t.format(DATE_TIME);
    }
}
