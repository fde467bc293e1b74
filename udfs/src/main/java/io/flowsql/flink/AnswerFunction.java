package io.flowsql.flink;

import io.flowsql.events.AnswerEvent;
import io.flowsql.events.AnswerMapper;
import io.flowsql.pipeline.AnswerStatus;
import io.flowsql.pipeline.Candidate;
import io.flowsql.pipeline.RequestContext;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

import java.util.HashMap;
import java.util.Map;

/** The last operator: turns a finished request into its answer event and reports answers by status, end-to-end latency and vote agreement. */
public class AnswerFunction extends RichMapFunction<RequestContext, AnswerEvent> {
    private transient MetricGroup group;
    private transient Map<String, org.apache.flink.metrics.Counter> byStatus;
    private transient Histogram endToEndMs;
    private transient Histogram voteAgreementPercent;

    @Override
    public void open(OpenContext openContext) {
        group = getRuntimeContext().getMetricGroup().addGroup("flowsql").addGroup("answers");
        byStatus = new HashMap<>();
        // Every documented status is reported from the start, at 0 until it happens, so a reporter sees it.
        for (AnswerStatus status : AnswerStatus.values()) {
            byStatus.put(status.wireName(), group.counter(status.wireName()));
        }
        endToEndMs = group.histogram("endToEndMs", new DescriptiveStatisticsHistogram(1000));
        voteAgreementPercent = group.histogram("voteAgreementPercent", new DescriptiveStatisticsHistogram(1000));
    }

    @Override
    public AnswerEvent map(RequestContext ctx) {
        AnswerEvent answer = AnswerMapper.fromContext(ctx);
        byStatus.computeIfAbsent(answer.status, s -> group.counter(s)).inc();
        if (ctx.receivedAtMillis > 0) {
            endToEndMs.update(System.currentTimeMillis() - ctx.receivedAtMillis);
        }
        int agreement = voteAgreement(ctx);
        if (agreement >= 0) {
            voteAgreementPercent.update(agreement);
        }
        return answer;
    }

    /** The winning candidate's votes as a share of the executed candidates, in percent; -1 when there was no vote. */
    static int voteAgreement(RequestContext ctx) {
        int executed = 0;
        int best = 0;
        for (Candidate c : ctx.candidates) {
            if (c.executed) {
                executed++;
            }
            best = Math.max(best, c.votes);
        }
        return executed == 0 || best == 0 ? -1 : Math.min(100, best * 100 / executed);
    }
}
