package io.flowsql.access;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A list of lower-case names read from a class-path resource (one a line, {@code #} comments): the functions a
 * restricted tenant may call on an engine ({@code access/functions/<engine>.txt}, found by the engine enum's name) and
 * the types it may cast to ({@code access/cast-types.txt}). Data, not code, so no class branches on an engine.
 */
final class NameList {
    private static final Map<String, Set<String>> LOADED = new ConcurrentHashMap<>();

    private NameList() {}

    /** The functions allowed under a table-level policy on {@code engine} (none when the engine has no list). */
    static Set<String> functions(Enum<?> engine) {
        return load("access/functions/" + engine.name().toLowerCase(Locale.ROOT) + ".txt");
    }

    /** The types a restricted tenant's SQL may cast to. */
    static Set<String> castTypes() {
        return load("access/cast-types.txt");
    }

    private static Set<String> load(String resource) {
        return LOADED.computeIfAbsent(resource, NameList::read);
    }

    private static Set<String> read(String resource) {
        Set<String> names = new TreeSet<>();
        InputStream in = NameList.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) {
            return Set.of();
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String name = line.strip().toLowerCase(Locale.ROOT);
                if (!name.isEmpty() && !name.startsWith("#")) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(resource, e);
        }
        return Set.copyOf(names);
    }
}
