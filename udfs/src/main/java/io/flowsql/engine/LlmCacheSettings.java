package io.flowsql.engine;

import io.flowsql.config.llm.CacheMode;

import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;

/**
 * Whether and how an engine's LLM client records and replays answers on disk, in a form that travels with
 * the engine configuration to every TaskManager.
 *
 * @param dir  the cache folder; blank for no cache
 * @param mode read-write, read-only or off (enum names such as READ_ONLY are accepted too)
 */
public record LlmCacheSettings(String dir, String mode) implements Serializable {
    private static final long serialVersionUID = 1L;

    public LlmCacheSettings {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(mode, "mode");
        modeOf(mode);
    }

    /** No cache: every request goes to the endpoint. */
    public static LlmCacheSettings none() {
        return new LlmCacheSettings("", "read-write");
    }

    /** True when answers are replayed from (and maybe recorded to) {@link #dir()}. */
    public boolean enabled() {
        return !dir.isBlank() && cacheMode() != CacheMode.OFF;
    }

    public CacheMode cacheMode() {
        return modeOf(mode);
    }

    /** Reads "read-write", "read-only" or "off" (case and '-' / '_' do not matter). */
    public static CacheMode modeOf(String text) {
        String name = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (CacheMode m : CacheMode.values()) {
            if (m.name().equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("cache mode must be read-write, read-only or off, not '" + text + "'");
    }
}
