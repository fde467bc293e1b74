package io.flowsql.job.kafka;

import io.flowsql.access.AccessPolicies;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.DeadLetters;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionMapper;
import io.flowsql.events.QuestionParse;
import io.flowsql.events.RejectKind;
import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.engine.StageRegistry;
import io.flowsql.engine.StageSwitches;
import io.flowsql.sql.catalog.DatabaseLocator;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns every record read into exactly one valid question (main output) or one dead letter (side
 * output {@link #DEAD_LETTERS}) with its reason and topic/partition/offset: nothing is dropped silently, and
 * nothing a record holds can make this operator throw (a record it cannot handle is an {@code internal} dead letter,
 * so a poison record is refused once and its offset committed, never read again after a restart).
 *
 * <p>Checks, in order: the record's size ({@code questions.max-record-bytes}), one JSON object in UTF-8 with nothing
 * after it, the questions schema, {@code options.disabled_stages} against the stage names, the record key equal to
 * {@code dialogue_id}, and the database. A valid question its tenant's access policy forbids ({@code tenants.*}) is
 * not a dead letter but a {@code refused} answer with {@code error_kind} {@code forbidden}, decided before the
 * database is looked up, so the refusal says nothing about which databases exist.
 */
public final class ParseAndValidate extends ProcessFunction<RawRecord, RequestContext> {
    private static final long serialVersionUID = 1L;

    /** A question record's size at most, by default: any schema-valid question fits, even with every character escaped. */
    public static final int DEFAULT_MAX_RECORD_BYTES = 128 * 1024;

    /** The failed-stage name of a question refused here. */
    public static final String STAGE = "access";

    public static final OutputTag<DeadLetterEvent> DEAD_LETTERS = new OutputTag<>("dead-letters") {};

    /** A question whose db_id names no database here is a dead letter, not a failed answer. */
    private final DatabaseLocator databases;
    /** Databases declared by id (databases.<id>.*), valid beside the SQLite folders. */
    private java.util.Set<String> declared = java.util.Set.of();
    private final Clock clock;
    private final int maxRecordBytes;
    private final int excerptBytes;
    private AccessPolicies access = AccessPolicies.allowAll();

    public ParseAndValidate(DatabaseLocator databases, int maxRecordBytes, int excerptBytes) {
        this(databases, Clock.systemUTC(), maxRecordBytes, excerptBytes);
    }

    public ParseAndValidate(DatabaseLocator databases) {
        this(databases, Clock.systemUTC(), DEFAULT_MAX_RECORD_BYTES, DeadLetters.DEFAULT_EXCERPT_BYTES);
    }

    ParseAndValidate(DatabaseLocator databases, Clock clock) {
        this(databases, clock, DEFAULT_MAX_RECORD_BYTES, DeadLetters.DEFAULT_EXCERPT_BYTES);
    }

    ParseAndValidate(DatabaseLocator databases, Clock clock, int maxRecordBytes, int excerptBytes) {
        if (maxRecordBytes <= 0 || excerptBytes <= 0) {
            throw new IllegalArgumentException("record and excerpt limits must be positive");
        }
        this.databases = databases;
        this.clock = clock;
        this.maxRecordBytes = maxRecordBytes;
        this.excerptBytes = excerptBytes;
    }

    /** Also accepts questions naming one of these declared (PostgreSQL, DuckDB) databases. */
    public ParseAndValidate withDeclaredDatabases(java.util.Set<String> ids) {
        this.declared = java.util.Set.copyOf(ids);
        return this;
    }

    /** This operator, checking each question against {@code access} (see the class comment). */
    public ParseAndValidate withAccess(AccessPolicies access) {
        this.access = java.util.Objects.requireNonNull(access, "access");
        return this;
    }

    /** The refusal of a question outside its tenant's policy: it names neither the tenant's databases nor others. */
    public static final String FORBIDDEN = "this question may not ask this database";

    @Override
    public void processElement(RawRecord record, Context ctx, Collector<RequestContext> out) {
        Instant now = clock.instant();
        QuestionParse parsed;
        try {
            parsed = validate(record);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            parsed = QuestionParse.rejected(RejectKind.INTERNAL, "the record could not be read: " + e);
        }
        if (parsed.isValid()) {
            RequestContext question = QuestionMapper.toContext(parsed.question(), record.origin(), now.toEpochMilli());
            question.tenant = access.tenantOf(question.tenant, question.dialogueId);
            if (!access.allowsDatabase(question.tenant, question.dbId)) {
                question.refuse(STAGE, FailureKind.FORBIDDEN, FORBIDDEN);
            }
            out.collect(question);
        } else {
            ctx.output(DEAD_LETTERS, deadLetter(record, parsed.reason(), now, excerptBytes));
        }
    }

    /**
     * The checks above on one record, as the job makes them (also used by Flink SQL's FLOWSQL_ANSWER, which reads the
     * same records); never throws for what a record holds.
     */
    public QuestionParse validate(RawRecord record) {
        if (record.value != null && record.value.length > maxRecordBytes) {
            return QuestionParse.rejected(RejectKind.TOO_LARGE, "record of " + record.value.length
                    + " bytes; a question record may hold at most " + maxRecordBytes + " bytes");
        }
        QuestionParse parsed = EventJson.parseQuestion(record.value);
        if (!parsed.isValid()) {
            return parsed;
        }
        QuestionEvent q = parsed.question();
        String unknownStages = unknownStages(q);
        if (unknownStages != null) {
            return QuestionParse.rejected(RejectKind.UNKNOWN_STAGE, unknownStages);
        }
        String key = record.key == null ? null : new String(record.key, StandardCharsets.UTF_8);
        if (key == null || !Arrays.equals(record.key, q.dialogueId.getBytes(StandardCharsets.UTF_8))) {
            return QuestionParse.rejected(RejectKind.KEY_MISMATCH, (key == null ? "the record has no key" : "the record key '"
                    + DeadLetters.excerpt(key, 200) + "' is not the dialogue_id")
                    + "; key each question by its dialogue_id ('" + q.dialogueId + "') so a dialogue's turns stay in one partition, in order");
        }
        if (access.allowsDatabase(access.tenantOf(q.tenant, q.dialogueId), q.dbId) && !declared.contains(q.dbId)
                && databases.sqliteFile(q.dbId).isEmpty()) {
            return QuestionParse.rejected(RejectKind.UNKNOWN_DATABASE, "no database '" + q.dbId + "'");
        }
        return parsed;
    }

    /** Null when every disabled stage exists; otherwise which do not, and the valid names. */
    public static String unknownStages(QuestionEvent q) {
        if (q.options == null || q.options.disabledStages == null) {
            return null;
        }
        List<String> valid = new ArrayList<>(StageRegistry.names());
        valid.addAll(StageSwitches.names());
        List<String> unknown = q.options.disabledStages.stream().filter(s -> !valid.contains(s)).distinct().toList();
        if (unknown.isEmpty()) {
            return null;
        }
        return "options.disabled_stages names no stage or switch: " + String.join(", ", unknown.stream().map(s -> "'" + s + "'").toList())
                + "; valid stages and switches: " + String.join(", ", valid);
    }

    static DeadLetterEvent deadLetter(RawRecord record, String reason, Instant now, int excerptBytes) {
        return DeadLetters.of(record.key, record.value, record.topic, record.partition, record.offset, reason, now.toString(),
                excerptBytes);
    }
}
