package io.flowsql.job.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flowsql.engine.EngineRuntime;
import io.flowsql.flink.EarlierAnswers;
import io.flowsql.events.AnswerMapper;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.DeadLetters;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.QuestionMapper;
import io.flowsql.events.QuestionParse;
import io.flowsql.events.RejectKind;
import io.flowsql.job.kafka.ParseAndValidate;
import io.flowsql.job.kafka.RawRecord;
import io.flowsql.pipeline.Cancellation;
import io.flowsql.pipeline.FailureKind;
import io.flowsql.pipeline.NamedStage;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Strategy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Answers one question the way the DataStream job does, without Flink: the same questions schema and checks, the same
 * preset's stages from the same engine, one after another on the engine's work pool, under one time budget for the whole
 * question. The future always completes normally with one {@link SqlAnswer}; what the job would dead-letter is a
 * {@code rejected} answer, a question over its budget a {@code failed} one of kind {@code timeout} whose running stage was
 * cancelled (its model calls aborted, its SQL stopped).
 */
public final class QuestionAnswerer {
    /** The stage name a question over its whole budget is failed under. */
    static final String FUNCTION_STAGE = "text_to_sql";

    /** The topic name in the dead letter of a question passed as TEXT_TO_SQL's arguments rather than read from a topic. */
    static final String ORIGIN_TOPIC = "sql-function";

    private final EngineRuntime runtime;
    private final ParseAndValidate validator;
    private final String defaultPreset;
    private final long budgetMillis;
    private final Supplier<String> requestIds;
    private volatile Set<String> answeredBefore = Set.of();

    /** @param validator the job's checks of a question record, with the databases it knows */
    public QuestionAnswerer(EngineRuntime runtime, ParseAndValidate validator, String defaultPreset, long budgetMillis) {
        this(runtime, validator, defaultPreset, budgetMillis, () -> "sql-" + UUID.randomUUID());
    }

    QuestionAnswerer(EngineRuntime runtime, ParseAndValidate validator, String defaultPreset, long budgetMillis,
                     Supplier<String> requestIds) {
        if (budgetMillis <= 0) {
            throw new IllegalArgumentException("the question budget must be positive");
        }
        this.runtime = runtime;
        this.validator = validator;
        this.defaultPreset = defaultPreset;
        this.budgetMillis = budgetMillis;
        this.requestIds = requestIds;
    }

    /**
     * The (dialogue key, request id) pairs ({@link EarlierAnswers#key}) already on the answers topic when this answerer
     * started: a question record among them is refused as {@code duplicate_request_id}, not answered (and paid for)
     * again. Set once, before the first record.
     */
    public void answeredBefore(Set<String> keys) {
        this.answeredBefore = Set.copyOf(keys);
    }

    /**
     * @param question the question text
     * @param dbId     the database it asks about
     * @param extras   null, or a JSON object with any of the question event's other fields (request_id, dialogue_id,
     *                 evidence, options, history, sent_at)
     */
    public CompletableFuture<SqlAnswer> answer(String question, String dbId, String extras) {
        ObjectNode event;
        try {
            event = questionEvent(question, dbId, extras);
        } catch (IllegalArgumentException e) {
            byte[] value = extras == null ? null : extras.getBytes(StandardCharsets.UTF_8);
            return CompletableFuture.completedFuture(rejected(new RawRecord(null, value, ORIGIN_TOPIC, 0, 0, 0),
                    QuestionParse.rejected(RejectKind.SCHEMA, e.getMessage())));
        }
        JsonNode dialogue = event.get("dialogue_id");
        byte[] key = dialogue.isTextual() ? dialogue.asText().getBytes(StandardCharsets.UTF_8) : null;
        return answer(new RawRecord(key, EventJson.toBytes(event), ORIGIN_TOPIC, 0, 0, System.currentTimeMillis()));
    }

    /** A question record as read from a topic: the job's checks, then its preset; a refused record is a dead letter. */
    public CompletableFuture<SqlAnswer> answer(RawRecord record) {
        QuestionParse parsed;
        try {
            parsed = validator.validate(record);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            parsed = QuestionParse.rejected(RejectKind.INTERNAL, "the record could not be read: " + e);
        }
        if (!parsed.isValid()) {
            return CompletableFuture.completedFuture(rejected(record, parsed));
        }
        if (answeredBefore(parsed.question())) {
            return CompletableFuture.completedFuture(rejected(record, QuestionParse.rejected(RejectKind.DUPLICATE_REQUEST_ID,
                    "it was already answered before this job started; that answer is on the answers topic")));
        }
        try {
            return run(parsed.question(), record.origin());
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(rejected(record, QuestionParse.rejected(RejectKind.INTERNAL, String.valueOf(e))));
        }
    }

    private boolean answeredBefore(QuestionEvent q) {
        return q.requestId != null && answeredBefore.contains(
                EarlierAnswers.key(q.dialogueId != null ? q.dialogueId : q.requestId, q.requestId));
    }

    private SqlAnswer rejected(RawRecord record, QuestionParse parsed) {
        DeadLetterEvent letter = DeadLetters.of(record.key, record.value, record.topic, record.partition, record.offset,
                parsed.reason(), Instant.now().toString(), DeadLetters.DEFAULT_EXCERPT_BYTES);
        return SqlAnswer.rejected(record.key == null ? null : new String(record.key, StandardCharsets.UTF_8), parsed, letter);
    }

    private ObjectNode questionEvent(String question, String dbId, String extras) {
        ObjectNode event = EventJson.mapper().createObjectNode();
        if (extras != null && !extras.isBlank()) {
            JsonNode given;
            try {
                given = EventJson.mapper().readTree(extras);
            } catch (IOException e) {
                throw new IllegalArgumentException("the options argument is not JSON: " + firstLine(e.getMessage()));
            }
            if (!(given instanceof ObjectNode object)) {
                throw new IllegalArgumentException("the options argument must be a JSON object");
            }
            event = object;
        }
        event.put("question", question);
        event.put("db_id", dbId);
        if (!event.hasNonNull("request_id")) {
            event.put("request_id", requestIds.get());
        }
        if (!event.hasNonNull("dialogue_id")) {
            event.set("dialogue_id", event.get("request_id"));
        }
        return event;
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }

    private CompletableFuture<SqlAnswer> run(QuestionEvent q, String origin) {
        RequestContext ctx = QuestionMapper.toContext(q, origin, System.currentTimeMillis());
        Strategy strategy = runtime.strategy(ctx.strategy == null ? defaultPreset : ctx.strategy);
        Cancellation cancellation = new Cancellation();
        ctx.cancellation = cancellation;
        AtomicReference<String> current = new AtomicReference<>("start");
        CompletableFuture<RequestContext> chain = CompletableFuture.completedFuture(ctx);
        for (NamedStage stage : strategy.stages()) {
            chain = chain.thenCompose(c -> {
                if (cancellation.isCancelled() || !stage.appliesTo(c)) {
                    return CompletableFuture.completedFuture(c);
                }
                current.set(stage.name());
                return stage.applyOn(runtime.work(), c);
            });
        }
        CompletableFuture<SqlAnswer> answer = new CompletableFuture<>();
        chain.whenComplete((done, error) -> {
            if (error != null) {
                done = ctx;
                done.fail(current.get(), FailureKind.INTERNAL, String.valueOf(error));
            }
            done.cancellation = null;
            answer.complete(SqlAnswer.of(AnswerMapper.fromContext(done)));
        });
        CompletableFuture.delayedExecutor(budgetMillis, TimeUnit.MILLISECONDS).execute(() -> {
            if (answer.isDone()) {
                return;
            }
            // The stages keep mutating ctx until they see the cancellation: the answer is built from a fresh context.
            RequestContext timedOut = QuestionMapper.toContext(q, origin, ctx.receivedAtMillis);
            timedOut.fail(FUNCTION_STAGE, FailureKind.TIMEOUT, "timed out after " + budgetMillis
                    + " ms (sql-function.timeout) in stage " + current.get());
            if (answer.complete(SqlAnswer.of(AnswerMapper.fromContext(timedOut)))) {
                cancellation.cancel();
            }
        });
        return answer;
    }
}
