package io.flowsql.sql.index;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import io.flowsql.sql.ValueIndex;
import io.flowsql.sql.catalog.DatabaseLocator;
import java.util.function.Function;

/** Builds each database's value index on first use and keeps the most recently used ones (building costs seconds on big databases). */
public final class CachingValueIndexProvider {

    /** Values of 3 to 100 characters: shorter ones match everywhere, longer ones are prose. */
    public static final int MIN_VALUE_LENGTH = 3;
    public static final int MAX_VALUE_LENGTH = 100;

    private final LoadingCache<String, ValueIndex> cache;

    public CachingValueIndexProvider(Function<String, ValueIndex> builder, int maxDatabases) {
        this.cache = Caffeine.newBuilder().maximumSize(maxDatabases).build(builder::apply);
    }

    /** Trigram indexes over the databases the locator finds. */
    public static CachingValueIndexProvider ngram(DatabaseLocator locator, LcsValueScorer scorer, int maxDatabases) {
        return new CachingValueIndexProvider(dbId -> new NgramValueIndex(loadValues(locator, dbId), scorer), maxDatabases);
    }

    public static TextValues loadValues(DatabaseLocator locator, String dbId) {
        return TextValues.load(locator.sqliteFile(dbId)
                .orElseThrow(() -> new IllegalArgumentException("no database named " + dbId)), MIN_VALUE_LENGTH, MAX_VALUE_LENGTH);
    }

    public ValueIndex forDatabase(String dbId) {
        return cache.get(dbId);
    }
}
