package io.flowsql.flink;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.RejectKind;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Makes the request id an invariant (before the dialogue operator): the first question with an id goes on to be
 * answered; a later question with the same id is never answered a second time and never dropped. It becomes a dead
 * letter ({@code duplicate_request_id: ...}) that names the earlier answer's status: at once when that answer is
 * already back on the answers topic, else as soon as it comes back (a duplicate in flight waits for the first). The
 * answers read back (second input) mark the ids this operator let through as answered (answers of ids it never saw
 * change nothing unless built with answersCommitted, which the job does not use yet). An id is remembered {@code ttl} after its last change; a
 * question reusing an id after that is a new question.
 *
 * <p>Started without state and given {@link EarlierAnswers} (the job: the last answers on the answers topic), each
 * subtask reads, before its first record, the answers committed for its dialogue keys before the job started: a question
 * among them with no state here was answered by an earlier run (stopped after its answers' commit, before its consumer
 * offsets') and is dead-lettered, not answered and paid for again. Read before any question, so it does not race the
 * answers read back; a restored job has its state and reads nothing.
 *
 * <p>Keyed by dialogue ({@link DialogueKeys}: a question without a dialogue id is its own dialogue, keyed by its
 * request id), so the turns of a dialogue keep their order on the way to the dialogue operator; the ids are therefore
 * checked within a dialogue key: the same request id sent under another dialogue id is not recognised (it is answered
 * as a new question; README.md documents this scope). The keys are {@link #questionKey()} and {@link #answerKey()};
 * they are part of the state's identity (a savepoint restores only under the same keys), so they never change.
 */
public class RequestIdFunction extends KeyedCoProcessFunction<String, RequestContext, AnswerEvent, RequestContext>
        implements CheckpointedFunction {
    public static final OutputTag<DeadLetterEvent> DUPLICATES = new OutputTag<>("duplicate-request-ids") {};
    static final String IN_FLIGHT = "in-flight";
    /** The status of an id answered before a start without state (its status there is not read). */
    static final String EARLIER = "answered-before-start";

    private final Duration ttl;
    private final int maxWaiting;
    private final boolean answersCommitted;
    private EarlierAnswers earlierAnswers;
    /** (dialogue key, request id) answered before a stateless start ({@link EarlierAnswers#key}); empty otherwise. */
    private transient Set<String> answeredBefore;
    private transient boolean restored;

    /** By request id: "in-flight" while the first question is answered, then the answer's status. */
    private transient MapState<String, String> status;
    /** By request id: repeats waiting for the first question's answer. */
    private transient MapState<String, List<RequestContext>> waiting;
    private transient Counter duplicates;

    /** The key the job partitions the questions by: their dialogue. */
    public static KeySelector<RequestContext, String> questionKey() {
        return new DialogueKeys.OfQuestion();
    }

    /** The key the job partitions the answers read back by: their dialogue, as {@link #questionKey()}. */
    public static KeySelector<AnswerEvent, String> answerKey() {
        return new DialogueKeys.OfAnswer();
    }

    /**
     * @param ttl        how long an id is remembered after its last change
     * @param maxWaiting duplicates of one id held while the first is in flight; more are dead-lettered at once
     */
    public RequestIdFunction(Duration ttl, int maxWaiting) {
        this(ttl, maxWaiting, false);
    }

    /**
     * Not used by the job: with it on, RecoveryITCase lost answers across its task failures (cause not yet found).
     *
     * @param answersCommitted true when the answers read back are committed ones only (read_committed): then an
     *                         answer to an id this state never let through (answered by an earlier run of the job, whose
     *                         consumer position was lost at its stop) marks the id answered too, so that question,
     *                         read again, is a dead letter and not a second, paid-for answer
     */
    public RequestIdFunction(Duration ttl, int maxWaiting, boolean answersCommitted) {
        this.ttl = ttl;
        this.maxWaiting = maxWaiting;
        this.answersCommitted = answersCommitted;
    }

    /** Reads the answers committed before a start without state (see the class comment); returns this. */
    public RequestIdFunction withEarlierAnswers(EarlierAnswers earlier) {
        this.earlierAnswers = earlier;
        return this;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
        restored = context.isRestored();
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        // all of its state is keyed; the answers read at start are not kept (a restore has the keyed state)
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        answeredBefore = Set.of();
        if (earlierAnswers != null && !restored) {
            var task = getRuntimeContext().getTaskInfo();
            int maxParallelism = task.getMaxNumberOfParallelSubtasks();
            int parallelism = task.getNumberOfParallelSubtasks();
            int subtask = task.getIndexOfThisSubtask();
            answeredBefore = earlierAnswers.load(key -> KeyGroupRangeAssignment.assignKeyToParallelOperator(
                    key, maxParallelism, parallelism) == subtask);
        }
        StateTtlConfig expiry = StateTtlConfig.newBuilder(ttl).updateTtlOnCreateAndWrite().neverReturnExpired().build();
        MapStateDescriptor<String, String> statusDescriptor = new MapStateDescriptor<>("status", Types.STRING, Types.STRING);
        statusDescriptor.enableTimeToLive(expiry);
        status = getRuntimeContext().getMapState(statusDescriptor);
        MapStateDescriptor<String, List<RequestContext>> waitingDescriptor = new MapStateDescriptor<>("waiting",
                Types.STRING, Types.LIST(TypeInformation.of(RequestContext.class)));
        waitingDescriptor.enableTimeToLive(expiry);
        waiting = getRuntimeContext().getMapState(waitingDescriptor);
        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("flowsql").addGroup("requests");
        duplicates = group.counter("duplicateRequestIds");
    }

    @Override
    public void processElement1(RequestContext question, Context ctx, Collector<RequestContext> out) throws Exception {
        String id = question.requestId;
        String seen = status.get(id);
        if (seen == null && answeredBefore.contains(EarlierAnswers.key(ctx.getCurrentKey(), id))) {
            duplicates.inc();
            status.put(id, EARLIER);
            ctx.output(DUPLICATES, deadLetter(question, "it was already answered before this job started; that answer "
                    + "is on the answers topic", ctx));
            return;
        }
        if (seen == null) {
            status.put(id, IN_FLIGHT);
            out.collect(question);
            return;
        }
        duplicates.inc();
        List<RequestContext> held = waiting.get(id);
        if (IN_FLIGHT.equals(seen) && (held == null || held.size() < maxWaiting)) {
            List<RequestContext> more = held == null ? new ArrayList<>() : new ArrayList<>(held);
            more.add(question);
            waiting.put(id, more);
            return;
        }
        ctx.output(DUPLICATES, deadLetter(question, IN_FLIGHT.equals(seen)
                ? "the first question with this id is still being answered and " + maxWaiting + " repeats already wait for it"
                : "it was already answered (status " + seen + "); that answer is on the answers topic", ctx));
    }

    @Override
    public void processElement2(AnswerEvent answer, Context ctx, Collector<RequestContext> out) throws Exception {
        if (status.get(answer.requestId) == null && !answersCommitted) {
            // not a question this state let through: with the feedback read uncommitted, an answer written before a
            // restore (its transaction aborted) is read again while its question is being replayed; marking its id
            // answered would dead-letter the replayed question and lose its answer. A committed answer is final, so
            // with read_committed it marks the id whoever answered it (an earlier run of the job included).
            return;
        }
        String answered = answer.status == null ? "unknown" : answer.status;
        status.put(answer.requestId, answered);
        List<RequestContext> held = waiting.get(answer.requestId);
        if (held == null) {
            return;
        }
        for (RequestContext repeat : held) {
            ctx.output(DUPLICATES, deadLetter(repeat,
                    "it was answered meanwhile (status " + answered + "); that answer is on the answers topic", ctx));
        }
        waiting.remove(answer.requestId);
    }

    private static DeadLetterEvent deadLetter(RequestContext question, String why, Context ctx) {
        return QuestionDeadLetter.of(question, RejectKind.DUPLICATE_REQUEST_ID.wireName() + ": request_id "
                + question.requestId + " is not answered again: " + why, ctx.timerService().currentProcessingTime());
    }

    /** "topic/partition@offset" as written by the source; unknown parts stay empty / -1. */
    record Origin(String topic, int partition, long offset) {
        static Origin parse(String origin) {
            if (origin == null) {
                return new Origin(null, -1, -1);
            }
            int slash = origin.lastIndexOf('/');
            int at = origin.lastIndexOf('@');
            try {
                if (slash > 0 && at > slash) {
                    return new Origin(origin.substring(0, slash), Integer.parseInt(origin.substring(slash + 1, at)),
                            Long.parseLong(origin.substring(at + 1)));
                }
            } catch (NumberFormatException e) {
                // not written by the source: keep the text as the topic
            }
            return new Origin(origin, -1, -1);
        }
    }
}
