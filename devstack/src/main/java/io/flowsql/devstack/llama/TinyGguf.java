package io.flowsql.devstack.llama;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a tiny llama-architecture GGUF model with random weights, for tests against a real llama.cpp
 * server: 2 layers, hidden size 64, a SentencePiece-style vocabulary of about two thousand pieces (the
 * bytes, printable characters and the frequent words of a corpus with their prefixes) and a ChatML
 * template. The small vocabulary keeps grammar-constrained sampling fast. The end-of-turn token gets a
 * zero output row while the others get large random ones, so the model practically never stops on its
 * own: replies end at max_tokens or when a grammar allows nothing else.
 */
public final class TinyGguf {
    private static final int EMBEDDING = 64;
    private static final int LAYERS = 2;
    private static final int HEADS = 4;
    private static final int FEED_FORWARD = 128;
    private static final int CONTEXT = 16384;
    private static final int ALIGNMENT = 32;
    private static final String SPACE = "\u2581";
    private static final String CHAT_TEMPLATE = "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
            + "{{ message['content'] }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n"
            + "{% endif %}";
    private static final int PROMPT_WORDS = 600;
    private static final Pattern WORD = Pattern.compile("[A-Za-z_]{2,}|[0-9]{2,}");

    private static final int TYPE_UINT32 = 4;
    private static final int TYPE_INT32 = 5;
    private static final int TYPE_FLOAT32 = 6;
    private static final int TYPE_BOOL = 7;
    private static final int TYPE_STRING = 8;
    private static final int TYPE_ARRAY = 9;
    private static final int TOKEN_NORMAL = 1;
    private static final int TOKEN_UNKNOWN = 2;
    private static final int TOKEN_CONTROL = 3;
    private static final int TOKEN_BYTE = 6;

    private TinyGguf() {}

    /**
     * Writes the model to {@code file}; the vocabulary takes the {@code words} most frequent words of
     * {@code corpus} (prompts, schemas: text the tests send). Same corpus and seed, same file.
     */
    public static Path write(Path file, String corpus, int words, long seed) throws IOException {
        Vocabulary vocab = Vocabulary.of(corpus, words);
        Random random = new Random(seed);
        Map<String, float[]> tensors = new LinkedHashMap<>();
        Map<String, long[]> shapes = new LinkedHashMap<>();
        int n = vocab.tokens.size();
        tensor(tensors, shapes, "token_embd.weight", random(random, EMBEDDING * n, 1.0f), EMBEDDING, n);
        float[] output = random(random, EMBEDDING * n, 1.0f);
        for (int id : vocab.controlIds) {
            java.util.Arrays.fill(output, id * EMBEDDING, (id + 1) * EMBEDDING, 0f);
        }
        tensor(tensors, shapes, "output.weight", output, EMBEDDING, n);
        tensor(tensors, shapes, "output_norm.weight", ones(EMBEDDING), EMBEDDING);
        for (int layer = 0; layer < LAYERS; layer++) {
            String blk = "blk." + layer + ".";
            tensor(tensors, shapes, blk + "attn_norm.weight", ones(EMBEDDING), EMBEDDING);
            for (String name : List.of("attn_q", "attn_k", "attn_v", "attn_output")) {
                tensor(tensors, shapes, blk + name + ".weight", random(random, EMBEDDING * EMBEDDING, 0.1f),
                        EMBEDDING, EMBEDDING);
            }
            tensor(tensors, shapes, blk + "ffn_norm.weight", ones(EMBEDDING), EMBEDDING);
            tensor(tensors, shapes, blk + "ffn_gate.weight", random(random, EMBEDDING * FEED_FORWARD, 0.1f),
                    EMBEDDING, FEED_FORWARD);
            tensor(tensors, shapes, blk + "ffn_up.weight", random(random, EMBEDDING * FEED_FORWARD, 0.1f),
                    EMBEDDING, FEED_FORWARD);
            tensor(tensors, shapes, blk + "ffn_down.weight", random(random, EMBEDDING * FEED_FORWARD, 0.1f),
                    FEED_FORWARD, EMBEDDING);
        }

        Files.createDirectories(file.toAbsolutePath().getParent());
        // a name of its own: test JVMs running side by side may each write the model (the same bytes) at once
        Path partial = Files.createTempFile(file.toAbsolutePath().getParent(), file.getFileName() + ".", ".part");
        try (OutputStream raw = Files.newOutputStream(partial); Writer out = new Writer(new BufferedOutputStream(raw))) {
            out.bytes("GGUF".getBytes(StandardCharsets.US_ASCII));
            out.u32(3);
            out.u64(tensors.size());
            out.u64(18);
            out.kvString("general.architecture", "llama");
            out.kvString("general.name", "flowsql-tiny-random");
            out.kvU32("llama.context_length", CONTEXT);
            out.kvU32("llama.embedding_length", EMBEDDING);
            out.kvU32("llama.block_count", LAYERS);
            out.kvU32("llama.feed_forward_length", FEED_FORWARD);
            out.kvU32("llama.attention.head_count", HEADS);
            out.kvU32("llama.attention.head_count_kv", HEADS);
            out.kvU32("llama.rope.dimension_count", EMBEDDING / HEADS);
            out.kvF32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
            out.kvString("tokenizer.ggml.model", "llama");
            out.kvStrings("tokenizer.ggml.tokens", vocab.tokens);
            out.kvF32s("tokenizer.ggml.scores", vocab.scores);
            out.kvI32s("tokenizer.ggml.token_type", vocab.types);
            out.kvU32("tokenizer.ggml.bos_token_id", vocab.bos);
            out.kvU32("tokenizer.ggml.eos_token_id", vocab.eos);
            out.kvBool("tokenizer.ggml.add_bos_token", false);
            out.kvString("tokenizer.chat_template", CHAT_TEMPLATE);
            long offset = 0;
            for (Map.Entry<String, long[]> entry : shapes.entrySet()) {
                out.string(entry.getKey());
                out.u32(entry.getValue().length);
                for (long dim : entry.getValue()) {
                    out.u64(dim);
                }
                out.u32(0); // F32
                out.u64(offset);
                offset += padded(tensors.get(entry.getKey()).length * 4L);
            }
            out.pad();
            for (float[] data : tensors.values()) {
                out.floats(data);
                out.pad();
            }
        }
        Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    /**
     * llama-server arguments that make the model terse: a strong logit bias on the pieces that close a JSON
     * string or array ({@code "} and {@code ]}, with and without a leading space), so a schema-constrained reply
     * is the shortest the schema allows (fast tests), while free text still never stops.
     */
    public static List<String> terseArgs(String corpus, int words) {
        Vocabulary vocab = Vocabulary.of(corpus, words);
        // The built-in ChatML template, not Jinja: with Jinja this llama.cpp wraps a schema's grammar in its
        // generic chat format for an unknown template, and the grammar sampler fails to start.
        // One --logit-bias with the pieces comma-separated: given once per piece, llama-server keeps only the last
        // (it warns "specified multiple times ... only last value will be used"), and replies ran to every bound.
        String biases = String.join(",", List.of("\"", SPACE + "\"", "]", SPACE + "]").stream()
                .map(piece -> vocab.tokens.indexOf(piece) + "+40").toList());
        return new ArrayList<>(List.of("--no-jinja", "--logit-bias", biases));
    }

    /** The model written by {@link #forPrompts} and the server arguments that go with it. */
    public record Model(Path file, List<String> serverArgs) {}

    /**
     * The tiny model's reply constraints, as {@code llm.reply-overlay} takes them (JSON text): it never stops on
     * its own and writes noise, so its tests bound every text and make sql start with SELECT or WITH, which the
     * shipped reply schemas do not require (they admit any SQL and any language).
     */
    public static String replyOverlay() {
        try (var in = TinyGguf.class.getResourceAsStream("/llama/tiny-reply-overlay.json")) {
            if (in == null) {
                throw new IllegalStateException("llama/tiny-reply-overlay.json is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Writes the model with a vocabulary from the project's prompts (the {@code prompts/} resources on the
     * classpath, so the words the agents send are single pieces), unless {@code file} already exists; the
     * server arguments make it terse ({@link #terseArgs}).
     */
    public static Model forPrompts(Path file) throws IOException {
        String corpus = promptsCorpus();
        if (!Files.isRegularFile(file)) {
            write(file, corpus, PROMPT_WORDS, 42L);
        }
        return new Model(file, terseArgs(corpus, PROMPT_WORDS));
    }

    private static String promptsCorpus() throws IOException {
        java.net.URL root = TinyGguf.class.getClassLoader().getResource("prompts");
        if (root == null) {
            throw new IOException("no prompts/ resources on the classpath (the udfs module)");
        }
        StringBuilder corpus = new StringBuilder();
        try {
            java.net.URI uri = root.toURI();
            if ("jar".equals(uri.getScheme())) {
                try (java.nio.file.FileSystem jar = java.nio.file.FileSystems.newFileSystem(uri, Map.of())) {
                    appendTexts(jar.getPath("prompts"), corpus);
                }
            } else {
                appendTexts(Path.of(uri), corpus);
            }
        } catch (java.net.URISyntaxException e) {
            throw new IOException("unreadable prompts location " + root, e);
        }
        return corpus.toString();
    }

    private static void appendTexts(Path folder, StringBuilder corpus) throws IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(folder)) {
            for (Path text : files.filter(Files::isRegularFile).sorted().toList()) {
                corpus.append(Files.readString(text)).append('\n');
            }
        }
    }

    /** How many pieces the vocabulary of {@code corpus} has (for tests and logs). */
    public static int vocabularySize(String corpus, int words) {
        return Vocabulary.of(corpus, words).tokens.size();
    }

    private static void tensor(Map<String, float[]> tensors, Map<String, long[]> shapes, String name, float[] data,
            long... dims) {
        tensors.put(name, data);
        shapes.put(name, dims);
    }

    private static float[] random(Random random, int size, float scale) {
        float[] values = new float[size];
        for (int i = 0; i < size; i++) {
            values[i] = (float) random.nextGaussian() * scale;
        }
        return values;
    }

    private static float[] ones(int size) {
        float[] values = new float[size];
        java.util.Arrays.fill(values, 1f);
        return values;
    }

    private static long padded(long bytes) {
        return (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }

    /** The pieces, their scores (longer first when merging) and types. */
    private static final class Vocabulary {
        final List<String> tokens = new ArrayList<>();
        final List<Float> scores = new ArrayList<>();
        final List<Integer> types = new ArrayList<>();
        final List<Integer> controlIds = new ArrayList<>();
        int bos;
        int eos;

        static Vocabulary of(String corpus, int words) {
            Vocabulary v = new Vocabulary();
            v.add("<unk>", TOKEN_UNKNOWN);
            v.bos = v.add("<s>", TOKEN_CONTROL);
            v.add("</s>", TOKEN_CONTROL);
            v.add("<|im_start|>", TOKEN_CONTROL);
            v.eos = v.add("<|im_end|>", TOKEN_CONTROL);
            for (int b = 0; b < 256; b++) {
                v.add(String.format("<0x%02X>", b), TOKEN_BYTE);
            }
            Set<String> pieces = new LinkedHashSet<>();
            pieces.add(SPACE);
            for (char c = 33; c < 127; c++) {
                pieces.add(String.valueOf(c));
                pieces.add(SPACE + c);
            }
            Map<String, Integer> counts = new LinkedHashMap<>();
            Matcher m = WORD.matcher(corpus);
            while (m.find()) {
                counts.merge(m.group(), 1, Integer::sum);
            }
            counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                    .limit(words).forEach(e -> {
                        String word = e.getKey();
                        for (int end = 2; end <= word.length(); end++) {
                            pieces.add(word.substring(0, end));
                            pieces.add(SPACE + word.substring(0, end));
                        }
                    });
            for (String piece : pieces) {
                v.add(piece, TOKEN_NORMAL);
            }
            return v;
        }

        int add(String piece, int type) {
            tokens.add(piece);
            scores.add(type == TOKEN_NORMAL ? (float) piece.length() : 0f);
            types.add(type);
            if (type == TOKEN_CONTROL) {
                controlIds.add(tokens.size() - 1);
            }
            return tokens.size() - 1;
        }
    }

    /** Writes one array element. */
    private interface Element<T> {
        void write(T value) throws IOException;
    }

    /** Little-endian GGUF primitives. */
    private static final class Writer implements AutoCloseable {
        private final OutputStream out;
        private long written;

        Writer(OutputStream out) {
            this.out = out;
        }

        void bytes(byte[] data) throws IOException {
            out.write(data);
            written += data.length;
        }

        void u32(long value) throws IOException {
            bytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) value).array());
        }

        void u64(long value) throws IOException {
            bytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array());
        }

        void f32(float value) throws IOException {
            bytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(value).array());
        }

        void string(String text) throws IOException {
            byte[] data = text.getBytes(StandardCharsets.UTF_8);
            u64(data.length);
            bytes(data);
        }

        void kvString(String key, String value) throws IOException {
            string(key);
            u32(TYPE_STRING);
            string(value);
        }

        void kvU32(String key, long value) throws IOException {
            string(key);
            u32(TYPE_UINT32);
            u32(value);
        }

        void kvF32(String key, float value) throws IOException {
            string(key);
            u32(TYPE_FLOAT32);
            f32(value);
        }

        void kvBool(String key, boolean value) throws IOException {
            string(key);
            u32(TYPE_BOOL);
            bytes(new byte[] {(byte) (value ? 1 : 0)});
        }

        void kvStrings(String key, List<String> values) throws IOException {
            kvArray(key, TYPE_STRING, values, this::string);
        }

        void kvF32s(String key, List<Float> values) throws IOException {
            kvArray(key, TYPE_FLOAT32, values, this::f32);
        }

        void kvI32s(String key, List<Integer> values) throws IOException {
            kvArray(key, TYPE_INT32, values, value -> u32(value));
        }

        private <T> void kvArray(String key, int type, List<T> values, Element<T> element) throws IOException {
            string(key);
            u32(TYPE_ARRAY);
            u32(type);
            u64(values.size());
            for (T value : values) {
                element.write(value);
            }
        }

        void floats(float[] values) throws IOException {
            ByteBuffer buffer = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
            buffer.asFloatBuffer().put(values);
            bytes(buffer.array());
        }

        void pad() throws IOException {
            long rest = padded(written) - written;
            if (rest > 0) {
                bytes(new byte[(int) rest]);
            }
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
