package io.flowsql.feedback;

import java.io.Serializable;
import java.time.Duration;

/**
 * The live library's bounds: entries and bytes per database, the age an entry is forgotten at, and how many examples
 * and repairs a request carries. See docs/AGENTS.md "Learning from feedback" for the eviction rule.
 */
public record LiveLibraryLimits(int maxEntriesPerDatabase, long maxBytesPerDatabase, Duration maxAge,
                                int examplesPerRequest, int repairsPerRequest) implements Serializable {
    public LiveLibraryLimits {
        if (maxEntriesPerDatabase < 1 || maxBytesPerDatabase < 1 || maxAge.isNegative() || maxAge.isZero()
                || examplesPerRequest < 0 || repairsPerRequest < 0) {
            throw new IllegalArgumentException("live library limits must be positive: " + maxEntriesPerDatabase + ", "
                    + maxBytesPerDatabase + ", " + maxAge + ", " + examplesPerRequest + ", " + repairsPerRequest);
        }
    }

    /**
     * How far ahead of this machine's clock a feedback record may be stamped (its producer sets the Kafka timestamp):
     * a record further ahead is refused, and the library's clock never passes wall-clock time plus this.
     */
    public static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

    public static LiveLibraryLimits defaults() {
        return new LiveLibraryLimits(200, 1024 * 1024, Duration.ofDays(30), 8, 3);
    }
}
