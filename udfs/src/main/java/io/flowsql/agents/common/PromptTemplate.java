package io.flowsql.agents.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A prompt text from a resource file whose {@code {{name}}} placeholders must all get a value, so a missing field fails loudly instead of reaching the model. */
public final class PromptTemplate {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_.]*)\\s*}}");

    private final String source;
    private final String text;
    private final Set<String> placeholders;
    /**
     * The text cut at its placeholders once, here: literal text at even places, placeholder names at odd ones (so
     * rendering is appending, not a pattern run over the template and each value copied through appendReplacement).
     */
    private final String[] parts;

    private PromptTemplate(String source, String text) {
        this.source = source;
        this.text = text;
        Set<String> names = new LinkedHashSet<>();
        List<String> cut = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(text);
        int literalStart = 0;
        while (m.find()) {
            names.add(m.group(1));
            cut.add(text.substring(literalStart, m.start()));
            cut.add(m.group(1));
            literalStart = m.end();
        }
        cut.add(text.substring(literalStart));
        this.placeholders = Collections.unmodifiableSet(names);
        this.parts = cut.toArray(String[]::new);
    }

    /** Loads a template from the classpath, e.g. {@code prompts/common/reask.user.txt}. */
    public static PromptTemplate load(String resourcePath) {
        String path = resourcePath.startsWith("/") ? resourcePath.substring(1) : resourcePath;
        ClassLoader loader = PromptTemplate.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("no prompt resource " + path);
            }
            return new PromptTemplate(path, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read prompt resource " + path, e);
        }
    }

    /** A template from text in hand (tests and generated prompts). */
    public static PromptTemplate of(String name, String text) {
        return new PromptTemplate(name, Objects.requireNonNull(text, "text"));
    }

    public Set<String> placeholders() {
        return placeholders;
    }

    public String source() {
        return source;
    }

    /** The raw text, placeholders unreplaced. */
    public String text() {
        return text;
    }

    /**
     * Replaces every placeholder by its value's text.
     *
     * @throws IllegalArgumentException naming every placeholder that has no (or a null) value
     */
    public String render(PromptFields fields) {
        Set<String> missing = new TreeSet<>();
        for (String name : placeholders) {
            if (fields.get(name) == null) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("prompt " + source + " has no value for " + missing);
        }
        String[] values = new String[parts.length];
        int length = 0;
        for (int i = 0; i < parts.length; i++) {
            values[i] = i % 2 == 0 ? parts[i] : fields.get(parts[i]);
            length += values[i].length();
        }
        StringBuilder out = new StringBuilder(length);
        for (String value : values) {
            out.append(value);
        }
        return out.toString();
    }
}
