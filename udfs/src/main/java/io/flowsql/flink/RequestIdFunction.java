package io.flowsql.flink;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.DeadLetterEvent;
import io.flowsql.events.EventJson;
import io.flowsql.events.QuestionEvent;
import io.flowsql.events.RejectKind;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.time.Duration;
import java.time.Instant;

/**
 * Makes the request id an invariant (keyed by request id, before the dialogue operator): the first question with an
 * id goes on to be answered; a later question with the same id is never answered a second time and never dropped.
 * It becomes a dead letter ({@code duplicate_request_id: ...}) that names the earlier answer's status: at once when
 * that answer is already back on the answers topic, else as soon as it comes back (a duplicate in flight waits for
 * the first). The answers read back (second input) mark ids as answered. An id is remembered {@code ttl} after its
 * last change; a question reusing an id after that is a new question.
 */
public class RequestIdFunction extends KeyedCoProcessFunction<String, RequestContext, AnswerEvent, RequestContext> {
    public static final OutputTag<DeadLetterEvent> DUPLICATES = new OutputTag<>("duplicate-request-ids") {};
    static final String IN_FLIGHT = "in-flight";

    private final Duration ttl;
    private final int maxWaiting;

    /** "in-flight" while the first question is answered, then the answer's status. */
    private transient ValueState<String> status;
    private transient ListState<RequestContext> waiting;
    private transient ValueState<Integer> waitingCount;
    private transient Counter duplicates;

    /**
     * @param ttl        how long an id is remembered after its last change
     * @param maxWaiting duplicates of one id held while the first is in flight; more are dead-lettered at once
     */
    public RequestIdFunction(Duration ttl, int maxWaiting) {
        this.ttl = ttl;
        this.maxWaiting = maxWaiting;
    }

    @Override
    public void open(OpenContext openContext) {
        StateTtlConfig expiry = StateTtlConfig.newBuilder(ttl).updateTtlOnCreateAndWrite().neverReturnExpired().build();
        ValueStateDescriptor<String> statusDescriptor = new ValueStateDescriptor<>("status", Types.STRING);
        statusDescriptor.enableTimeToLive(expiry);
        status = getRuntimeContext().getState(statusDescriptor);
        ListStateDescriptor<RequestContext> waitingDescriptor =
                new ListStateDescriptor<>("waiting", TypeInformation.of(RequestContext.class));
        waitingDescriptor.enableTimeToLive(expiry);
        waiting = getRuntimeContext().getListState(waitingDescriptor);
        ValueStateDescriptor<Integer> countDescriptor = new ValueStateDescriptor<>("waiting-count", Types.INT);
        countDescriptor.enableTimeToLive(expiry);
        waitingCount = getRuntimeContext().getState(countDescriptor);
        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("flowsql").addGroup("requests");
        duplicates = group.counter("duplicateRequestIds");
    }

    @Override
    public void processElement1(RequestContext question, Context ctx, Collector<RequestContext> out) throws Exception {
        String seen = status.value();
        if (seen == null) {
            status.update(IN_FLIGHT);
            out.collect(question);
            return;
        }
        duplicates.inc();
        int held = waitingCount.value() == null ? 0 : waitingCount.value();
        if (IN_FLIGHT.equals(seen) && held < maxWaiting) {
            waiting.add(question);
            waitingCount.update(held + 1);
            return;
        }
        ctx.output(DUPLICATES, deadLetter(question, IN_FLIGHT.equals(seen)
                ? "the first question with this id is still being answered and " + maxWaiting + " repeats already wait for it"
                : "it was already answered (status " + seen + "); that answer is on the answers topic", ctx));
    }

    @Override
    public void processElement2(AnswerEvent answer, Context ctx, Collector<RequestContext> out) throws Exception {
        String answered = answer.status == null ? "unknown" : answer.status;
        status.update(answered);
        for (RequestContext repeat : waiting.get()) {
            ctx.output(DUPLICATES, deadLetter(repeat,
                    "it was answered meanwhile (status " + answered + "); that answer is on the answers topic", ctx));
        }
        waiting.clear();
        waitingCount.clear();
    }

    private static DeadLetterEvent deadLetter(RequestContext question, String why, Context ctx) {
        QuestionEvent event = new QuestionEvent(question.requestId, question.dialogueId, question.dbId, question.question);
        event.evidence = question.evidence;
        Origin origin = Origin.parse(question.origin);
        return new DeadLetterEvent(EventJson.toJson(event), origin.topic, origin.partition, origin.offset,
                RejectKind.DUPLICATE_REQUEST_ID.wireName() + ": request_id " + question.requestId + " is not answered again: "
                        + why, Instant.ofEpochMilli(ctx.timerService().currentProcessingTime()).toString());
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
