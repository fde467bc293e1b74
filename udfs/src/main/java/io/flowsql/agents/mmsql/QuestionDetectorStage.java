package io.flowsql.agents.mmsql;

import io.flowsql.agents.common.PromptFields;
import io.flowsql.pipeline.AnswerStatus;
import io.flowsql.pipeline.Interpretation;
import io.flowsql.pipeline.RequestContext;
import io.flowsql.pipeline.Stage;
import io.flowsql.pipeline.StageTrace;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The {@code mmsql.detect} stage: records the turn's type; an ambiguous turn gets its clarification and
 * readings and status "clarification" (only {@code mmsql.readings} still works on it), an unanswerable or
 * improper turn gets its reply and status "refused" with no SQL; an answerable turn goes on to the generators.
 */
public final class QuestionDetectorStage implements Stage {
    private final QuestionDetector detector;
    private final Function<RequestContext, PromptFields> frames;

    public QuestionDetectorStage(QuestionDetector detector, Function<RequestContext, PromptFields> frames) {
        this.detector = detector;
        this.frames = frames;
    }

    @Override
    public CompletableFuture<?> run(RequestContext ctx, StageTrace trace) {
        return detector.detect(frames.apply(ctx), trace).thenAccept(d -> {
            ctx.questionType = d.type().wireName();
            trace.note = ctx.questionType + (d.reason().isEmpty() ? "" : ": " + d.reason());
            switch (d.type()) {
                case ANSWERABLE -> { }
                case AMBIGUOUS -> {
                    ctx.response = d.response();
                    ctx.interpretations.clear();
                    d.readings().forEach(r -> ctx.interpretations.add(new Interpretation(r, null)));
                    ctx.settle(AnswerStatus.CLARIFICATION);
                }
                case UNANSWERABLE, IMPROPER -> {
                    ctx.response = d.response();
                    ctx.finalSql = null;
                    ctx.settle(AnswerStatus.REFUSED);
                }
            }
        });
    }
}
