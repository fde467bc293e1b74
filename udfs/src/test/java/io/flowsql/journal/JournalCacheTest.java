package io.flowsql.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The journal's local copy: last write wins, oldest out first past either bound, release and retention drop. */
class JournalCacheTest {
    private static JournalEntry entry(String id, String reply, long at) {
        return new JournalEntry(id, "s", List.of(reply), List.of("stop"), 10, 5, false, "m", false, at);
    }

    @Test
    void aLaterWriteOfAKeyReplacesTheEarlierOneAsCompactionDoes() {
        JournalCache cache = new JournalCache(10, 1 << 20);
        cache.put("k", entry("r1", "first", 1));
        cache.put("k", entry("r1", "second", 2));
        assertThat(cache.get("k")).hasValueSatisfying(e -> assertThat(e.choices()).containsExactly("second"));
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.bytes()).isEqualTo(JournalCache.sizeOf("k", entry("r1", "second", 2)));
    }

    @Test
    void pastTheEntryBoundTheOldestGoFirst() {
        JournalCache cache = new JournalCache(3, 1 << 20);
        for (int i = 0; i < 5; i++) {
            cache.put("k" + i, entry("r" + i, "x", i));
        }
        assertThat(cache.size()).isEqualTo(3);
        assertThat(cache.get("k0")).isEmpty();
        assertThat(cache.get("k1")).isEmpty();
        assertThat(cache.get("k4")).isPresent();
        assertThat(cache.evicted()).isEqualTo(2);
        assertThat(cache.removeJournal("r0")).as("an evicted entry's id is forgotten too").isEmpty();
    }

    @Test
    void pastTheByteBoundTheOldestGoFirst() {
        long one = JournalCache.sizeOf("k0", entry("r0", "y".repeat(1000), 0));
        JournalCache cache = new JournalCache(1000, 3 * one);
        for (int i = 0; i < 5; i++) {
            cache.put("k" + i, entry("r0", "y".repeat(1000), i));
        }
        assertThat(cache.size()).isEqualTo(3);
        assertThat(cache.bytes()).isLessThanOrEqualTo(3 * one);
        assertThat(cache.get("k1")).isEmpty();
        assertThat(cache.removeJournal("r0")).containsExactlyInAnyOrder("k2", "k3", "k4");
        assertThat(cache.size()).isZero();
        assertThat(cache.bytes()).isZero();
    }

    @Test
    void retentionAndTombstonesDropEntries() {
        JournalCache cache = new JournalCache(10, 1 << 20);
        cache.put("old", entry("r1", "x", 100));
        cache.put("new", entry("r1", "x", 200));
        cache.put("gone", entry("r2", "x", 300));
        cache.prune(150);
        cache.remove("gone");
        assertThat(cache.get("old")).isEmpty();
        assertThat(cache.get("gone")).isEmpty();
        assertThat(cache.removeJournal("r1")).containsExactly("new");
        assertThat(cache.bytes()).isZero();
    }
}
