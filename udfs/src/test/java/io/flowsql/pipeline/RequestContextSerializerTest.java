package io.flowsql.pipeline;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request context's serializer keeps every field: a context with every field of every state class set to a value
 * other than its default (found by reflection, so a field added later is filled too) comes back equal from the wire
 * format and from the deep copy, and the copy shares no list, map, array or nested object with the original. A field
 * added to a state class without being added to {@link ContextCodec} and {@link ContextCopy} fails here; so does a
 * change of the state classes' fields without a new format version.
 */
class RequestContextSerializerTest {
    private static final RequestContextSerializer SERIALIZER = RequestContextSerializer.INSTANCE;

    /**
     * The state classes' fields as format {@value ContextCodec#VERSION} knows them. A change here means a change of
     * the wire format: raise {@link ContextCodec#VERSION} and read the old version too.
     */
    private static final String FORMAT_2_FIELDS = "Candidate.elapsedMicros:long Candidate.error:String Candidate.errorState:String "
            + "Candidate.executed:boolean "
            + "Candidate.preview:List<PreviewRow> Candidate.previewColumns:List<String> Candidate.resultFingerprint:String "
            + "Candidate.rowCount:int Candidate.source:String Candidate.sql:String Candidate.votes:int "
            + "DialogueTurn.question:String DialogueTurn.questionType:String DialogueTurn.requestId:String DialogueTurn.sql:String "
            + "DialogueTurn.summary:String Interpretation.error:String Interpretation.reading:String Interpretation.sql:String "
            + "PreviewRow.cells:List<String> RequestContext.candidates:List<Candidate> RequestContext.dbId:String "
            + "RequestContext.dialogueId:String RequestContext.disabledStages:List<String> RequestContext.error:String "
            + "RequestContext.evidence:String RequestContext.failedStage:String RequestContext.failure:FailureKind "
            + "RequestContext.finalSql:String RequestContext.history:List<DialogueTurn> RequestContext.historySupplied:boolean "
            + "RequestContext.interpretations:List<Interpretation> RequestContext.journalOf:String "
            + "RequestContext.linkedColumns:List<String> RequestContext.matchedValues:List<String> "
            + "RequestContext.notes:Map<String, String> RequestContext.origin:String RequestContext.question:String "
            + "RequestContext.questionType:String RequestContext.receivedAtMillis:long RequestContext.requestId:String "
            + "RequestContext.response:String RequestContext.retrievedBrief:List<String> RequestContext.retrievedTables:List<String> "
            + "RequestContext.schemaText:String RequestContext.status:String RequestContext.strategy:String "
            + "RequestContext.subQuestions:List<String> RequestContext.tenant:String RequestContext.trace:List<StageTrace> "
            + "StageTrace.cachedPromptTokens:int StageTrace.callSpans:long[] StageTrace.completionTokens:int "
            + "StageTrace.embeddingCalls:int StageTrace.embeddingSpans:long[] StageTrace.error:String "
            + "StageTrace.failure:FailureKind StageTrace.feedbackUsed:String StageTrace.journalHits:int "
            + "StageTrace.journalMisses:int StageTrace.latencyMillis:long StageTrace.llmCalls:int StageTrace.model:String "
            + "StageTrace.modelError:LlmErrorKind StageTrace.note:String StageTrace.outcome:StageOutcome "
            + "StageTrace.promptTokens:int StageTrace.retries:int StageTrace.simulated:boolean StageTrace.stage:String "
            + "StageTrace.tokensSaved:int StageTrace.truncatedReplies:int";

    private int counter = 7;

    @Test
    void flinkUsesTheCompactSerializerForTheContext() {
        TypeInformation<RequestContext> type = TypeInformation.of(RequestContext.class);
        assertThat(type).isInstanceOf(RequestContextTypeInfo.class);
        assertThat(type.createSerializer(new org.apache.flink.api.common.serialization.SerializerConfigImpl()))
                .isSameAs(SERIALIZER);
    }

    @Test
    void theFillerSetsEveryFieldOfEveryStateClass() throws Exception {
        RequestContext full = filled(RequestContext.class, "ctx");
        List<String> differences = new ArrayList<>();
        diff(full, new RequestContext(), "ctx", differences, false);
        // every field of the context differs from a fresh one, so a field the codec drops cannot hide behind its default
        for (Field f : stateFields(RequestContext.class)) {
            assertThat(differences).as("field %s was set", f.getName()).anyMatch(d -> d.startsWith("ctx." + f.getName()));
        }
    }

    @Test
    void aFullyPopulatedContextRoundTripsThroughTheWireFormat() throws Exception {
        RequestContext full = filled(RequestContext.class, "ctx");
        byte[] bytes = write(full);
        RequestContext back = read(bytes);
        List<String> differences = new ArrayList<>();
        diff(full, back, "ctx", differences, false);
        assertThat(differences).as("fields lost or changed by the wire format").isEmpty();
        assertThat(write(back)).as("written again, the same bytes").isEqualTo(bytes);
        DataOutputSerializer copied = new DataOutputSerializer(256);
        SERIALIZER.copy(new DataInputDeserializer(bytes), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(bytes);
    }

    @Test
    void aCheckpointStreamGetsTheSameBytesInOneWrite() throws Exception {
        RequestContext full = filled(RequestContext.class, "ctx");
        byte[] bytes = write(full);
        java.util.concurrent.atomic.AtomicInteger writes = new java.util.concurrent.atomic.AtomicInteger();
        java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
        java.io.OutputStream counting = new java.io.OutputStream() {
            @Override
            public void write(int b) {
                writes.incrementAndGet();
                sink.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                writes.incrementAndGet();
                sink.write(b, off, len);
            }
        };
        // what a heap backend's snapshot and an async operator's queue write into: a stream, not a buffer
        SERIALIZER.serialize(full, new org.apache.flink.core.memory.DataOutputViewStreamWrapper(counting));
        assertThat(sink.toByteArray()).as("the bytes the buffer gets").isEqualTo(bytes);
        assertThat(writes.get()).as("calls on the stream").isEqualTo(1);
        // a context larger than the kept buffer: the same bytes, and the next one still right
        RequestContext large = filled(RequestContext.class, "ctx");
        large.question = "x".repeat(300_000);
        sink.reset();
        SERIALIZER.serialize(large, new org.apache.flink.core.memory.DataOutputViewStreamWrapper(counting));
        assertThat(sink.toByteArray()).isEqualTo(write(large));
        sink.reset();
        SERIALIZER.serialize(full, new org.apache.flink.core.memory.DataOutputViewStreamWrapper(counting));
        assertThat(sink.toByteArray()).isEqualTo(bytes);
    }

    @Test
    void aFullyPopulatedContextIsCopiedDeeply() throws Exception {
        RequestContext full = filled(RequestContext.class, "ctx");
        full.cancellation = new Cancellation();
        RequestContext copy = SERIALIZER.copy(full);
        List<String> differences = new ArrayList<>();
        diff(full, copy, "ctx", differences, true);
        assertThat(differences).as("fields lost, changed or shared by the copy").isEmpty();
        assertThat(copy.cancellation).as("transient: not copied").isNull();
    }

    @Test
    void nullsAndNullElementsRoundTripAndCopy() throws Exception {
        RequestContext sparse = new RequestContext();
        for (Field f : stateFields(RequestContext.class)) {
            if (!f.getType().isPrimitive()) {
                f.set(sparse, null);
            }
        }
        List<String> differences = new ArrayList<>();
        diff(sparse, read(write(sparse)), "ctx", differences, false);
        diff(sparse, SERIALIZER.copy(sparse), "ctx", differences, false);
        assertThat(differences).isEmpty();

        RequestContext holes = new RequestContext();
        holes.history.add(null);
        holes.interpretations.add(null);
        holes.trace.add(null);
        holes.trace.add(new StageTrace("s"));
        holes.disabledStages.add(null);
        holes.notes.put("k", null);
        Candidate c = new Candidate();
        c.preview.add(null);
        c.preview.add(new PreviewRow());
        c.preview.get(1).cells = null;
        holes.candidates.add(null);
        holes.candidates.add(c);
        diff(holes, read(write(holes)), "ctx", differences, false);
        diff(holes, SERIALIZER.copy(holes), "ctx", differences, false);
        assertThat(differences).isEmpty();
    }

    @Test
    void anEmptyContextTakesAFewDozenBytes() throws Exception {
        RequestContext ctx = new RequestContext();
        ctx.requestId = "r-000001";
        ctx.dialogueId = "d-000001";
        ctx.question = "How many singers do we have?";
        ctx.receivedAtMillis = 1_790_000_000_000L;
        int bytes = write(ctx).length;
        System.out.println("a context with ids and a question: " + bytes + " bytes");
        assertThat(bytes).isLessThan(ctx.requestId.length() + ctx.dialogueId.length() + ctx.question.length() + 40);
    }

    @Test
    void theFieldsAreThoseOfTheFormatsVersion() {
        TreeSet<String> fields = new TreeSet<>();
        for (Class<?> c : List.of(RequestContext.class, DialogueTurn.class, Interpretation.class, Candidate.class,
                PreviewRow.class, StageTrace.class)) {
            for (Field f : stateFields(c)) {
                fields.add(c.getSimpleName() + "." + f.getName() + ":" + f.getGenericType().getTypeName()
                        .replaceAll("[a-z0-9_.]+\\.([A-Z])", "$1"));
            }
        }
        // format 3 has format 2's fields (it changed how the dialogue history is stored, not the context)
        assertThat(ContextCodec.VERSION).isEqualTo(3);
        assertThat(String.join(" ", fields))
                .as("the state classes' fields changed: add them to ContextCodec and ContextCopy, raise ContextCodec.VERSION "
                        + "(reading the old version too) and record the new field list here")
                .isEqualTo(FORMAT_2_FIELDS);
    }

    @Test
    void theSnapshotStoresOnlyItsVersionAndMigratesNothingOfItsOwnVersion() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(128);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, SERIALIZER.snapshotConfiguration());
        byte[] stored = out.getCopyOfBuffer();
        System.out.println("stored serializer snapshot: " + stored.length + " bytes");
        assertThat(stored.length).as("class name and version").isLessThan(80);
        TypeSerializerSnapshot<RequestContext> back = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(stored), getClass().getClassLoader());
        assertThat(SERIALIZER.snapshotConfiguration().resolveSchemaCompatibility(back).isCompatibleAsIs()).isTrue();
        assertThat(back.restoreSerializer()).isSameAs(SERIALIZER);
    }

    @Test
    void stateOfFormatOneIsReadByTheRestoredSerializerAndMigrated() throws Exception {
        RequestContext full = filled(RequestContext.class, "ctx");
        DataOutputSerializer out = new DataOutputSerializer(256);
        ContextCodec.write(full, out, 1);
        byte[] formatOne = out.getCopyOfBuffer();
        assertThat(formatOne.length).as("format 1 has no candidate SQLState").isLessThan(write(full).length);

        RequestContextSerializerSnapshot old = new RequestContextSerializerSnapshot();
        old.readSnapshot(1, new DataInputDeserializer(new byte[0]), getClass().getClassLoader());
        assertThat(SERIALIZER.snapshotConfiguration().resolveSchemaCompatibility(old).isCompatibleAfterMigration()).isTrue();
        org.apache.flink.api.common.typeutils.TypeSerializer<RequestContext> restored = old.restoreSerializer();
        assertThat(restored).isNotEqualTo(SERIALIZER);
        DataInputDeserializer in = new DataInputDeserializer(formatOne);
        RequestContext back = restored.deserialize(in);
        assertThat(in.available()).as("bytes left unread").isZero();
        List<String> differences = new ArrayList<>();
        diff(full, back, "ctx", differences, false);
        assertThat(differences).as("only the field format 1 lacks").isNotEmpty()
                .allMatch(d -> d.contains(".errorState"), "is a candidate's errorState");
        for (Candidate c : full.candidates) {
            c.errorState = null;
        }
        assertThat(write(back)).as("migrated: written in the current format").isEqualTo(write(full));
    }

    @Test
    void stateOfFormatTwoHasTheCurrentBytesAndNeedsNoMigration() throws Exception {
        RequestContext full = filled(RequestContext.class, "ctx");
        DataOutputSerializer out = new DataOutputSerializer(256);
        ContextCodec.write(full, out, 2);
        assertThat(out.getCopyOfBuffer()).isEqualTo(write(full));
        RequestContextSerializerSnapshot old = new RequestContextSerializerSnapshot();
        old.readSnapshot(2, new DataInputDeserializer(new byte[0]), getClass().getClassLoader());
        assertThat(SERIALIZER.snapshotConfiguration().resolveSchemaCompatibility(old).isCompatibleAsIs()).isTrue();
        List<String> differences = new ArrayList<>();
        diff(full, old.restoreSerializer().deserialize(new DataInputDeserializer(out.getCopyOfBuffer())), "ctx",
                differences, false);
        assertThat(differences).isEmpty();
    }

    // --- helpers

    private static byte[] write(RequestContext ctx) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(256);
        SERIALIZER.serialize(ctx, out);
        return out.getCopyOfBuffer();
    }

    private static RequestContext read(byte[] bytes) throws Exception {
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        RequestContext ctx = SERIALIZER.deserialize(in);
        assertThat(in.available()).as("bytes left unread").isZero();
        return ctx;
    }

    private static List<Field> stateFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Field f : type.getDeclaredFields()) {
            int m = f.getModifiers();
            if (!Modifier.isStatic(m) && !Modifier.isTransient(m)) {
                f.setAccessible(true);
                fields.add(f);
            }
        }
        return fields;
    }

    /** An instance of state class {@code type} with every field set to a value unlike its default. */
    private <T> T filled(Class<T> type, String path) throws Exception {
        T instance = type.getDeclaredConstructor().newInstance();
        for (Field f : stateFields(type)) {
            f.set(instance, value(f.getGenericType(), path + "." + f.getName()));
        }
        return instance;
    }

    private Object value(Type type, String path) throws Exception {
        counter++;
        if (type == String.class) {
            return path + "·" + counter; // a non-ASCII character too
        }
        if (type == int.class) {
            return counter * 1_000;
        }
        if (type == long.class) {
            return counter * 1_000_000_007L;
        }
        if (type == boolean.class) {
            return true;
        }
        if (type == long[].class) {
            return new long[]{counter, -counter, Long.MAX_VALUE, Long.MIN_VALUE};
        }
        if (type instanceof Class<?> c && c.isEnum()) {
            Object[] constants = c.getEnumConstants();
            return constants[counter % constants.length];
        }
        if (type instanceof Class<?> c && c.getPackageName().equals(RequestContext.class.getPackageName())) {
            return filled(c, path);
        }
        if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            List<Object> list = new ArrayList<>();
            list.add(value(p.getActualTypeArguments()[0], path + "[0]"));
            list.add(value(p.getActualTypeArguments()[0], path + "[1]"));
            return list;
        }
        if (type instanceof ParameterizedType p && p.getRawType() == Map.class
                && Arrays.equals(p.getActualTypeArguments(), new Type[]{String.class, String.class})) {
            Map<String, String> map = new HashMap<>();
            map.put(path + ".k1", "v" + counter);
            map.put(path + ".k2", "w" + counter);
            return map;
        }
        throw new AssertionError("no test value for " + type + " at " + path
                + ": a new kind of field; teach this test, ContextCodec and ContextCopy about it");
    }

    /**
     * Adds to {@code out} where {@code actual} differs from {@code expected}; with {@code distinct}, also where it
     * shares a mutable object (list, map, array, state class) with it.
     */
    private static void diff(Object expected, Object actual, String path, List<String> out, boolean distinct)
            throws Exception {
        if (expected == null || actual == null) {
            if (expected != actual) {
                out.add(path + ": " + expected + " became " + actual);
            }
            return;
        }
        boolean mutable = expected instanceof List || expected instanceof Map || expected instanceof long[]
                || expected.getClass().getPackageName().equals(RequestContext.class.getPackageName()) && !expected.getClass().isEnum();
        if (distinct && mutable && expected == actual) {
            out.add(path + ": shared with the original");
        }
        if (expected instanceof List<?> e && actual instanceof List<?> a) {
            if (e.size() != a.size()) {
                out.add(path + ": " + e.size() + " items became " + a.size());
                return;
            }
            for (int i = 0; i < e.size(); i++) {
                diff(e.get(i), a.get(i), path + "[" + i + "]", out, distinct);
            }
        } else if (expected instanceof Map<?, ?> e && actual instanceof Map<?, ?> a) {
            if (!new LinkedHashMap<>(e).equals(new LinkedHashMap<>(a))) {
                out.add(path + ": " + e + " became " + a);
            }
        } else if (expected instanceof long[] e && actual instanceof long[] a) {
            if (!Arrays.equals(e, a)) {
                out.add(path + ": " + Arrays.toString(e) + " became " + Arrays.toString(a));
            }
        } else if (mutable) {
            if (expected.getClass() != actual.getClass()) {
                out.add(path + ": a " + expected.getClass() + " became a " + actual.getClass());
                return;
            }
            for (Field f : stateFields(expected.getClass())) {
                diff(f.get(expected), f.get(actual), path + "." + f.getName(), out, distinct);
            }
        } else if (!expected.equals(actual)) {
            out.add(path + ": " + expected + " became " + actual);
        }
    }
}
